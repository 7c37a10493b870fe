// Every parser of server data fed truncated, oversized and garbage input: a typed
// `ProtocolError`, never a trap.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthMalformedInputTests {
    /// Variants of a well-formed input: every prefix length class, extra bytes, junk.
    static func variants(of good: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [[], [0], Array(repeating: 0xFF, count: 64), Array("null".utf8), Array("[]".utf8), Array("{}".utf8),
                              Array(String(repeating: "{\"a\":", count: 2000).utf8), Array(repeating: UInt8(ascii: "A"), count: 100_000)]
        for cut in [1, 2, good.count / 3, good.count / 2, good.count - 1] where cut > 0 && cut < good.count { out.append(Array(good.prefix(cut))) }
        out.append(good + Array(",junk".utf8))
        out.append(good + Array(repeating: 0x20, count: 3) + good)
        var flipped = good
        if !flipped.isEmpty { flipped[flipped.count / 2] ^= 0x40 }
        out.append(flipped)
        return out
    }

    @Test func serverDataParsersReturnTypedErrors() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 600)
        var random = SeededRandomSource(seed: 601)
        let pending = try server.pendingCodeActivation(random: &random)
        let activationResponse = try server.activate(pending.request).response
        let stored = try pending.process(activationResponse).persist(password: SecretBytes("1234".utf8),
                                                                     possessionUnlockKey: SymmetricKey(data: Array(repeating: 1, count: 16)), using: &random)
        let transport = try stored.transportKey(possessionUnlockKey: SymmetricKey(data: Array(repeating: 1, count: 16)))
        let status = try PowerAuth.PendingStatus(activationID: stored.activationID, using: &random)
        let statusResponse = try server.status(status.request)
        let keystore = try PowerAuth.PendingKeystore(configuration: server.configuration, using: &random)
        let eciesRequest = pending.request.body ?? []

        var checked = 0
        func expectTyped(_ label: String, _ body: () throws -> Void) {
            do {
                try body()
                // A flipped byte inside a Base64 string can still parse; then it must fail later (MAC) — accepted only here.
            } catch is ProtocolError {
            } catch {
                Issue.record("\(label): untyped error \(error)")
            }
            checked += 1
        }
        for input in Self.variants(of: activationResponse.body) {
            #expect(throws: ProtocolError.self) { try pending.process(HTTPResponse(status: 200, body: input)) }
            expectTyped("ECIES response") { _ = try PowerAuth.ECIES.Response(jsonBytes: input) }
        }
        for input in Self.variants(of: statusResponse.body) {
            #expect(throws: ProtocolError.self) { try status.process(HTTPResponse(status: 200, body: input), transportKey: transport) }
        }
        for input in Self.variants(of: stored.serialized) {
            expectTyped("ActivationData") { _ = try PowerAuth.ActivationData(serialized: input) }
        }
        for input in Self.variants(of: eciesRequest) {
            expectTyped("ECIES request") { _ = try PowerAuth.ECIES.Request(jsonBytes: input) }
        }
        for input in Self.variants(of: Array(#"{"status":"OK","responseObject":{"jwt":"eyJ.eyJ.AA"}}"#.utf8)) {
            #expect(throws: ProtocolError.self) { try keystore.process(HTTPResponse(status: 200, body: input), serverKey: server.configuration.masterServerPublicKey) }
        }
        for input in Self.variants(of: Array(#"{"tokenId":"t","tokenSecret":"AAAAAAAAAAAAAAAAAAAAAA=="}"#.utf8)) where input != Array(#"{"tokenId":"t","tokenSecret":"AAAAAAAAAAAAAAAAAAAAAA=="}"#.utf8) {
            expectTyped("token") { _ = try PowerAuth.token(from: input) }
            #expect(throws: ProtocolError.self) { try PowerAuth.vaultKey(from: input, transportKey: transport) }
        }
        for input in Self.variants(of: Array("VVVVV-VVVVV-VVVVV-VTFVA#AAAA".utf8)) {
            let text = String(decoding: input, as: UTF8.self)
            expectTyped("activation code") { _ = try PowerAuth.ActivationCode(parsing: text) }
            expectTyped("configuration") { _ = try PowerAuth.Configuration(configurationString: text, baseURL: "x") }
        }
        for blob in Self.variants(of: Array(repeating: 0x11, count: 32)) where blob.count != 32 {
            #expect(throws: ProtocolError.self) { try PowerAuth.StatusBlob.decrypt(blob, transportKey: transport, challenge: Array(repeating: 0, count: 16), nonce: Array(repeating: 0, count: 16)) }
        }
        let confirmed = Array(#"{"alreadyConfirmed":true}"#.utf8)
        for input in Self.variants(of: confirmed) where input != confirmed {
            #expect(throws: ProtocolError.self) { try PowerAuth.alreadyConfirmed(from: input) }
        }
        for input in Self.variants(of: Array(#"{"status":"ERROR","responseObject":{"code":"ERR_RECOVERY","currentRecoveryPukIndex":2}}"#.utf8)) {
            // An error answer stays an error whatever its body; only its code may fall back to the generic one.
            let failure = PowerAuth.ErrorResponse(HTTPResponse(status: 400, body: input))
            #expect(failure != nil && failure?.httpStatus == 400)
            #expect(throws: ProtocolError.self) { try PowerAuth.requireSuccess(HTTPResponse(status: 400, body: input)) }
        }
        #expect(checked > 50)
    }
}
