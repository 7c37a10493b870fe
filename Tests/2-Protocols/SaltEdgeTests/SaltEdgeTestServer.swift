// The server half of Salt Edge v2, written for the tests on the primitives and Foundation alone
// (not on the SaltEdge target): hybrid encryption to a connection key, decryption of bundles
// sent to the provider key, detached RS256 verification over the raw body, and the two
// official clients' body shapes.

import CryptoPrimitives
import Foundation
import TestSupport

struct SaltEdgeTestServer {
    /// The provider's key pair.
    let providerKey: RSA.Encryption.PrivateKey

    /// The two test keys, generated once from fixed seeds.
    static let keys: (connection: RSA.Signing.PrivateKey, provider: RSA.Signing.PrivateKey) = {
        var random = SeededRandomSource(seed: 0x5A17_ED9E)
        // A failure here is a broken test fixture, not external input: stop with its error.
        do {
            let connection = try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random)
            let provider = try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random)
            return (connection, provider)
        } catch {
            preconditionFailure("the Salt Edge test keys cannot be made: \(error)")
        }
    }()

    /// `{"key","iv","data"}` for `plaintext`, encrypted to `connectionPublicKey` as a Ruby server
    /// would write it: standard Base64 with a line break every 60 characters.
    static func encrypt(_ plaintext: String, to connectionPublicKey: RSA.Signing.PublicKey, seed: UInt64) throws -> [String: String] {
        var random = SeededRandomSource(seed: seed)
        let key = try random.bytes(count: 32)
        let iv = try random.bytes(count: 16)
        let recipient = RSA.Encryption.PublicKey(sameKeyAs: connectionPublicKey)
        let data = try AES.UnauthenticatedCBC.encrypt(Array(plaintext.utf8), using: SymmetricKey(data: key), iv: iv)
        return [
            "key": rubyBase64(try recipient.encrypt(key, padding: .insecurePKCS1v1_5, using: &random)),
            "iv": rubyBase64(try recipient.encrypt(iv, padding: .insecurePKCS1v1_5, using: &random)),
            "data": rubyBase64(data),
        ]
    }

    /// Ruby's `Base64.encode64`: a LF after every 60 characters and at the end.
    static func rubyBase64(_ bytes: [UInt8]) -> String {
        let text = Data(bytes).base64EncodedString()
        var out = ""
        var line = ""
        for c in text {
            line.append(c)
            if line.count == 60 { out += line + "\n"; line = "" }
        }
        return out + (line.isEmpty ? "" : line + "\n")
    }

    /// Decrypts a client → server bundle with the provider key.
    func decrypt(_ bundle: [String: Any]) throws -> String {
        guard let key = bundle["key"] as? String, let iv = bundle["iv"] as? String, let data = bundle["data"] as? String,
              let k = Data(base64Encoded: key), let i = Data(base64Encoded: iv), let d = Data(base64Encoded: data) else {
            throw TestServerError.malformed
        }
        let aesKey = try providerKey.decrypt(Array(k), padding: .insecurePKCS1v1_5)
        let aesIV = try providerKey.decrypt(Array(i), padding: .insecurePKCS1v1_5)
        let plaintext = try AES.UnauthenticatedCBC.decrypt(Array(d), using: SymmetricKey(data: aesKey), iv: aesIV)
        return String(decoding: plaintext, as: UTF8.self)
    }

    /// Verifies `x-jws-signature` over the raw body bytes, as the server must (docs/protocols/saltedge-v2.md §5.2).
    static func verify(signature: String, body: [UInt8], connectionPublicKey: RSA.Signing.PublicKey) -> Bool {
        let parts = signature.components(separatedBy: ".")
        guard parts.count == 3, parts[1].isEmpty, let header = base64URLDecode(parts[0]),
              String(decoding: header, as: UTF8.self) == #"{"alg":"RS256"}"#,
              let rawSignature = base64URLDecode(parts[2]) else { return false }
        let input = parts[0] + "." + base64URLEncode(body)
        return connectionPublicKey.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: rawSignature), for: Array(input.utf8), padding: .pkcs1v1_5)
    }

    /// Signs `body` as a client would (for the two-shape test).
    static func sign(body: [UInt8], with key: RSA.Signing.PrivateKey) throws -> String {
        let header = base64URLEncode(Array(#"{"alg":"RS256"}"#.utf8))
        let signature = try key.signature(for: Array((header + "." + base64URLEncode(body)).utf8), padding: .pkcs1v1_5)
        return header + ".." + base64URLEncode(signature.rawRepresentation)
    }

    static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// The same logical body the way iOS sends it: sorted keys, pretty-printed, `/` escaped.
    static func iOSShape(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]))
    }

    /// A request body parsed as a JSON object.
    static func object(_ body: [UInt8]?) throws -> [String: Any] {
        guard let body, let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { throw TestServerError.malformed }
        return object
    }

    enum TestServerError: Error { case malformed }
}
