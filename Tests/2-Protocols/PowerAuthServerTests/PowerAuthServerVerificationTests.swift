// What the server refuses when it verifies an online signature (docs/protocols/powerauth.md §7.1–§7.5): a body,
// endpoint or header field other than the one signed, a counter behind the server's or past the
// end of the look-ahead window, and a header naming another activation or another application
// (`pa_application_key`, checked against the application the activation was created for, also
// after a snapshot round trip). Each refusal leaves the server's counter where it was, so the
// genuine request still verifies in step.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthServerVerificationTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x44, count: 16))
    let password = SecretBytes("2580".utf8)
    let body: [UInt8] = Array(#"{"amount":"100.00","to":"CZ6508000000192000145399"}"#.utf8)

    /// A 3.3 server and a client activated against it.
    func activated(seed: UInt64) throws -> (server: PowerAuthTestServer, client: PowerAuth.ActivationData, random: SeededRandomSource) {
        let server = try PowerAuthTestServer(version: .v3_3, seed: seed)
        var random = SeededRandomSource(seed: seed + 1)
        let client = try server.activatedClient(password: password, possessionUnlockKey: possessionUnlock, random: &random)
        return (server, client, random)
    }

    /// A two-factor signature of `POST /pay` over ``body`` at the client's counter.
    func sign(_ client: PowerAuth.ActivationData, for server: PowerAuthTestServer, random: inout SeededRandomSource) throws -> PowerAuth.SignedRequest {
        let keys = try client.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        return try PowerAuth.sign(method: "POST", uriID: "/pay", body: body, activation: client, factors: .possessionKnowledge, keys: keys,
                                  configuration: server.configuration, version: server.version, using: &random)
    }

    /// §7.2: the body is part of the normalised data; one changed byte is refused and counted.
    @Test func aSignatureOverAMutatedBodyIsRefused() throws {
        let (server, client, seeded) = try activated(seed: 900)
        var random = seeded
        let signed = try sign(client, for: server, random: &random)
        var mutated = body
        mutated[mutated.count - 3] ^= 0x01
        #expect(server.verification(header: signed.header.value, method: "POST", uriID: "/pay", body: mutated) == .invalid)
        #expect(server.activation?.failedAttempts == 1)
        #expect(server.verification(header: signed.header.value, method: "POST", uriID: "/pay", body: body) == .valid(steps: 0))
    }

    /// §7.2: the URI id is part of the normalised data; the same signature on another endpoint is refused.
    @Test func aSignatureForAnotherEndpointIsRefused() throws {
        let (server, client, seeded) = try activated(seed: 902)
        var random = seeded
        let signed = try sign(client, for: server, random: &random)
        #expect(server.verification(header: signed.header.value, method: "POST", uriID: "/transfer", body: body) == .invalid)
        #expect(server.verification(header: signed.header.value, method: "POST", uriID: "/pay", body: body) == .valid(steps: 0))
    }

    /// §7.1: once a newer signature moved the server's counter, an older one (a counter behind
    /// the window's start) is refused.
    @Test func anOlderSignatureIsRefusedAfterANewerOne() throws {
        let (server, client, seeded) = try activated(seed: 904)
        var random = seeded
        let older = try sign(client, for: server, random: &random)
        let newer = try sign(older.next, for: server, random: &random)
        #expect(server.verification(header: newer.header.value, method: "POST", uriID: "/pay", body: body) == .valid(steps: 1))
        #expect(server.verification(header: older.header.value, method: "POST", uriID: "/pay", body: body) == .invalid)
    }

    /// §6.3, §7.1: a signature at the window's last position (19 ahead of 20) is found; one a
    /// step further is not.
    @Test func theLookAheadWindowEndsAtItsLastPosition() throws {
        let (server, client, seeded) = try activated(seed: 906)
        var random = seeded
        var ahead = client
        for _ in 0..<20 { ahead = ahead.advanced }
        let outside = try sign(ahead, for: server, random: &random)
        #expect(server.verification(header: outside.header.value, method: "POST", uriID: "/pay", body: body) == .invalid)
        var last = client
        for _ in 0..<19 { last = last.advanced }
        let inside = try sign(last, for: server, random: &random)
        #expect(server.verification(header: inside.header.value, method: "POST", uriID: "/pay", body: body) == .valid(steps: 19))
    }

    /// §7.5: a header naming another activation is refused.
    @Test func aHeaderNamingAnotherActivationIsRefused() throws {
        let (server, client, seeded) = try activated(seed: 908)
        var random = seeded
        let header = try sign(client, for: server, random: &random).header.value
        let foreign = header.replacingOccurrences(of: server.activationID, with: "00000000-0000-4000-8000-000000000000")
        #expect(foreign != header)
        #expect(server.verification(header: foreign, method: "POST", uriID: "/pay", body: body) == .invalid)
    }

    /// §2, §7.5: `pa_application_key` names the application; a header naming another one (a
    /// well-formed 16-byte key that is not this application's) is refused.
    @Test func aHeaderNamingAnotherApplicationIsRefused() throws {
        let (server, client, seeded) = try activated(seed: 910)
        var random = seeded
        let header = try sign(client, for: server, random: &random).header.value
        let foreign = header.replacingOccurrences(of: server.application.applicationKey, with: "AAECAwQFBgcICQoLDA0ODw==")
        #expect(foreign != header)
        #expect(server.verification(header: foreign, method: "POST", uriID: "/pay", body: body) == .invalid)
        #expect(server.verification(header: header, method: "POST", uriID: "/pay", body: body) == .valid(steps: 0))
    }

    /// §7.5: the header is `PowerAuth ` then `key="value"` pairs. A pair with an empty key
    /// (`,=pa_signature_type="…"`), an empty pair (`,,`), a key twice or a key with characters
    /// outside `[A-Za-z0-9_]` is not that shape and is refused — the server once read
    /// `=pa_signature_type` as `pa_signature_type` (found by diff-powerauth-signature).
    @Test func aHeaderThatIsNotKeyValuePairsIsRefused() throws {
        let (server, client, seeded) = try activated(seed: 914)
        var random = seeded
        let header = try sign(client, for: server, random: &random).header.value
        let malformed = [
            header.replacingOccurrences(of: ", pa_signature_type=", with: ",=pa_signature_type="),
            header.replacingOccurrences(of: ", pa_signature_type=", with: ",, pa_signature_type="),
            header.replacingOccurrences(of: ", pa_signature_type=", with: ", pa_signature_type=\"possession\", pa_signature_type="),
            header + ",",
        ]   // four failed attempts, one fewer than block the activation
        for text in malformed {
            #expect(text != header)
            #expect(server.verification(header: text, method: "POST", uriID: "/pay", body: body) == .invalid, "\(text)")
        }
        #expect(server.verification(header: header, method: "POST", uriID: "/pay", body: body) == .valid(steps: 0))
    }

    /// The application an activation belongs to survives a snapshot: the restored record still
    /// refuses another application's key.
    @Test func aRestoredActivationStillRefusesAnotherApplication() throws {
        let (server, client, seeded) = try activated(seed: 912)
        var random = seeded
        let header = try sign(client, for: server, random: &random).header.value
        let foreign = header.replacingOccurrences(of: server.application.applicationKey, with: "AAECAwQFBgcICQoLDA0ODw==")
        let snapshot = try JSONEncoder().encode(try #require(server.activation).snapshot)
        var restored = try PowerAuthServer.Activation(snapshot: JSONDecoder().decode(PowerAuthServer.Activation.Snapshot.self, from: snapshot))
        let secret = server.application.applicationSecret
        #expect(restored.verify(header: foreign, method: "POST", uriID: "/pay", body: body, applicationSecret: secret) == .invalid)
        #expect(restored.verify(header: header, method: "POST", uriID: "/pay", body: body, applicationSecret: secret) == .valid(steps: 0))
    }
}
