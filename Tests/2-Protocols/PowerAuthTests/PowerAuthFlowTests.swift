// Client ↔ test-server transcripts with seeded randomness: activation by code and by recovery
// code in each version, persisting and reloading, signatures accepted and refused, counter
// drift inside and beyond the window, and status synchronisation.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthFlowTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x5A, count: 16))
    let password = SecretBytes("correct horse".utf8)

    func activate(_ server: PowerAuthTestServer, method: PowerAuth.ActivationMethod, recovery: (String, String)? = nil,
                  random: inout SeededRandomSource) throws -> (PowerAuth.ActivationResult, PowerAuth.ActivationData) {
        let encryptionKey = PowerAuth.EncryptionKey(publicKey: server.masterKey.publicKey, temporaryKeyID: server.temporaryKeyID)
        let pending = try PowerAuth.PendingActivation(method: method, configuration: server.configuration, encryptionKey: encryptionKey,
                                                      version: server.version, timestamp: 1_700_000_000_000, using: &random)
        #expect(pending.request.header("X-PowerAuth-Encryption") == #"PowerAuth version="\#(server.version.rawValue)", application_key="\#(server.configuration.applicationKey)""#)
        let (response, _, _) = try server.activate(pending.request, recovery: recovery)
        let result = try pending.process(response)
        let data = try result.persist(password: password, possessionUnlockKey: possessionUnlock, version: server.version, using: &random)
        return (result, data)
    }

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_0, .v3_1, .v3_2, .v3_3])
    func activationSigningAndStatus(_ version: PowerAuth.ProtocolVersion) throws {
        let server = try PowerAuthTestServer(version: version, seed: 100)
        var random = SeededRandomSource(seed: 200)
        let code = try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")
        let (result, stored) = try activate(server, method: .code(code), random: &random)
        #expect(result.activationID == server.activationID)
        let device = try #require(server.devicePublicKey)
        let serverPublic = try #require(server.serverPublicKey)
        #expect(result.fingerprint == PowerAuth.activationFingerprint(devicePublicKey: device, activationID: server.activationID, serverPublicKey: serverPublic))

        // Persisted data survives serialisation byte for byte.
        var activation = try PowerAuth.ActivationData(serialized: stored.serialized)
        #expect(activation.serialized == stored.serialized)

        // Two-factor signature, accepted; the state advances.
        let body = Array(#"{"requestObject":{"reason":"TEST"}}"#.utf8)
        let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let signed = try PowerAuth.sign(method: "POST", uriID: "/pa/signature/validate", body: body, activation: activation,
                                        factors: .possessionKnowledge, keys: keys, configuration: server.configuration, version: version, using: &random)
        #expect(try server.verify(header: signed.header.value, method: "POST", uriID: "/pa/signature/validate", body: body))
        activation = signed.next
        #expect(activation.counterByte == 1)

        // A replayed header is refused (the server moved past it); a wrong password is refused.
        #expect(try !server.verify(header: signed.header.value, method: "POST", uriID: "/pa/signature/validate", body: body))
        let wrongKeys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: SecretBytes("wrong horse".utf8))
        let wrong = try PowerAuth.sign(method: "POST", uriID: "/pa/signature/validate", body: body, activation: activation,
                                       factors: .possessionKnowledge, keys: wrongKeys, configuration: server.configuration, version: version, using: &random)
        #expect(try !server.verify(header: wrong.header.value, method: "POST", uriID: "/pa/signature/validate", body: body))
        activation = wrong.next

        // Status: the client is one step ahead (the failed signature) — inside half the window.
        let transport = try activation.transportKey(possessionUnlockKey: possessionUnlock)
        let pending = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random)
        let status = try pending.process(try server.status(pending.request), transportKey: transport)
        #expect(status.state == .active && status.lookAheadWindow == 20)
        #expect(PowerAuth.counterSynchronization(for: activation, status: status, transportKey: transport) == .synchronized)

        // Drift inside the window: ten unseen signatures, then one the server accepts.
        for _ in 0..<10 { activation = activation.advanced }
        let possession = try activation.signatureKeys(for: .possession, possessionUnlockKey: possessionUnlock)
        let late = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: activation, factors: .possession, keys: possession,
                                      configuration: server.configuration, version: version, using: &random)
        #expect(try server.verify(header: late.header.value, method: "POST", uriID: "/x", body: []))
        activation = late.next

        // Beyond the window: 25 unseen signatures, nothing the server can match.
        var far = activation
        for _ in 0..<25 { far = far.advanced }
        let lost = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: far, factors: .possession, keys: possession,
                                      configuration: server.configuration, version: version, using: &random)
        #expect(try !server.verify(header: lost.header.value, method: "POST", uriID: "/x", body: []))
        let pendingFar = try PowerAuth.PendingStatus(activationID: far.activationID, using: &random)
        let farStatus = try pendingFar.process(try server.status(pendingFar.request), transportKey: transport)
        #expect(PowerAuth.counterSynchronization(for: lost.next, status: farStatus, transportKey: transport) == .deadlock)
        // Client ahead by 12 of 20: a synchronising signature is recommended.
        var ahead = activation
        for _ in 0..<12 { ahead = ahead.advanced }
        #expect(PowerAuth.counterSynchronization(for: ahead, status: farStatus, transportKey: transport) == .signatureRecommended)
    }

    @Test func serverAheadIsAdopted() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 101)
        var random = SeededRandomSource(seed: 201)
        let (_, stored) = try activate(server, method: .code(try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")), random: &random)
        // The server moved three steps on: three signatures it accepted, which the client did not
        // persist (e.g. an older backup of the activation was restored).
        var lost = stored
        let possession = try stored.signatureKeys(for: .possession, possessionUnlockKey: possessionUnlock)
        for _ in 0..<3 {
            let signed = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: lost, factors: .possession, keys: possession,
                                            configuration: server.configuration, using: &random)
            #expect(try server.verify(header: signed.header.value, method: "POST", uriID: "/x", body: []))
            lost = signed.next
        }
        let transport = try stored.transportKey(possessionUnlockKey: possessionUnlock)
        let pending = try PowerAuth.PendingStatus(activationID: stored.activationID, using: &random)
        let status = try pending.process(try server.status(pending.request), transportKey: transport)
        #expect(PowerAuth.counterSynchronization(for: stored, status: status, transportKey: transport) == .adopt(counterByte: 3, steps: 3))
    }

    @Test func recoveryActivationCarriesTheNewRecoveryData() throws {
        let server = try PowerAuthTestServer(version: .v3_2, seed: 102)
        var random = SeededRandomSource(seed: 202)
        let code = try PowerAuth.recoveryCode(parsing: "R:MMMMM-MMMMM-MMMMM-MUTOA")
        let encryptionKey = PowerAuth.EncryptionKey(publicKey: server.masterKey.publicKey)
        let pending = try PowerAuth.PendingActivation(method: .recovery(code: code, puk: SecretBytes("0123456789".utf8)), configuration: server.configuration,
                                                      encryptionKey: encryptionKey, version: .v3_2, timestamp: 1, using: &random)
        let (response, type, identity) = try server.activate(pending.request, recovery: ("VVVVV-VVVVV-VVVVV-VTFVA", "9876543210"))
        #expect(type == "RECOVERY" && identity == ["recoveryCode": "MMMMM-MMMMM-MMMMM-MUTOA", "puk": "0123456789"])
        let result = try pending.process(response)
        #expect(result.recovery?.recoveryCode == "VVVVV-VVVVV-VVVVV-VTFVA")
        #expect(result.recovery?.puk == SecretBytes("9876543210".utf8))
        let stored = try result.persist(password: password, possessionUnlockKey: possessionUnlock, using: &random)
        #expect(stored.sealedRecoveryData != nil)
    }

    @Test func malformedActivationAnswersAreTypedErrors() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 103)
        var random = SeededRandomSource(seed: 203)
        let pending = try server.pendingCodeActivation(random: &random)
        let (good, _, _) = try server.activate(pending.request)
        var tampered = good.body
        tampered[tampered.count / 2] ^= 1
        for body in [[], Array("{}".utf8), Array("[".utf8), tampered, Array(good.body.prefix(40))] {
            #expect(throws: ProtocolError.self) { try pending.process(HTTPResponse(status: 200, body: body)) }
        }
        let error = HTTPResponse(status: 400, body: Array(#"{"status":"ERROR","responseObject":{"code":"ERR_ACTIVATION","message":"bad"}}"#.utf8))
        #expect(throws: ProtocolError(ProtocolError.Code(rawValue: "ERR_ACTIVATION"), "")) { try pending.process(error) }
        #expect(throws: ProtocolError(ProtocolError.Code(rawValue: "ERROR_GENERIC"), "")) { try pending.process(HTTPResponse(status: 502, body: Array("<html>".utf8))) }
        for garbage in ["", "{}", #"{"format":2}"#, String(decoding: try activate(server, method: .custom(["a": "b"]), random: &random).1.serialized.dropLast(5), as: UTF8.self)] {
            #expect(throws: ProtocolError(.malformedInput, "")) { try PowerAuth.ActivationData(serialized: Array(garbage.utf8)) }
        }
    }
}
