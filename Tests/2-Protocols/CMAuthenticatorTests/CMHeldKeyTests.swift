// An environment secret held outside the process (docs/protocols/cm-authenticator.md §5 with
// `HeldEnvironmentKey`): the bearer JWT and its `sig` computed through the holder pass the test
// server keyed with the secret itself, and a holder that cannot be used is `keyUnavailable`
// from every request builder — never a token made without it. The holder here answers as a
// PKCS #11 token's `CKM_SHA256_HMAC` does; SoftHSM2 runs the same calls in the Servers matrix.

import CMAuthenticator
import CryptoPrimitives
import Foundation
import ProtocolSupport
import Synchronization
import Testing
import ClientTestSupport
import TestSupport

/// A token stand-in for an imported HMAC key, counting its operations.
final class TokenLikeHMACKey: CMAuthenticator.HeldEnvironmentKey, Sendable {
    let keyLabel = "cm-test"
    let key: SymmetricKey
    let unplugged = Atomic<Bool>(false)
    let operations = Atomic<Int>(0)

    init(_ secret: String) { key = SymmetricKey(data: Array(secret.utf8)) }

    func authenticationCode(for message: [UInt8]) throws(ProtocolError) -> SecretBytes {
        operations.add(1, ordering: .relaxed)
        guard !unplugged.load(ordering: .relaxed) else {
            throw ProtocolError(keyUnavailable: HeldKeyFailure(), "the token is not present")
        }
        return SecretBytes(HMAC<SHA256>.authenticationCode(for: message, using: key).bytes)
    }
}

struct HeldKeyFailure: Error, Sendable {}

@Suite struct CMHeldKeyTests {
    static let secret = "k3y,with,commas"
    let holder = TokenLikeHMACKey(secret)
    var environment: CMAuthenticator.Environment {
        CMAuthenticator.Environment(id: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b", secret: .init(held: holder))
    }
    let client = CMAuthenticator.ClientDescription.linux(app: "mfa", version: "1.0", system: "6.12", architecture: "x86_64", locale: "en_US")
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aHeldSecretShowsNoBytes() {
        #expect(environment.secret.softwareSecret == nil && environment.secret.heldKey != nil)
        #expect("\(environment.secret)" == "CMAuthenticator.EnvironmentSecret(held)")
        #expect(environment.secret != CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes(Array(Self.secret.utf8))))
    }

    /// §5: the answer's JWT and `sig` come from the holder (two HMACs) and pass the server.
    @Test func theHoldersTokenPassesTheServer() throws {
        let before = holder.operations.load(ordering: .relaxed)
        let request = try CMAuthenticator.Requests(deviceID: "dev-1", client: client).answer(.approved, toRequestID: "auth-9", in: environment, now: now)
        #expect(holder.operations.load(ordering: .relaxed) - before == 2)
        let bearer = String(decoding: try #require(request.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self)
        let body = try #require(request.body)
        let claims = try #require(CMTestServer.verify(String(bearer.dropFirst(7)), secret: Self.secret, body: body, now: 1_700_000_030))
        #expect(claims["auth_id"] as? String == "auth-9" && claims["sig"] != nil)
        let register = try CMAuthenticator.Requests(deviceID: "dev-1", client: client).registerEnvironment(environment, now: now)
        let token = String(String(decoding: try #require(register.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self).dropFirst(7))
        #expect(CMTestServer.verify(token, secret: Self.secret, body: [], now: 1_700_000_030) != nil)
    }

    @Test func anUnpluggedHolderIsKeyUnavailableEverywhere() {
        holder.unplugged.store(true, ordering: .relaxed)
        let requests = CMAuthenticator.Requests(deviceID: "dev-1", client: client)
        let error = expectError(code: .keyUnavailable) { try CMAuthenticator.bearerToken(secret: environment.secret, now: now) }
        #expect(error?.keyError is HeldKeyFailure)
        expectError(code: .keyUnavailable) { try requests.registerEnvironment(environment, now: now) }
        expectError(code: .keyUnavailable) { try requests.unregisterEnvironment(environment, now: now) }
        expectError(code: .keyUnavailable) { try requests.pendingAuthentication(in: environment, now: now) }
        expectError(code: .keyUnavailable) { try requests.answer(.denied, toRequestID: "a", in: environment, now: now) }
    }
}
