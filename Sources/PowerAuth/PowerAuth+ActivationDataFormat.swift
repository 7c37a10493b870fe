// The portable serialization of `ActivationData` (format 1, documented on the type; the SDK
// stores its own sealed record, built from the same checked fields) and unlocking the keys it
// holds.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth.ActivationData {
    /// The format-1 JSON bytes.
    public var serialized: [UInt8] {
        var members: [(String, JSONText)] = [
            ("format", .integer(1)), ("activationId", .string(activationID)), ("protocolVersion", .string(protocolVersion.rawValue)),
            ("serverPublicKey", .string(Base64.encode(serverPublicKey))), ("devicePublicKey", .string(Base64.encode(devicePublicKey))),
            // The record's own format; the store encrypts it at rest.
            ("ctrData", .string(Base64.encode(counter.rawRepresentation.unsafeExposedBytes))), ("ctrByte", .integer(Int64(counterByte))),
            ("salt", .string(Base64.encode(passwordSalt))), ("iterations", .integer(Int64(passwordIterations))),
            ("possessionKey", .string(Base64.encode(lockedPossessionKey))), ("knowledgeKey", .string(Base64.encode(lockedKnowledgeKey))),
        ]
        if let lockedBiometryKey { members.append(("biometryKey", .string(Base64.encode(lockedBiometryKey)))) }
        members += [("transportKey", .string(Base64.encode(lockedTransportKey))), ("devicePrivateKey", .string(Base64.encode(sealedDevicePrivateKey)))]
        if let sealedRecoveryData { members.append(("recoveryData", .string(Base64.encode(sealedRecoveryData)))) }
        if usesExternalEncryptionKey { members.append(("externalEncryptionKey", .bool(true))) }
        return JSONText.object(members).bytes
    }

    /// Reads format-1 bytes; anything else — another format, a missing field, bad Base64, a
    /// key of the wrong length, an iteration count below 10 000 — is
    /// `ProtocolError.Code.malformedInput`.
    public init(serialized bytes: some Sequence<UInt8>) throws(ProtocolError) {
        let wire = try JSONResponse.decode(Wire.self, from: bytes, what: "activation data")
        func b64(_ text: String?) throws(ProtocolError) -> [UInt8] {
            guard let text else { throw ProtocolError(.malformedInput, "activation data field missing") }
            return try ProtocolError.converting("activation data field") { () throws(CryptoError) in try Base64.decode(text) }
        }
        guard wire.format == 1 else { throw ProtocolError(.malformedInput, "activation data header") }
        try self.init(validatingActivationID: wire.activationId, protocolVersion: wire.protocolVersion,
                      serverPublicKey: try b64(wire.serverPublicKey), devicePublicKey: try b64(wire.devicePublicKey),
                      counter: try b64(wire.ctrData), counterByte: wire.ctrByte, passwordSalt: try b64(wire.salt),
                      passwordIterations: wire.iterations, lockedPossessionKey: try b64(wire.possessionKey),
                      lockedKnowledgeKey: try b64(wire.knowledgeKey),
                      lockedBiometryKey: try wire.biometryKey.map { (text: String) throws(ProtocolError) in try b64(text) },
                      lockedTransportKey: try b64(wire.transportKey), sealedDevicePrivateKey: try b64(wire.devicePrivateKey),
                      sealedRecoveryData: try wire.recoveryData.map { (text: String) throws(ProtocolError) in try b64(text) },
                      usesExternalEncryptionKey: wire.externalEncryptionKey ?? false)
    }

    /// An activation from its stored fields, checked as format 1 checks them (a known protocol
    /// version, a non-empty id, a counter byte of 0–255, 16-byte counter, salt and locked keys,
    /// an iteration count of 10 000 up to the maximum); anything else is
    /// `ProtocolError.Code.malformedInput`. The SDK's store record reads its fields through this.
    package init(validatingActivationID activationID: String, protocolVersion: String, serverPublicKey: [UInt8], devicePublicKey: [UInt8],
                 counter: some Sequence<UInt8>, counterByte: Int, passwordSalt: [UInt8], passwordIterations: Int,
                 lockedPossessionKey: [UInt8], lockedKnowledgeKey: [UInt8], lockedBiometryKey: [UInt8]?, lockedTransportKey: [UInt8],
                 sealedDevicePrivateKey: [UInt8], sealedRecoveryData: [UInt8]?, usesExternalEncryptionKey: Bool) throws(ProtocolError) {
        guard let version = PowerAuth.ProtocolVersion(rawValue: protocolVersion), !activationID.isEmpty, (0...255).contains(counterByte),
              (PowerAuth.KeyLocking.passwordIterations...PowerAuth.KeyLocking.maximumPasswordIterations).contains(passwordIterations) else {
            throw ProtocolError(.malformedInput, "activation data header")
        }
        let sixteen = [passwordSalt, lockedPossessionKey, lockedKnowledgeKey, lockedTransportKey] + (lockedBiometryKey.map { [$0] } ?? [])
        guard sixteen.allSatisfy({ $0.count == 16 }) else { throw ProtocolError(.malformedInput, "activation data field length") }
        let counter = try ProtocolError.converting("activation data counter") { () throws(CryptoError) in
            try PowerAuth.CounterData(rawRepresentation: counter)
        }
        self.init(activationID: activationID, protocolVersion: version, serverPublicKey: serverPublicKey,
                  devicePublicKey: devicePublicKey, counter: counter, counterByte: UInt8(counterByte),
                  passwordSalt: passwordSalt, passwordIterations: passwordIterations,
                  lockedPossessionKey: lockedPossessionKey, lockedKnowledgeKey: lockedKnowledgeKey, lockedBiometryKey: lockedBiometryKey,
                  lockedTransportKey: lockedTransportKey, sealedDevicePrivateKey: sealedDevicePrivateKey, sealedRecoveryData: sealedRecoveryData)
        self.usesExternalEncryptionKey = usesExternalEncryptionKey
    }

    private struct Wire: Decodable {
        let format: Int
        let activationId: String
        let protocolVersion: String
        let serverPublicKey: String
        let devicePublicKey: String
        let ctrData: String
        let ctrByte: Int
        let salt: String
        let iterations: Int
        let possessionKey: String
        let knowledgeKey: String
        let biometryKey: String?
        let transportKey: String
        let devicePrivateKey: String
        let recoveryData: String?
        let externalEncryptionKey: Bool?
    }

    /// The factor keys for `factors`, unlocked: possession with the device-bound key, knowledge
    /// with the password (a wrong one gives a wrong key, silently, §4.2), biometry with its key;
    /// `externalEncryptionKey` is required exactly when ``usesExternalEncryptionKey``.
    public func signatureKeys(for factors: PowerAuth.SignatureFactors, possessionUnlockKey: SymmetricKey, password: SecretBytes? = nil,
                              biometryUnlockKey: SymmetricKey? = nil, externalEncryptionKey: SymmetricKey? = nil) throws(ProtocolError) -> PowerAuth.SignatureKeys {
        let external = try externalLayerKey(externalEncryptionKey)
        var keys = PowerAuth.SignatureKeys()
        if factors.usesPossession { keys.possession = try PowerAuth.KeyLocking.unlock(lockedPossessionKey, with: possessionUnlockKey) }
        if factors.usesKnowledge {
            guard let password else { throw ProtocolError(.invalidArgument, "the knowledge factor needs the password") }
            let unlock = try PowerAuth.KeyLocking.passwordUnlockKey(password: password, salt: passwordSalt, iterations: passwordIterations)
            keys.knowledge = try PowerAuth.KeyLocking.unlock(try lockedKnowledgeKey(externalKey: external), with: unlock)
        }
        if factors.usesBiometry {
            guard let biometryUnlockKey, let locked = lockedBiometryKey else { throw ProtocolError(.invalidArgument, "no biometry factor") }
            keys.biometry = try PowerAuth.KeyLocking.unlock(try PowerAuth.KeyLocking.removeExternalLayer(locked, externalKey: external),
                                                            with: biometryUnlockKey)
        }
        return keys
    }

    /// KEY_TRANSPORT, unlocked with the possession unlock key (status, ECIES, vault).
    public func transportKey(possessionUnlockKey: SymmetricKey) throws(ProtocolError) -> SymmetricKey {
        try PowerAuth.KeyLocking.unlock(lockedTransportKey, with: possessionUnlockKey)
    }
}
