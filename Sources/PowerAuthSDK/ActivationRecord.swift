// The activation as the store keeps it: a `RecordStore` record like every other client's
// (docs/protocols/powerauth.md §5.4), its public fields in the JSON and its counter, locked keys
// and sealed data in the record's secret section, so that none of them passes through a
// `String` on its way to or from the disk. A record of the earlier all-JSON form (format 1,
// those fields in Base64) still reads, and the next write, at the latest the next signature,
// replaces it with this form.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import SecureStore

/// `powerauth.<instance>.activation`: one activation, format 2.
struct ActivationRecord: SealedRecordValue {
    /// The fields kept in the JSON. In format 1 the secret fields were Base64 members of the
    /// same object (`ctrData` to `recoveryData` here): they are read, moved to the secret
    /// section and never written again.
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
        var ctrData: String?
        var possessionKey: String?
        var knowledgeKey: String?
        var biometryKey: String?
        var transportKey: String?
        var devicePrivateKey: String?
        var recoveryData: String?

        /// The format-1 members that move to the secret section, by their secret's name.
        var legacySecrets: [(name: String, text: String?)] {
            [("ctrData", ctrData), ("possessionKey", possessionKey), ("knowledgeKey", knowledgeKey), ("biometryKey", biometryKey),
             ("transportKey", transportKey), ("devicePrivateKey", devicePrivateKey), ("recoveryData", recoveryData)]
        }
    }

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

    init(from decoder: any Decoder) throws { header = try Header(from: decoder) }

    func encode(to encoder: any Encoder) throws { try header.encode(to: encoder) }

    func sealSecrets(into secrets: inout RecordSecrets) {
        for name in self.secrets.names { secrets[name] = self.secrets[name] }
    }

    /// Format 2 takes its secrets from the secret section; format 1 (written before they left
    /// the JSON) from its Base64 members, which are then dropped.
    mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
        switch header.format {
        case 2:
            // Nothing but the seven secrets, and none of them left in the JSON as well.
            let known = Set(header.legacySecrets.map(\.name))
            guard header.legacySecrets.allSatisfy({ $0.text == nil }), secrets.names.allSatisfy(known.contains) else {
                throw SecureStoreError(.corrupt, "the activation record holds fields its format does not have", path: "activation")
            }
            self.secrets = secrets
        case 1 where secrets.names.isEmpty:
            for (name, text) in header.legacySecrets {
                guard let text else { continue }
                do {
                    var bytes = try Base64.decode(text)
                    defer { SecretBytes.wipe(&bytes) }
                    self.secrets[name] = SecretBytes(bytes)
                } catch {
                    throw SecureStoreError(.corrupt, "the activation's \(name) is not Base64", path: "activation")
                }
            }
            (header.ctrData, header.possessionKey, header.knowledgeKey, header.biometryKey) = (nil, nil, nil, nil)
            (header.transportKey, header.devicePrivateKey, header.recoveryData) = (nil, nil, nil)
            header.format = 2
        default:
            throw SecureStoreError(.corrupt, "the activation record is of an unknown format", path: "activation")
        }
    }

    /// The activation, checked as `PowerAuth.ActivationData(serialized:)` checks format 1:
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
