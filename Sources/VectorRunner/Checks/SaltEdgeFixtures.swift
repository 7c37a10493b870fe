// Salt Edge's iOS fixtures (vectors/saltedge/README.md): the two bundles that decrypt with the
// iOS test key give the plaintexts recorded in `derived_vectors.json`, the broken one and the
// foreign one fail with the one decryption error.

import CryptoPrimitives
import ProtocolSupport
import SaltEdge
import VectorFormats

enum SaltEdgeFiles {
    /// The checker for a Salt Edge file at `path`, recognised by name and shape.
    static func checker(forPath path: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        let parts = path.split(separator: "/").map(String.init)
        let name = parts.last ?? path
        let folder = parts.dropLast().last ?? ""
        let directory = (path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/")
        switch (folder, name) {
        case (_, "derived_vectors.json") where json["jws_vectors"] != nil && json["ios_fixture_decryptions"] != nil:
            return { json, log in SaltEdgeDerivedVectors.check(json, directory: directory, &log) }
        case ("ios-fixtures", "correct_encrypted_data.json") where json["key"] != nil,
             ("ios-fixtures", "incorrect_encrypted_data.json") where json["key"] != nil,
             ("ios-fixtures", "valid_unconfirmed_session_response.json") where json["confirmation_code"] != nil,
             ("ios-fixtures", "valid_encrypted_authorization_data.json") where json["data"]?["algorithm"] != nil:
            return { json, log in checkFixture(name, json, directory: directory, &log) }
        default:
            return nil
        }
    }

    /// Loads a PEM private key relative to `directory`.
    static func privateKey(_ relativePath: String, in directory: String) -> SaltEdge.ConnectionKey? {
        guard case .pem(let text)? = try? VectorFile.load(path: directory + "/" + relativePath) else { return nil }
        return try? SaltEdge.ConnectionKey(privateKeyPEM: text)
    }

    /// A bundle from a JSON object with `key`, `iv`, `data` (and optionally `algorithm`).
    static func bundle(_ json: JSONValue?) -> SaltEdge.EncryptedBundle? {
        guard let json, let key = json["key"]?.string, let iv = json["iv"]?.string, let data = json["data"]?.string else { return nil }
        return SaltEdge.EncryptedBundle(key: key, iv: iv, data: data, algorithm: json["algorithm"]?.string)
    }

    /// The RSA-decrypted key or IV of a bundle field (lenient Base64), for comparing with the
    /// recorded hex.
    static func unwrap(_ field: String, with key: SaltEdge.ConnectionKey) -> [UInt8]? {
        guard let ciphertext = try? Base64.decodeLenient(field), let privateKey = key.softwareKey else { return nil }
        return try? RSA.Encryption.PrivateKey(sameKeyAs: privateKey).decrypt(ciphertext, padding: .insecurePKCS1v1_5)
    }

    private static func checkFixture(_ name: String, _ json: JSONValue, directory: String, _ log: inout CaseLog) {
        guard let iosKey = privateKey("test_private.pem", in: directory) else {
            log.fileError("ios-fixtures/test_private.pem does not load")
            return
        }
        let expectations = (try? VectorFile.load(path: directory + "/../derived_vectors.json")).flatMap { file -> JSONValue? in
            if case .json(let value) = file { return value["ios_fixture_decryptions"] }
            return nil
        }
        switch name {
        case "correct_encrypted_data.json", "valid_unconfirmed_session_response.json":
            let key = name == "correct_encrypted_data.json" ? name : name + "#confirmation_code"
            guard let expected = expectations?[key], let plaintext = expected["plaintext"]?.string,
                  let bundle = bundle(name == "correct_encrypted_data.json" ? json : json["confirmation_code"]) else {
                log.fileError("no expectation for \(name) in ../derived_vectors.json")
                return
            }
            checkDecryption(bundle, with: iosKey, expected: expected, plaintext: plaintext, id: name, &log)
        case "incorrect_encrypted_data.json":
            expectDecryptionFailure(bundle(json), with: [iosKey], id: "broken iv", &log)
        default:
            let item = bundle(json["data"])
            log.expect(item?.algorithm == SaltEdge.EncryptedBundle.supportedAlgorithm, "algorithm", expected: "AES-256-CBC", got: item?.algorithm ?? "none")
            guard let androidKey = privateKey("../android-test-tools/private_key.pem", in: directory) else {
                // The second foreign key is part of the case: not loading it is reported, not left out.
                expectDecryptionFailure(item, with: [iosKey], id: "foreign key", &log)
                return log.fileError("../android-test-tools/private_key.pem does not load")
            }
            expectDecryptionFailure(item, with: [iosKey, androidKey], id: "foreign key", &log)
        }
    }

    /// Key, IV and plaintext of a bundle as recorded.
    static func checkDecryption(_ bundle: SaltEdge.EncryptedBundle, with key: SaltEdge.ConnectionKey, expected: JSONValue,
                                plaintext: String, id: String, _ log: inout CaseLog) {
        for (field, name, comment) in [(bundle.key, "aes_key_hex", "AES key"), (bundle.iv, "aes_iv_hex", "IV")] {
            guard let text = expected[name]?.string, let recorded = try? HexText.bytes(text, field: name) else {
                log.fileError("\(id): \(name) is missing or not hex")
                continue
            }
            log.expect(unwrap(field, with: key), equals: recorded, id, comment)  // a failed unwrap fails
        }
        let decrypted = try? bundle.decrypt(with: key)
        log.expect(decrypted, equals: Array(plaintext.utf8), id, "plaintext")
    }

    /// The bundle must fail with the decryption error under every key.
    static func expectDecryptionFailure(_ bundle: SaltEdge.EncryptedBundle?, with keys: [SaltEdge.ConnectionKey], id: String, _ log: inout CaseLog) {
        guard let bundle else {
            log.fail(id, "", expected: "a bundle", got: "no key/iv/data")
            return
        }
        for (index, key) in keys.enumerated() {
            var outcome = "decrypted"
            do { _ = try bundle.decrypt(with: key) } catch { outcome = error.code.rawValue }
            log.expect(outcome == ProtocolError.Code.decryptionFailed.rawValue, "\(id) key \(index + 1)",
                       expected: "decryptionFailed", got: outcome)
        }
    }
}
