// Our recorded PowerAuth ECIES vectors (Vectors/protocols/powerauth-ecies.json, docs/protocols/powerauth.md §9):
// the client encrypts with the recorded ephemeral key and nonce (replayed through its random
// source) and must produce the recorded request; the server side decrypts it and re-encrypts
// the response with the recorded nonce and timestamp; the client decrypts the recorded response.
// Invalid cases carry a response with one bit flipped, which the client must refuse.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import VectorFormats

enum OwnPowerAuthECIES {
    typealias Outcome = OwnSymmetric.Outcome

    private static func parameters(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> PowerAuth.ECIES.Parameters {
        guard let version = PowerAuth.ProtocolVersion(rawValue: try c.string("version")) else { throw .malformed("unknown version") }
        guard let sh1 = PowerAuth.ECIES.SharedInfo1(rawValue: try c.string("sharedInfo1")) else { throw .malformed("unknown sharedInfo1") }
        let appKey = try c.string("applicationKey"), appSecret = try c.string("applicationSecret")
        let temporaryKeyID = try c.string("temporaryKeyId")
        if try c.string("scope") == "activation" {
            return .activationScope(sh1, version: version, applicationKey: appKey, applicationSecret: appSecret,
                                    transportKey: try OwnPowerAuth.key(c, "transportKey"), activationID: try c.string("activationId"),
                                    temporaryKeyID: temporaryKeyID)
        }
        return .applicationScope(sh1, version: version, applicationKey: appKey, applicationSecret: appSecret, temporaryKeyID: temporaryKeyID)
    }

    /// An optional byte input: empty means absent (3.0 has no nonce, 3.0/3.1 no response nonce).
    private static func optional(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> [UInt8]? {
        let value = try c.input(name)
        return value.isEmpty ? nil : value
    }

    /// A timestamp input: 0 means absent (before 3.2).
    private static func timestamp(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> UInt64? {
        let value = try c.integer(name)
        return value > 0 ? UInt64(value) : nil
    }

    static func check(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let parameters = try parameters(c)
        let serverPublicKeyField = try c.input("serverPublicKey")
        let serverPrivateKeyField = try c.input("serverPrivateKey")
        guard let serverPublic = try? P256.KeyAgreement.PublicKey(sec1Representation: serverPublicKeyField),
              let serverPrivate = try? P256.KeyAgreement.PrivateKey(rawRepresentation: serverPrivateKeyField) else {
            throw .malformed("server key pair does not load")
        }
        // The ephemeral scalar, then the nonce, are what the encryptor draws from its source.
        var replay = ReplayRandomSource(bytes: try c.input("ephemeralPrivateKey") + (optional(c, "nonce") ?? []))
        let encrypted = try? PowerAuth.ECIES.Encryptor(publicKey: serverPublic, parameters: parameters)
            .encryptRequest(try c.input("requestPlaintext"), timestamp: try timestamp(c, "timestamp") ?? 0, using: &replay)
        let responseNonce = try optional(c, "responseNonce"), responseTimestamp = try timestamp(c, "responseTimestamp")

        guard c.isValid else {
            let tampered = PowerAuth.ECIES.Response(encryptedData: try c.input("responseEncryptedData"), mac: try c.input("responseMac"),
                                                    nonce: responseNonce, timestamp: responseTimestamp)
            guard let decryptor = encrypted?.responseDecryptor else { return .rejected(false) }
            return .rejected((try? decryptor.decrypt(tampered)) == nil)
        }

        let requestPlaintext = try c.input("requestPlaintext"), responsePlaintext = try c.input("responsePlaintext")
        let responseData = try c.output("responseEncryptedData"), responseMAC = try c.output("responseMac")
        let expected = try c.output("associatedData") + c.output("sharedInfo2Base") + c.output("ephemeralPublicKey") + c.output("encryptedData")
            + c.output("mac") + (optional(c, "nonce") ?? []) + requestPlaintext + responseData + responseMAC + responsePlaintext
        guard let (request, responseDecryptor) = encrypted, request.timestamp == (try timestamp(c, "timestamp")) else {
            return .compare(nil, expected)
        }
        // The server half: decrypt the request, answer with the recorded nonce and timestamp.
        let opened = try? PowerAuth.ECIES.RequestDecryptor(privateKey: serverPrivate, parameters: parameters).decrypt(request)
        let response = try? opened?.responseEncryptor.encrypt(responsePlaintext, nonce: responseNonce, timestamp: responseTimestamp)
        // The client half: decrypt the recorded response.
        let official = PowerAuth.ECIES.Response(encryptedData: responseData, mac: responseMAC, nonce: responseNonce, timestamp: responseTimestamp)
        let clientPlaintext = try? responseDecryptor.decrypt(official)
        guard let opened, let response, let clientPlaintext else { return .compare(nil, expected) }
        let got = (parameters.associatedData ?? []) + parameters.sharedInfo2Base + request.ephemeralPublicKey + request.encryptedData
            + request.mac + (request.nonce ?? []) + opened.plaintext + response.encryptedData + response.mac + clientPlaintext
        return .compare(got, expected)
    }
}
