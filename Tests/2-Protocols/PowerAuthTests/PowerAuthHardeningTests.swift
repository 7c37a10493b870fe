// PowerAuth client-core defects found in review, each pinned by a test that failed before its
// fix: GET canonicalisation (sort decoded pairs, then encode), traps reachable from data, fixed
// error messages, and counters that always move. The server's (the 3.0 status answer, full-length
// JWT MACs, the look-ahead bounds) are in PowerAuthServerTests.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthHardeningTests {
    // MARK: §7.2 canonical query: the mobile SDK's core and the Java server sort, then encode.

    @Test func canonicalQuerySortsDecodedPairsThenEncodes() {
        // "a b" < "a+b" < "a-b" by their bytes (0x20 < 0x2B < 0x2D); encoded they would sort
        // "a%2Bb" < "a+b" < "a-b".
        #expect(PowerAuth.NormalizedData.canonicalQuery([("a-b", "3"), ("a+b", "2"), ("a b", "1")]) == "a+b=1&a%2Bb=2&a-b=3")
        // UTF-8 bytes of "été" (0xC3…) sort after "z" (0x7A); encoded, "%C3…" would come first.
        #expect(PowerAuth.NormalizedData.canonicalQuery([("été", "2"), ("z", "1")]) == "z=1&%C3%A9t%C3%A9=2")
        // The spec's own example (docs/protocols/powerauth.md §7.2).
        #expect(PowerAuth.NormalizedData.canonicalQuery([("zingly", "is da best"), ("420", "is equal to 10*42"), ("hello", "world"), ("hell0", "w0rld")])
                == "420=is+equal+to+10*42&hell0=w0rld&hello=world&zingly=is+da+best")
    }

    @Test func repeatedKeysSortByDecodedValue() {
        // Values "a b" (0x20), "a+b" (0x2B), "a/b" (0x2F), "a.b" (0x2E) under one key, and an
        // accented value after plain ones.
        let query = PowerAuth.NormalizedData.canonicalQuery([("k", "a/b"), ("k", "a.b"), ("k", "a+b"), ("k", "a b"), ("k", "é"), ("k", "z")])
        #expect(query == "k=a+b&k=a%2Bb&k=a.b&k=a%2Fb&k=z&k=%C3%A9")
        // Keys that differ only by what encoding changes.
        #expect(PowerAuth.NormalizedData.canonicalQuery([("x/y", "1"), ("x.y", "2")]) == "x.y=2&x%2Fy=1")
    }

    // MARK: Fixed messages, no quoted plaintext.

    @Test func statusBlobErrorsQuoteNoPlaintext() throws {
        let transport = SymmetricKey(data: [UInt8](repeating: 9, count: 16))
        let challenge = [UInt8](repeating: 1, count: 16), nonce = [UInt8](repeating: 2, count: 16)
        let iv = PowerAuth.StatusBlob.iv(transportKey: transport, challenge: challenge, nonce: nonce)
        // A good magic with an unknown state 0x77, and one with look-ahead 0xEE.
        var messages: Set<String> = []
        for (state, window) in [(UInt8(0x77), UInt8(20)), (UInt8(3), UInt8(0xEE)), (UInt8(3), UInt8(0))] {
            let blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, state, 3, 3, 0, 0, 0, 0, 0, 1, 0, 5, window] + [UInt8](repeating: 7, count: 16)
            let encrypted = try AES.UnauthenticatedCBC.encrypt(blob, using: transport, iv: iv, padding: .none)
            do {
                _ = try PowerAuth.StatusBlob.decrypt(encrypted, transportKey: transport, challenge: challenge, nonce: nonce)
                Issue.record("a bad blob was accepted")
            } catch {
                messages.insert(error.message)
                #expect(!error.message.contains("119") && !error.message.contains("238"))
            }
        }
        #expect(messages == [PowerAuth.StatusBlob.invalidBlobMessage])
    }

    // MARK: Traps reachable from data.

    @Test func keystoreSecondsThatOverflowAreMalformedNotACrash() throws {
        var random = SeededRandomSource(seed: 401)
        let (master, temporary, configuration) = try PowerAuthKeystoreTests.fixture(&random)
        let pending = try PowerAuth.PendingKeystore(configuration: configuration, using: &random)
        let appKey = SymmetricKey(data: configuration.applicationSecretBytes)
        // iat and exp in seconds, so large that ×1000 overflows 64 bits; no *_ms members.
        let response = try #require(try PowerAuthKeystoreTests.answer(pending.request, key: appKey, signer: master, temporary: temporary) { claims in
            claims.removeValue(forKey: "iat_ms")
            claims.removeValue(forKey: "exp_ms")
            claims["iat"] = UInt64.max / 10
            claims["exp"] = UInt64.max / 10
        })
        #expect(throws: ProtocolError(.malformedInput, "")) { try pending.process(response, serverKey: master.publicKey) }
    }

    @Test func storedIterationCountIsBounded() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 404)
        var random = SeededRandomSource(seed: 405)
        let stored = try server.activatedClient(password: SecretBytes("1234".utf8), possessionUnlockKey: SymmetricKey(data: [UInt8](repeating: 6, count: 16)),
                                                random: &random)
        let text = String(decoding: stored.serialized, as: UTF8.self)
        #expect(try PowerAuth.ActivationData(serialized: stored.serialized).passwordIterations == 10_000)
        for count in ["1000001", "4294967296", "9223372036854775807", "9999"] {
            let tampered = text.replacingOccurrences(of: #""iterations":10000"#, with: #""iterations":\#(count)"#)
            #expect(tampered != text)
            #expect(throws: ProtocolError(.malformedInput, "")) { try PowerAuth.ActivationData(serialized: Array(tampered.utf8)) }
        }
    }

    // MARK: The counter always moves.

    @Test func counterNextIsSHA256Folded() throws {
        // fold16(SHA-256(0x00 × 16)) computed independently (Python: hashlib, XOR of the halves).
        let zero = try PowerAuth.CounterData(rawRepresentation: [UInt8](repeating: 0, count: 16))
        #expect(TestHex.string(zero.next.rawRepresentation.unsafeExposedBytes) == "582a34081b40e7eeb2fde2defd80e593")
        #expect(zero.next != zero && zero.next.next != zero.next)
    }
}

/// The SDK configuration string is written as it is read (docs/protocols/powerauth.md §2).
@Suite struct PowerAuthConfigurationStringTests {
    @Test func configurationStringRoundTrips() throws {
        var random = SeededRandomSource(seed: 408)
        let master = try P256.Signing.PrivateKey(using: &random)
        let configuration = try PowerAuth.Configuration(applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                                                        masterServerPublicKey: master.publicKey, baseURL: "https://x")
        let text = configuration.configurationString
        let read = try PowerAuth.Configuration(configurationString: text, baseURL: "https://x")
        #expect(read.applicationKey == configuration.applicationKey && read.applicationSecret == configuration.applicationSecret)
        #expect(read.masterServerPublicKey == master.publicKey)
        // Layout: 0x01, then 16 and APP_KEY's bytes (independently decoded with Foundation).
        let bytes = Array(try #require(Data(base64Encoded: text)))
        let appKey = Array(try #require(Data(base64Encoded: "lceX5qe+O+Sb0t8TQqg35A==")))
        #expect(bytes.prefix(2) == [0x01, 16] && Array(bytes[2..<18]) == appKey)
    }
}
