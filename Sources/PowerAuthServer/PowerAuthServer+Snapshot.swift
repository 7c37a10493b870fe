// What a PowerAuth server persists between runs (mfa-server's `--state FILE`): every field of an application, an activation and a recovery
// code as plain Codable values. They hold the server's private keys and PUKs in the clear —
// whoever stores a snapshot must protect it (mfa-server writes its file 0600).

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthServer.Application {
    /// An application's keys and identifiers, Base64.
    public struct Snapshot: Codable, Sendable {
        /// The master private key, 32 bytes.
        public var masterPrivateKey: String
        /// APP_KEY.
        public var applicationKey: String
        /// APP_SECRET.
        public var applicationSecret: String
    }

    /// This application as a snapshot.
    public var snapshot: Snapshot {
        Snapshot(masterPrivateKey: Base64.encode(masterSigningKey.rawRepresentation.unsafeExposedBytes),
                 applicationKey: applicationKey, applicationSecret: applicationSecret)
    }

    /// The application a snapshot describes; `ProtocolError.Code.malformedInput` when it does not decode.
    public init(snapshot: Snapshot) throws(ProtocolError) {
        let key = try ProtocolError.converting("master private key") { () throws(CryptoError) in
            try P256.Signing.PrivateKey(rawRepresentation: Base64.decode(snapshot.masterPrivateKey))
        }
        try self.init(masterKey: key, applicationKey: snapshot.applicationKey, applicationSecret: snapshot.applicationSecret)
    }
}

extension PowerAuthServer.Activation {
    /// An activation's record, keys Base64.
    public struct Snapshot: Codable, Sendable {
        /// The activation id.
        public var id: String
        /// The protocol version it was created with (`3.2`).
        public var version: String
        /// KEY_SERVER_PRIVATE, 32 bytes.
        public var serverPrivateKey: String
        /// KEY_DEVICE_PUBLIC, uncompressed.
        public var devicePublicKey: String
        /// CTR_DATA, 16 bytes.
        public var counter: String
        /// The integer counter.
        public var counterIndex: Int
        /// Failed attempts so far.
        public var failedAttempts: UInt8
        /// Failed attempts that block.
        public var maxFailedAttempts: UInt8
        /// The look-ahead window (1…64).
        public var lookAheadWindow: Int
        /// The state byte (§6.3).
        public var state: UInt8
        /// APP_KEY of the activation's application (absent in snapshots written before it was kept).
        public var applicationKey: String?
    }

    /// This activation as a snapshot.
    public var snapshot: Snapshot {
        Snapshot(id: id, version: version.rawValue, serverPrivateKey: Base64.encode(serverKey.rawRepresentation.unsafeExposedBytes),
                 devicePublicKey: Base64.encode(devicePublicKey.x963Representation),
                 counter: Base64.encode(counter.rawRepresentation.unsafeExposedBytes), counterIndex: counterIndex,
                 failedAttempts: failedAttempts, maxFailedAttempts: maxFailedAttempts, lookAheadWindow: lookAheadWindow, state: state.rawValue,
                 applicationKey: applicationKey)
    }

    /// The activation a snapshot describes: the keys are derived again from the two key pairs
    /// (§4.1). `ProtocolError.Code.malformedInput` for anything that does not decode or is out
    /// of range.
    public init(snapshot: Snapshot) throws(ProtocolError) {
        guard let version = PowerAuth.ProtocolVersion(rawValue: snapshot.version), let state = PowerAuth.ActivationState(rawValue: snapshot.state),
              snapshot.counterIndex >= 0, snapshot.maxFailedAttempts > 0 else {
            throw ProtocolError(.malformedInput, "activation snapshot fields")
        }
        let (serverKey, device, counter, master) = try ProtocolError.converting("activation snapshot keys") { () throws(CryptoError) in
            let serverKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: Base64.decode(snapshot.serverPrivateKey))
            let device = try P256.KeyAgreement.PublicKey(x963Representation: Base64.decode(snapshot.devicePublicKey))
            return (serverKey, device, try PowerAuth.CounterData(rawRepresentation: Base64.decode(snapshot.counter)),
                    try PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: serverKey, serverPublicKey: device))
        }
        self.init(id: snapshot.id, version: version, serverKey: serverKey, devicePublicKey: device, applicationKey: snapshot.applicationKey,
                  keys: PowerAuth.ActivationKeys(masterSecret: master), counter: counter)
        counterIndex = snapshot.counterIndex
        failedAttempts = snapshot.failedAttempts
        maxFailedAttempts = snapshot.maxFailedAttempts
        try setLookAheadWindow(snapshot.lookAheadWindow)
        self.state = state
    }
}

extension PowerAuthServer.RecoveryCode {
    /// A recovery code's record, PUKs as digits.
    public struct Snapshot: Codable, Sendable {
        /// The code, without `R:`.
        public var code: String
        /// The PUKs, ten digits each.
        public var puks: [String]
        /// The activation it belongs to.
        public var activationID: String?
        /// `CREATED`, `ACTIVE`, `BLOCKED` or `REVOKED`.
        public var state: String
        /// The PUK to use next (1-based).
        public var currentPukIndex: Int
        /// Failed PUK attempts.
        public var failedAttempts: Int
    }

    /// This code as a snapshot.
    public var snapshot: Snapshot {
        Snapshot(code: code, puks: puks.map { String(decoding: $0.unsafeExposedBytes, as: UTF8.self) }, activationID: activationID,
                 state: state.rawValue, currentPukIndex: currentPukIndex, failedAttempts: failedAttempts)
    }

    /// The code a snapshot describes.
    public init(snapshot: Snapshot) throws(ProtocolError) {
        guard let state = State(rawValue: snapshot.state) else { throw ProtocolError(.malformedInput, "recovery code state") }
        try self.init(code: snapshot.code, puks: snapshot.puks.map { SecretBytes(Array($0.utf8)) }, activationID: snapshot.activationID,
                      state: state, currentPukIndex: snapshot.currentPukIndex, failedAttempts: snapshot.failedAttempts)
    }
}
