// A consumer's-eye test: each library product's main flow driven through its public API only.
// This package is not the root package, so `package` symbols are invisible here; a symbol a
// user needs that is not public fails this file's build (M-Pin's secret types were
// once unusable from outside exactly that way).

import CMAuthenticator
import CryptoPrimitives
import Foundation
import MPin
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import SaltEdge
import Testing

@Suite struct PublicAPITests {
    /// PowerAuth 3.2: activation by code against the server half, persist, a two-factor
    /// signature the server accepts, and a status the client reads.
    @Test func powerAuthActivationAndSignature() throws {
        var random = SeededRandomSource(seed: 1)
        let application = try PowerAuthServer.Application(using: &random)
        let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
        let (code, signature) = try application.issueActivationCode(using: &random)
        let parsedCode = try PowerAuth.ActivationCode(parsing: code + "#" + signature)
        let pending = try PowerAuth.PendingActivation(
            method: .code(parsedCode), configuration: configuration,
            encryptionKey: PowerAuth.EncryptionKey(publicKey: application.masterAgreementKey.publicKey),
            version: .v3_2, timestamp: 1_700_000_000_000, using: &random)
        var (serverActivation, _, response) = try PowerAuthServer.Activation.process(
            pending.request, application: application, version: .v3_2, activationID: "act-1", timestamp: 1_700_000_000_100, using: &random)
        let result = try pending.process(response)
        #expect(result.fingerprint.count == 8)
        let possessionUnlock = try SymmetricKey(byteCount: 16, using: &random)
        let password = SecretBytes("correct horse".utf8)
        var activation = try result.persist(password: password, possessionUnlockKey: possessionUnlock, version: .v3_2, using: &random)
        // The stored form round-trips through its bytes, as a store would keep it.
        activation = try PowerAuth.ActivationData(serialized: activation.serialized)

        let body = Array(#"{"amount":"10.00"}"#.utf8)
        let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let signed = try PowerAuth.sign(method: "POST", uriID: "/payment/confirm", body: body, activation: activation,
                                        factors: .possessionKnowledge, keys: keys, configuration: configuration, version: .v3_2, using: &random)
        activation = signed.next
        let verdict = serverActivation.verify(header: signed.header.value, method: "POST", uriID: "/payment/confirm", body: body,
                                              applicationSecret: application.applicationSecret)
        guard case .valid = verdict else {
            Issue.record("the server refused the signature: \(verdict)")
            return
        }
        let status = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random)
        let transport = try activation.transportKey(possessionUnlockKey: possessionUnlock)
        let answer = try status.process(try serverActivation.status(status.request, using: &random), transportKey: transport)
        #expect(answer.state == .active)
        #expect(PowerAuth.counterSynchronization(for: activation, status: answer, transportKey: transport) == .synchronized)
    }

    /// M-Pin: issuance by two authorities, registration with a PIN (the token from hex shares,
    /// as the platform sends them), two-pass authentication, a wrong PIN, and a DVS signature.
    @Test func mPinRegistrationAuthenticationAndDVS() throws {
        var random = SeededRandomSource(seed: 2)
        let identity = MPin.Identity(Array(#"{"userID":"alice@example.com","mobile":1}"#.utf8))
        let authorities = [try MPin.MasterSecretShare.random(using: &random), try MPin.MasterSecretShare.random(using: &random)]
        let serverSecret = MPin.Issuer.combine(authorities.map(MPin.Issuer.serverSecret))
        // The shares travel as hex (docs/protocols/mpin.md §7.1); the app decodes them with the public API.
        let hexShares = authorities.map { Hex.encode(MPin.Issuer.clientSecretShare($0, for: identity).rawRepresentation.unsafeExposedBytes) }
        let shares = try hexShares.map { try MPin.ClientSecretShare(rawRepresentation: Hex.decode($0)) }
        let clientSecret = MPin.Issuer.combine(shares)
        let pin = try #require(MPin.PIN(decimal: "2468"))
        let token = MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret)
        // The token is stored and reloaded by its raw representation.
        let reloaded = try MPin.Token(rawRepresentation: token.rawRepresentation.unsafeExposedBytes)
        #expect(reloaded == token && !"\(reloaded)".contains("04"))

        let first = try MPin.Client.firstPass(identity: identity, pin: pin, token: reloaded, using: &random)
        let challenge = try BN254CX.Scalar.random(using: &random)
        let v = MPin.Client.secondPass(first, challenge: challenge)
        #expect(MPin.Server.verify(identity: identity, challenge: challenge, client: .init(u: first.u, v: v), serverSecret: serverSecret) == .accepted)
        let wrong = try MPin.Client.firstPass(identity: identity, pin: MPin.PIN(2469), token: reloaded, using: &random)
        let wrongV = MPin.Client.secondPass(wrong, challenge: challenge)
        #expect(MPin.Server.verify(identity: identity, challenge: challenge, client: .init(u: wrong.u, v: wrongV), serverSecret: serverSecret) != .accepted)

        let dvsKey = try MPin.DVS.PrivateKey(using: &random)
        let signingIdentity = MPin.Identity(mpinID: identity.bytes, dvsPublicKey: dvsKey.publicKey)
        let dvsShares = authorities.map { MPin.Issuer.clientSecretShare($0, for: signingIdentity) }
        let dvsPIN = MPin.PIN(1357)
        let dvsToken = MPin.Client.extractPIN(dvsPIN, identity: signingIdentity, clientSecret: MPin.DVS.clientSecret(dvsShares, privateKey: dvsKey))
        let hash = MPin.DVS.documentHash(of: "I agree.")
        let dvs = try MPin.DVS.signature(for: hash, time: 1_700_000_000, identity: signingIdentity, pin: dvsPIN, token: dvsToken, using: &random)
        #expect(MPin.DVS.isValidSignature(dvs, for: hash, time: 1_700_000_000, identity: signingIdentity, publicKey: dvsKey.publicKey,
                                          serverSecret: serverSecret))
        #expect(MPin.DVS.verifyDocument("I agree.", hash: hash))
    }

    /// Salt Edge: the connection key, an authorization the provider encrypts to it, the
    /// decrypted view, and a signed, encrypted confirmation.
    @Test func saltEdgeConnectionDecryptAndConfirm() throws {
        var random = SeededRandomSource(seed: 3)
        let link = try SaltEdge.DeepLink(parsing: "authenticator://saltedge.com/connect?configuration=https://bank.example.com/api/authenticator/v2/configuration")
        guard case .connect(_, _, let apiVersion) = link else { Issue.record("not a connect link"); return }
        #expect(apiVersion == 2)
        let connectionKey = try SaltEdge.ConnectionKey(generatingWith: &random)
        let providerKey = try SaltEdge.ConnectionKey(generatingWith: &random)
        let connection = SaltEdge.Connection(id: "9", providerID: "1", scaServiceURL: "https://sca.example.com",
                                             key: connectionKey, accessToken: .init(rawRepresentation: SecretBytes("token".utf8)),
                                             providerPublicKey: RSA.Encryption.PublicKey(sameKeyAs: providerKey.publicKey))
        let plaintext = #"{"title":"Pay 5 EUR","description":{"text":"Shop"},"authorization_code":"ac","created_at":"2025-01-01T10:00:00Z","expires_at":"2025-01-01T10:05:00Z"}"#
        let bundle = try SaltEdge.EncryptedBundle.encrypt(Array(plaintext.utf8), to: RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey),
                                                          using: &random)
        let item = #"{"data":{"id":"44","connection_id":"9","status":"pending","key":"\#(bundle.key)","iv":"\#(bundle.iv)","data":"\#(bundle.data)"}}"#
        let encrypted = try SaltEdge.EncryptedAuthorization.single(from: HTTPResponse(status: 200, body: Array(item.utf8)))
        let authorization = try encrypted.decrypt(with: connectionKey)
        #expect(authorization.title == "Pay 5 EUR" && authorization.authorizationCode == "ac")
        let requests = SaltEdge.Requests(connection: connection, client: .linux(app: "mfa", version: "1", build: "1", system: "Linux"))
        let confirm = try requests.answer(.confirm(authorization, unlockedWith: .passcode, geolocation: nil), using: &random,
                                          now: Date(timeIntervalSince1970: 1_735_725_660))
        #expect(confirm.method == .put && confirm.header("x-jws-signature") != nil && confirm.secretHeader("Access-Token") == SecretBytes("token".utf8))
    }

    /// CM: an environment from its QR code, a pending OTP request, and a signed answer.
    @Test func cmTokenAndAnswer() throws {
        let environment = try CMAuthenticator.Environment(qrCode: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,s3cret")
        let json = #"[{"id":"r1","auth_type":"instant","created_at":"2023-11-14T22:13:20Z"}]"#
        let request = try #require(try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array(json.utf8))))
        let requests = CMAuthenticator.Requests(deviceID: "d1", client: .linux(app: "mfa", version: "1", system: "6.12",
                                                                                 architecture: "x86_64", locale: "en_US"))
        let answer = try requests.answer(.approved, to: request, in: environment, now: Date(timeIntervalSince1970: 1_700_000_010))
        #expect(answer.path == "device/d1/instant/r1")
        let bearer = String(decoding: try #require(answer.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self)
        let parts = bearer.dropFirst("Bearer ".count).split(separator: ".")
        #expect(parts.count == 3)
        // The HS256 tag is all 32 bytes (RFC 7518 §3.2), under the environment secret.
        let mac = HMAC<SHA256>.authenticationCode(for: Array((parts[0] + "." + parts[1]).utf8), using: SymmetricKey(data: Array("s3cret".utf8)))
        #expect(try Base64.decode(parts[2], alphabet: .urlSafe, padded: false) == mac.bytes)
    }
}
