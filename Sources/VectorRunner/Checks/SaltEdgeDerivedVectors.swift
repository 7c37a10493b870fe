// `saltedge/derived_vectors.json`: the deterministic parts must be byte-identical (bodies built
// from their inputs, RS256 signatures), the randomised RSA blocks are checked by decryption.
// The iOS test key plays the connection key, the Android test key the provider key.

import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SaltEdge
import VectorFormats

enum SaltEdgeDerivedVectors {
    static func check(_ json: JSONValue, directory: String, _ log: inout CaseLog) {
        guard let connectionKey = SaltEdgeFiles.privateKey("ios-fixtures/test_private.pem", in: directory),
              let providerKey = SaltEdgeFiles.privateKey("android-test-tools/private_key.pem", in: directory) else {
            log.fileError("the test keys beside the file do not load")
            return
        }
        let connection = SaltEdge.Connection(
            id: "333", providerID: "1", scaServiceURL: "https://sca.example.com", key: connectionKey,
            accessToken: SaltEdge.AccessToken(rawRepresentation: SecretBytes("token".utf8)),
            providerPublicKey: RSA.Encryption.PublicKey(sameKeyAs: providerKey.publicKey))
        let requests = SaltEdge.Requests(connection: connection, client: SaltEdge.ClientDescription(userAgent: "mfa vectors"))

        checkAES(json["android_aes_256_cbc_vector"], &log)
        checkPublicKeyPEM(json["public_key_pem_format"], connectionKey, &log)
        checkCreateConnection(json["create_connection_enc_rsa_public_key"], provider: providerKey, &log)
        checkAuthorizations(json["authorizations_index_response"], connectionKey, &log)
        checkRedirect(json["redirect_access_token"], connectionKey, &log)
        checkConfirm(json["confirm_request"], requests, provider: providerKey, &log)
        checkJWS(json["jws_vectors"], requests, &log)
        SaltEdgeDeepLinkVectors.check(json["deep_links"], &log)
    }

    /// The hex field `name`; when it is missing or not hex, a file error is recorded and nil
    /// returned (the checks that need it are then not run, so nothing passes on a stand-in).
    private static func bytes(_ value: JSONValue?, _ name: String, _ log: inout CaseLog) -> [UInt8]? {
        guard let text = value?.string else {
            log.fileError("missing field \(name)")
            return nil
        }
        do throws(VectorFormatError) {
            return try HexText.bytes(text, field: name)
        } catch {
            log.fileError(error.description)
            return nil
        }
    }

    private static func checkAES(_ entry: JSONValue?, _ log: inout CaseLog) {
        let id = "android_aes_256_cbc_vector"
        guard let entry, let plaintext = entry["plaintext"]?.string, let expected = entry["ciphertext_base64"]?.string,
              let wrapped = entry["ciphertext_base64_as_in_source"]?.string else { return log.fail(id, "", expected: "fields", got: "missing") }
        guard let keyBytes = bytes(entry["key_hex"], "key_hex", &log), let iv = bytes(entry["iv_hex"], "iv_hex", &log) else { return }
        let key = SymmetricKey(data: keyBytes)
        let ciphertext = try? AES.UnauthenticatedCBC.encrypt(Array(plaintext.utf8), using: key, iv: iv)
        log.expect(ciphertext.map { Base64.encode($0) } == expected, id, "encrypt", expected: expected, got: ciphertext.map { Base64.encode($0) } ?? "error")
        let decrypted = (try? Base64.decodeLenient(wrapped)).flatMap { try? AES.UnauthenticatedCBC.decrypt($0, using: key, iv: iv) }
        log.expect(decrypted, equals: Array(plaintext.utf8), id, "decrypt the line-wrapped Base64")
    }

    private static func checkPublicKeyPEM(_ entry: JSONValue?, _ key: SaltEdge.ConnectionKey, _ log: inout CaseLog) {
        let id = "public_key_pem_format"
        log.expect(key.publicKeyPEM == entry?["pem"]?.string, id, "SPKI PEM text", expected: entry?["pem"]?.string ?? "", got: key.publicKeyPEM)
        let pkcs1 = key.publicKey.pkcs1DERRepresentation
        log.expect(pkcs1.count == entry?["pkcs1_der_len"]?.int, id, "PKCS #1 length", expected: "\(entry?["pkcs1_der_len"]?.int ?? -1)", got: "\(pkcs1.count)")
        guard let prefix = bytes(entry?["spki_prefix_hex"], "spki_prefix_hex", &log) else { return }
        log.expect(key.publicKey.derRepresentation, equals: prefix + pkcs1, id, "SPKI = prefix ‖ PKCS #1")
    }

    private static func checkCreateConnection(_ entry: JSONValue?, provider: SaltEdge.ConnectionKey, _ log: inout CaseLog) {
        let id = "create_connection_enc_rsa_public_key"
        guard let entry, let bundle = SaltEdgeFiles.bundle(entry["bundle"]), let example = entry["request_body_example"] else {
            return log.fail(id, "", expected: "fields", got: "missing")
        }
        let plaintext = (try? bundle.decrypt(with: provider)).map { String(decoding: $0, as: UTF8.self) }
        SaltEdgeFiles.checkDecryption(bundle, with: provider, expected: entry, plaintext: plaintext ?? "-", id: id, &log)
        log.expect(plaintext?.hasPrefix("-----BEGIN PUBLIC KEY-----\n") == true, id, "plaintext is the PEM", expected: "PEM", got: plaintext ?? "error")
        // `data` is deterministic given key and IV.
        guard let aesKey = bytes(entry["aes_key_hex"], "aes_key_hex", &log), let aesIV = bytes(entry["aes_iv_hex"], "aes_iv_hex", &log) else { return }
        let again = try? AES.UnauthenticatedCBC.encrypt(Array((plaintext ?? "").utf8), using: SymmetricKey(data: aesKey), iv: aesIV)
        log.expect(again.map { Base64.encode($0) } == bundle.data, id, "data", expected: bundle.data, got: again.map { Base64.encode($0) } ?? "error")
        let exampleData = example["data"]
        let request = SaltEdge.Enrollment.createConnection(
            providerID: exampleData?["provider_id"]?.string ?? "", encryptedPublicKey: bundle, client: .init(userAgent: "mfa"),
            connectQuery: exampleData?["connect_query"]?.string, pushToken: exampleData?["push_token"]?.string,
            returnURL: exampleData?["return_url"]?.string ?? "", platform: exampleData?["platform"]?.string ?? "")
        let ours = try? JSONValue.parse(Data(request.body ?? []))
        log.expect(ours == example, id, "request body", expected: "request_body_example", got: String(decoding: request.body ?? [], as: UTF8.self))
        log.expect(request.method == .post && request.path == "api/authenticator/v2/connections", id, "route",
                   expected: "POST api/authenticator/v2/connections", got: "\(request.method) \(request.path)")
    }

    private static func checkAuthorizations(_ entry: JSONValue?, _ key: SaltEdge.ConnectionKey, _ log: inout CaseLog) {
        let id = "authorizations_index_response"
        guard let entry, let response = entry["response"], let plaintext = entry["plaintext"]?.string,
              case let body = response.serialized, !body.isEmpty else { return log.fail(id, "", expected: "fields", got: "missing") }
        let items = try? SaltEdge.EncryptedAuthorization.list(from: HTTPResponse(status: 200, body: body))
        guard let item = items?.first, items?.count == 1 else { return log.fail(id, "list", expected: "one item", got: "\(items?.count ?? -1)") }
        log.expect(item.id == "444" && item.connectionID == "333" && item.status == .pending, id, "ids as integers",
                   expected: "444/333/pending", got: "\(item.id)/\(item.connectionID)/\(item.status.rawValue)")
        if let bundle = item.bundle {
            SaltEdgeFiles.checkDecryption(bundle, with: key, expected: entry, plaintext: plaintext, id: id, &log)
        }
        let expected = try? JSONValue.parse(Data(plaintext.utf8))
        let authorization = try? item.decrypt(with: key)
        let fields = authorization.map { [$0.title, $0.authorizationCode ?? "", $0.description.text ?? ""] }
        let wanted = [expected?["title"]?.string, expected?["authorization_code"]?.string, expected?["description"]?["text"]?.string].map { $0 ?? "?" }
        log.expect(fields == wanted, id, "model", expected: "\(wanted)", got: "\(fields ?? [])")
        let expiry = authorization.map { $0.expiresAt.timeIntervalSince1970 - $0.createdAt.timeIntervalSince1970 }
        log.expect(expiry == 300, id, "created_at/expires_at", expected: "300 s apart", got: "\(expiry ?? -1)")
    }

    private static func checkRedirect(_ entry: JSONValue?, _ key: SaltEdge.ConnectionKey, _ log: inout CaseLog) {
        let id = "redirect_access_token"
        guard let entry, let token = entry["access_token"]?.string, let url = entry["redirect_url_example"]?.string else {
            return log.fail(id, "", expected: "fields", got: "missing")
        }
        let variants: [(String, SaltEdge.AccessTokenRedirect?)] = [
            ("redirect URL", try? SaltEdge.AccessTokenRedirect(parsing: url)),
            ("standard Base64", entry["base64"]?.string.map { .success(connectionID: "333", encryptedAccessToken: $0) }),
            ("URL-safe unpadded", entry["base64url_nopad"]?.string.map { .success(connectionID: "333", encryptedAccessToken: $0) }),
        ]
        for (comment, redirect) in variants {
            let got = (try? redirect?.accessToken(with: key)).map { String(decoding: $0.rawRepresentation.unsafeExposedBytes, as: UTF8.self) }
            log.expect(got == token, id, comment, expected: token, got: got ?? "error")
        }
    }
}
