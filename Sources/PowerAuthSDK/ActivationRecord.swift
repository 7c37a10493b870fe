// The activation as the store keeps it: a `RecordStore` record like every other client's
// (docs/protocols/powerauth.md §5.4), its public fields in the JSON and its counter, locked keys
// and sealed data in the record's secret section, so that none of them passes through a
// `String` on its way to or from the disk. A record of the earlier all-JSON form (format 1, the
// activation's portable serialization) is read by `ActivationStore` with
// `PowerAuth.ActivationData(serialized:)`, and the next write replaces it with this form.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import SecureStore

/// `powerauth.<instance>.activation`: one activation, format 2.
struct ActivationRecord: SealedRecordValue {
    /// The fields kept in the JSON.
    private struct Header: Codable {
        var format: Int
        var activationId: String
        var protocolVersion: String
        var serverPublicKey: String
        var devicePublicKey: String
        var ctrByte: Int
        var salt: String
        var iterations: Int
        var externalEncryptionKey: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case format, activationId, protocolVersion, serverPublicKey, devicePublicKey, ctrByte, salt, iterations, externalEncryptionKey
        }
    }

    /// Any member name, to find the members a header does not have.
    private struct Member: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The secrets a record may hold.
    private static let secretNames: Set = ["ctrData", "possessionKey", "knowledgeKey", "biometryKey", "transportKey", "devicePrivateKey",
                                           "recoveryData"]

    private var header: Header
    private var secrets = RecordSecrets()

    /// The record of `activation`.
    init(_ activation: PowerAuth.ActivationData) {
        header = Header(format: 2, activationId: activation.activationID, protocolVersion: activation.protocolVersion.rawValue,
                        serverPublicKey: Base64.encode(activation.serverPublicKey), devicePublicKey: Base64.encode(activation.devicePublicKey),
                        ctrByte: Int(activation.counterByte), salt: Base64.encode(activation.passwordSalt),
                        iterations: activation.passwordIterations, externalEncryptionKey: activation.usesExternalEncryptionKey ? true : nil)
        secrets["ctrData"] = activation.counter.rawRepresentation
        secrets["possessionKey"] = SecretBytes(activation.lockedPossessionKey)
        secrets["knowledgeKey"] = SecretBytes(activation.lockedKnowledgeKey)
        secrets["biometryKey"] = activation.lockedBiometryKey.map { SecretBytes($0) }
        secrets["transportKey"] = SecretBytes(activation.lockedTransportKey)
        secrets["devicePrivateKey"] = SecretBytes(activation.sealedDevicePrivateKey)
        secrets["recoveryData"] = activation.sealedRecoveryData.map { SecretBytes($0) }
    }

    /// Only the header's members: a JSON with others (a secret left in it, a format-1 text in
    /// the sealed form) is not a format-2 record.
    init(from decoder: any Decoder) throws {
        let names = Set(Header.CodingKeys.allCases.map(\.stringValue))
        guard try decoder.container(keyedBy: Member.self).allKeys.allSatisfy({ names.contains($0.stringValue) }) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "a member format 2 does not have"))
        }
        header = try Header(from: decoder)
    }

    func encode(to encoder: any Encoder) throws { try header.encode(to: encoder) }

    func sealSecrets(into secrets: inout RecordSecrets) {
        for name in self.secrets.names { secrets[name] = self.secrets[name] }
    }

    /// Format 2, and no secret but the seven a record may hold.
    mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
        guard header.format == 2, secrets.names.allSatisfy(Self.secretNames.contains) else {
            throw SecureStoreError(.corrupt, "the activation record is not format 2", path: "activation")
        }
        self.secrets = secrets
    }

    /// The activation, checked as `PowerAuth.ActivationData(serialized:)` checks format 1
    /// (the same validating initialiser):
    /// a missing or misfit field is `PowerAuthSDKError.Code.store`.
    func activation() throws(PowerAuthSDKError) -> PowerAuth.ActivationData {
        func secret(_ name: String) throws(PowerAuthSDKError) -> [UInt8] {
            guard let value = secrets[name] else { throw PowerAuthSDKError(.store, "the activation record has no \(name)") }
            return value.withUnsafeBytes { Array($0) }
        }
        func publicBytes(_ text: String) throws(PowerAuthSDKError) -> [UInt8] {
            do { return try Base64.decode(text) } catch { throw PowerAuthSDKError(.store, "the activation record holds a field that is not Base64") }
        }
        var counter = try secret("ctrData")
        defer { SecretBytes.wipe(&counter) }
        let serverPublicKey = try publicBytes(header.serverPublicKey), devicePublicKey = try publicBytes(header.devicePublicKey)
        let salt = try publicBytes(header.salt)
        let possession = try secret("possessionKey"), knowledge = try secret("knowledgeKey"), transport = try secret("transportKey")
        let biometry = secrets["biometryKey"] == nil ? nil : try secret("biometryKey")
        let devicePrivateKey = try secret("devicePrivateKey")
        let recovery = secrets["recoveryData"] == nil ? nil : try secret("recoveryData")
        do throws(ProtocolError) {
            return try PowerAuth.ActivationData(
                validatingActivationID: header.activationId, protocolVersion: header.protocolVersion, serverPublicKey: serverPublicKey,
                devicePublicKey: devicePublicKey, counter: counter, counterByte: header.ctrByte, passwordSalt: salt,
                passwordIterations: header.iterations, lockedPossessionKey: possession, lockedKnowledgeKey: knowledge,
                lockedBiometryKey: biometry, lockedTransportKey: transport, sealedDevicePrivateKey: devicePrivateKey,
                sealedRecoveryData: recovery, usesExternalEncryptionKey: header.externalEncryptionKey ?? false)
        } catch {
            throw PowerAuthSDKError(.store, "the activation record is not a valid activation", protocolError: error)
        }
    }
}
