// The storage format of `ActivationData` (format 1, documented on the type) and unlocking the
// keys it holds.

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
        func b64(_ text: String?, count: Int? = nil) throws(ProtocolError) -> [UInt8] {
            guard let text else { throw ProtocolError(.malformedInput, "activation data field missing") }
            let value = try ProtocolError.converting("activation data field") { () throws(CryptoError) in try Base64.decode(text) }
            guard count.map({ value.count == $0 }) ?? true else { throw ProtocolError(.malformedInput, "activation data field length") }
            return value
        }
        guard wire.format == 1, let version = PowerAuth.ProtocolVersion(rawValue: wire.protocolVersion), !wire.activationId.isEmpty,
              (0...255).contains(wire.ctrByte), (PowerAuth.KeyLocking.passwordIterations...PowerAuth.KeyLocking.maximumPasswordIterations).contains(wire.iterations) else {
            throw ProtocolError(.malformedInput, "activation data header")
        }
        let ctr = try b64(wire.ctrData, count: 16)
        let counter = try ProtocolError.converting("activation data counter") { () throws(CryptoError) in try PowerAuth.CounterData(rawRepresentation: ctr) }
        self.init(activationID: wire.activationId, protocolVersion: version, serverPublicKey: try b64(wire.serverPublicKey),
                  devicePublicKey: try b64(wire.devicePublicKey), counter: counter, counterByte: UInt8(wire.ctrByte),
                  passwordSalt: try b64(wire.salt, count: 16), passwordIterations: wire.iterations,
                  lockedPossessionKey: try b64(wire.possessionKey, count: 16), lockedKnowledgeKey: try b64(wire.knowledgeKey, count: 16),
                  lockedBiometryKey: try wire.biometryKey.map { (text: String) throws(ProtocolError) in try b64(text, count: 16) },
                  lockedTransportKey: try b64(wire.transportKey, count: 16), sealedDevicePrivateKey: try b64(wire.devicePrivateKey),
                  sealedRecoveryData: try wire.recoveryData.map { (text: String) throws(ProtocolError) in try b64(text) })
        usesExternalEncryptionKey = wire.externalEncryptionKey ?? false
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
