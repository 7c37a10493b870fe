// Our recorded Salt Edge and CM vectors (Vectors/protocols/saltedge-*.json, cm-*.json, written by
// Vectors/generate_protocols.py from docs/protocols/saltedge-v2.md and docs/protocols/cm-authenticator.md with
// pyca/cryptography): hybrid bundles and access tokens to decrypt, detached RS256 signatures to
// reproduce and verify, HS256 bearer tokens, the signed certificate list and QR texts.

import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SaltEdge
import VectorFormats

enum OwnSaltEdgeCM {
    typealias Outcome = OwnSymmetric.Outcome

    /// The checker for a Salt Edge or CM algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch algorithm {
        case "SALTEDGE-BUNDLE": bundle
        case "SALTEDGE-ACCESS-TOKEN": accessToken
        case "SALTEDGE-JWS": jws
        case "CM-BEARER-TOKEN": bearerToken
        case "CM-CERTIFICATE-LIST": certificateList
        case "CM-QR": qrCode
        default: nil
        }
    }

    private static func connectionKey(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> SaltEdge.ConnectionKey {
        let privateKeyField = try c.string("privateKey")
        guard let key = try? SaltEdge.ConnectionKey(privateKeyPEM: privateKeyField) else { throw .malformed("privateKey does not load") }
        return key
    }

    /// The one field every recorded payload has: the typed decryption folds its parse into the
    /// verdict, as the client's authorization decoding does.
    private struct Titled: Decodable {
        let title: String
    }

    /// docs/protocols/saltedge-v2.md §3.3: key and IV unwrapped with PKCS #1 v1.5, then AES-256-CBC; every
    /// malformed part must fail with the one decryption error. The RSA blocks are unwrapped with
    /// implicit rejection, so an IV that does not unwrap to 16 bytes becomes a pseudo-random one
    /// and only garbles the first block: the raw decryption cannot see it, the folded parse does.
    private static func bundle(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let key = try connectionKey(c)
        let bundle = SaltEdge.EncryptedBundle(key: try c.string("key"), iv: try c.string("iv"), data: try c.string("data"))
        guard c.isValid else {
            var failure: ProtocolError.Code?
            do { _ = try bundle.decrypt(Titled.self, with: key) } catch { failure = error.code }
            return .rejected(failure == .decryptionFailed)
        }
        let expected = try c.output("aesKey") + c.output("iv") + c.output("plaintext")
        guard let plaintext = try? bundle.decrypt(with: key), let aesKey = SaltEdgeFiles.unwrap(bundle.key, with: key), let iv = SaltEdgeFiles.unwrap(bundle.iv, with: key) else {
            return .compare(nil, expected)
        }
        return .compare(aesKey + iv + plaintext, expected)
    }

    /// docs/protocols/saltedge-v2.md §4: the token JSON under RSA alone, one block or several, in any Base64.
    private static func accessToken(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let redirect = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: try c.string("encryptedAccessToken"))
        let key = try connectionKey(c)
        let token = try? redirect.accessToken(with: key)
        guard c.isValid else { return .rejected(token == nil) }
        return .compare(token.map { $0.rawRepresentation.unsafeExposedBytes }, try OwnPowerAuth.text(c, "accessToken"))
    }

    /// docs/protocols/saltedge-v2.md §5.2: RS256 over `b64url(header) "." b64url(body)`, detached; ours must
    /// equal OpenSSL's and verify; a changed body, key, header or attached payload must not.
    private static func jws(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let key = try connectionKey(c), body = try c.input("body")
        guard c.isValid else {
            return .rejected(!SaltEdge.isValidDetachedSignature(try c.string("signature"), for: body, publicKey: key.publicKey))
        }
        let expected = try c.output("signingInput") + OwnPowerAuth.text(c, "signature")
        let header = Base64.encode(Array(SaltEdge.jwsProtectedHeader.utf8), alphabet: .urlSafe, padded: false)
        let signingInput = Array((header + "." + Base64.encode(body, alphabet: .urlSafe, padded: false)).utf8)
        guard let signature = try? SaltEdge.detachedSignature(for: body, with: key),
              SaltEdge.isValidDetachedSignature(signature, for: body, publicKey: key.publicKey) else { return .compare(nil, expected) }
        return .compare(signingInput + Array(signature.utf8), expected)
    }

    /// docs/protocols/cm-authenticator.md §5: HS256 keyed with the secret's UTF-8 bytes, in either SDK's shape.
    private static func bearerToken(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let secret = CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes(try c.string("secret").utf8))
        let style: CMAuthenticator.TokenStyle = try c.string("style") == "ios" ? .iOS : .android
        let body = c.inputs["body"] == nil ? nil : try c.input("body")
        let now = Date(timeIntervalSince1970: Double(try c.integer("now")))
        let token: String
        do { token = try CMAuthenticator.bearerToken(secret: secret, now: now, authenticationID: c.inputs["authId"]?.string, body: body, style: style) } catch {
            return .compare(nil, try OwnPowerAuth.text(c, "jwt"))  // a software secret cannot fail; if it did, the case fails
        }
        return .compare(Array(token.utf8), try OwnPowerAuth.text(c, "jwt"))
    }

    /// docs/protocols/cm-authenticator.md §6: only the entries whose RS256 signature verifies become pins.
    private static func certificateList(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let publicKeyField = try c.input("publicKey")
        guard let key = try? RSA.Signing.PublicKey(derRepresentation: publicKeyField) else { throw .malformed("publicKey does not load") }
        guard let wanted = c.outputs["pins"]?.array?.compactMap(\.string) else { throw .missingField("pins") }
        let bodyField = try c.input("body")
        let pins: [CMAuthenticator.CertificatePin]
        do {
            pins = try CMAuthenticator.verifiedPins(from: HTTPResponse(status: 200, body: bodyField), key: key)
        } catch {
            return .compare(nil, Array(wanted.joined(separator: "\n").utf8))  // a refused list fails the case, even when no pin is wanted
        }
        let got = pins.map { "\($0.certificateSHA256Hex ?? "")|\($0.spkiSHA256Base64 ?? "")|\($0.algorithm ?? "")" }
        return .compare(Array(got.joined(separator: "\n").utf8), Array(wanted.joined(separator: "\n").utf8))
    }

    /// docs/protocols/cm-authenticator.md §3.1: a 36-character id, a comma, and the rest as the secret.
    private static func qrCode(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let qrField = try c.string("qr")
        let environment = try? CMAuthenticator.Environment(qrCode: qrField)
        guard c.isValid else { return .rejected(environment == nil) }
        let got = environment.map { Array("\($0.id),".utf8) + ($0.secret.softwareSecret?.unsafeExposedBytes ?? []) }
        return .compare(got, try OwnPowerAuth.text(c, "environmentId") + Array(",".utf8) + OwnPowerAuth.text(c, "secret"))
    }
}
