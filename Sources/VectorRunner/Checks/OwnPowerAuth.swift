// Our recorded PowerAuth vectors (Vectors/protocols/powerauth-*.json, written by
// Vectors/generate_protocols.py from docs/protocols/powerauth.md with pyca/cryptography): the KDFs and
// activation keys, the vault, signatures with their normalised data, the status blob, the
// fingerprint, token digests and ECIES with given ephemeral keys.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import VectorFormats

enum OwnPowerAuth {
    typealias Outcome = OwnSymmetric.Outcome
    typealias Check = (OwnVectorFile.Case) throws(VectorFormatError) -> Outcome

    /// The checker for a PowerAuth algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> Check? {
        switch algorithm {
        case "POWERAUTH-ACTIVATION-KEYS": activationKeys
        case "POWERAUTH-KDF": kdf
        case "POWERAUTH-KDF-INTERNAL": kdfInternal
        case "POWERAUTH-VAULT": vault
        case "POWERAUTH-SIGNATURE": signature
        case "POWERAUTH-STATUS": status
        case "POWERAUTH-FINGERPRINT": fingerprint
        case "POWERAUTH-TOKEN": token
        case "POWERAUTH-ECIES": OwnPowerAuthECIES.check
        default: nil
        }
    }

    static func bytes(of key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }

    /// A 16-byte key input (the KDFs trap on another length: a programming error, not data).
    static func key(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> SymmetricKey {
        let raw = try c.input(name)
        guard raw.count == 16 else { throw .malformed("\(name) is not 16 bytes") }
        return SymmetricKey(data: raw)
    }

    /// A UInt64 input written as a decimal string (JSON numbers stop at 2^53).
    static func index(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> UInt64 {
        guard let value = UInt64(try c.string("index")) else { throw .malformed("index is not a UInt64") }
        return value
    }

    /// The text output `name`.
    static func text(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let value = c.outputs[name]?.string else { throw .missingField(name) }
        return Array(value.utf8)
    }

    /// The integer output `name` as one byte, for comparing small fields.
    static func small(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> UInt8 {
        guard let value = c.outputs[name]?.int, let byte = UInt8(exactly: value) else { throw .missingField(name) }
        return byte
    }

    /// fold16(ECDH) and the eight keys derived from it (docs/protocols/powerauth.md §4.1, §6.2).
    private static func activationKeys(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let devicePrivateKeyField = try c.input("devicePrivateKey")
        let device = try? P256.KeyAgreement.PrivateKey(rawRepresentation: devicePrivateKeyField)
        let serverPublicKeyField = try c.input("serverPublicKey")
        let server = try? P256.KeyAgreement.PublicKey(sec1Representation: serverPublicKeyField)
        let names = ["masterSecret", "possession", "knowledge", "biometry", "transport", "vault", "transportIV", "transportCounter"]
        var expected: [UInt8] = []
        for name in names { expected += try c.output(name) }
        guard let device, let server, let master = try? PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: device, serverPublicKey: server) else {
            return .compare(nil, expected)
        }
        let keys = PowerAuth.ActivationKeys(masterSecret: master)
        let derived = [master, keys.possession, keys.knowledge, keys.biometry, keys.transport, keys.vault,
                       PowerAuth.KeyDerivation.derive(keys.transport, index: 3000), PowerAuth.KeyDerivation.derive(keys.transport, index: 4000)]
        return .compare(derived.flatMap(bytes(of:)), expected)
    }

    private static func kdf(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        .compare(bytes(of: PowerAuth.KeyDerivation.derive(try key(c, "key"), index: try index(c))), try c.output("key"))
    }

    private static func kdfInternal(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        .compare(bytes(of: PowerAuth.KeyDerivation.deriveInternal(try key(c, "key"), index: try c.input("index"))), try c.output("key"))
    }

    /// The vault key unwrapped from the transport key, a vault-derived key and the device
    /// private key (docs/protocols/powerauth.md §12); a wrong length or padding must fail.
    private static func vault(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let encryptedVaultEncryptionKeyField = try c.input("encryptedVaultEncryptionKey"), transportKey = try key(c, "transportKey")
        let vaultKey = try? PowerAuth.Vault.vaultKey(encryptedVaultEncryptionKey: encryptedVaultEncryptionKeyField, transportKey: transportKey)
        guard c.isValid else { return .rejected(vaultKey == nil) }
        let expected = try c.output("vaultKey") + c.output("encryptionKey") + c.output("devicePrivateKey")
        guard let vaultKey else { return .compare(nil, expected) }
        let derived = bytes(of: PowerAuth.Vault.encryptionKey(vaultKey: vaultKey, index: try index(c)))
        let cDevicePrivateKeyField = try c.input("cDevicePrivateKey")
        let device = try? PowerAuth.Vault.devicePrivateKey(cDevicePrivateKeyField, vaultKey: vaultKey)
        return .compare(device.map { bytes(of: vaultKey) + derived + $0.rawRepresentation.unsafeExposedBytes }, expected)
    }

    /// Normalised data (GET from its query pairs), the signature in its format, and the next
    /// counter (docs/protocols/powerauth.md §7).
    private static func signature(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        guard let factors = PowerAuth.SignatureFactors(rawValue: try c.string("factors")) else { throw .malformed("unknown factors") }
        let format: PowerAuth.SignatureFormat = try c.string("format") == "base64" ? .base64 : .decimal(digits: try c.integer("digits"))
        var body = try c.input("body")
        if let query = c.inputs["query"]?.array {
            let pairs = query.compactMap { pair -> (String, String)? in
                guard let key = pair.array?.first?.string, let value = pair.array?.last?.string, pair.array?.count == 2 else { return nil }
                return (key, value)
            }
            guard pairs.count == query.count else { throw .malformed("query is not a list of pairs") }
            let canonical = Array(PowerAuth.NormalizedData.canonicalQuery(pairs).utf8)
            guard canonical == body else { return .compare(canonical, body) }  // the recorded body is the canonical query
            body = canonical
        }
        let data = PowerAuth.NormalizedData.make(method: try c.string("method"), uriID: try c.string("uriId"), nonce: try c.string("nonce"),
                                                 body: body, secret: try c.string("appSecret"))
        let ctrDataField = try c.input("ctrData")
        guard let counter = try? PowerAuth.CounterData(rawRepresentation: ctrDataField) else { throw .malformed("ctrData is not 16 bytes") }
        let keys = PowerAuth.SignatureKeys(possession: try key(c, "possessionKey"), knowledge: try key(c, "knowledgeKey"),
                                           biometry: try key(c, "biometryKey"))
        let got = try? PowerAuth.Signature.compute(data: data, counter: counter, factors: factors, keys: keys, format: format)
        let expected = try c.output("normalizedData") + text(c, "signature") + c.output("nextCtrData")
        return .compare(got.map { data + Array($0.utf8) + counter.next.rawRepresentation.unsafeExposedBytes }, expected)
    }

    /// The status blob (docs/protocols/powerauth.md §6): IV, every field, the counter hash and its distance;
    /// a bad length, magic, state or look-ahead must fail.
    private static func status(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let transport = try key(c, "transportKey"), challenge = try c.input("challenge"), nonce = try c.input("nonce")
        let encryptedStatusBlobField = try c.input("encryptedStatusBlob")
        let status = try? PowerAuth.StatusBlob.decrypt(encryptedStatusBlobField, transportKey: transport, challenge: challenge, nonce: nonce)
        guard c.isValid else { return .rejected(status == nil) }
        let fields = ["state", "currentVersion", "upgradeVersion", "ctrByte", "failedAttempts", "maxFailedAttempts", "lookAheadWindow"]
        var expected = try c.output("iv")
        for name in fields { expected.append(try small(c, name)) }
        expected += try c.output("ctrDataHash")
        guard let distance = c.outputs["counterDistance"]?.int else { throw .missingField("counterDistance") }
        expected += Array("distance \(distance)".utf8)
        let ctrDataField = try c.input("ctrData")
        guard let status, let local = try? PowerAuth.CounterData(rawRepresentation: ctrDataField) else { return .compare(nil, expected) }
        let found = PowerAuth.StatusBlob.counterDistance(from: local, serverHash: status.counterDataHash, transportKey: transport,
                                                         window: Int(status.lookAheadWindow))
        let got = PowerAuth.StatusBlob.iv(transportKey: transport, challenge: challenge, nonce: nonce)
            + [status.state.rawValue, status.currentVersion, status.upgradeVersion, status.counterByte, status.failedAttempts,
               status.maxFailedAttempts, status.lookAheadWindow] + status.counterDataHash + Array("distance \(found ?? -1)".utf8)
        return .compare(got, expected)
    }

    private static func fingerprint(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let devicePublicKeyField = try c.input("devicePublicKey")
        let device = try? P256.KeyAgreement.PublicKey(sec1Representation: devicePublicKeyField)
        let serverPublicKeyField = try c.input("serverPublicKey")
        let server = try? P256.KeyAgreement.PublicKey(sec1Representation: serverPublicKeyField)
        let activationID = try c.string("activationId")
        let got = device.flatMap { device in
            server.map { PowerAuth.activationFingerprint(devicePublicKey: device, activationID: activationID, serverPublicKey: $0) }
        }
        return .compare(got.map { Array($0.utf8) }, try text(c, "fingerprint"))
    }

    private static func token(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        guard let version = PowerAuth.ProtocolVersion(rawValue: try c.string("version")) else { throw .malformed("unknown version") }
        guard let timestamp = UInt64(exactly: try c.integer("timestamp")) else { throw .malformed("negative timestamp") }
        let token = PowerAuth.Token(id: "vector", secret: try key(c, "tokenSecret"))
        return .compare(token.digest(nonce: try c.input("nonce"), timestamp: timestamp, version: version), try c.output("digest"))
    }
}
