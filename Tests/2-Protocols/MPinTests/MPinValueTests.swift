// PINs, identities, DVS, secret types and decoding of M-Pin values.

import CryptoPrimitives
import MPin
import Testing
import TestSupport

@Suite struct MPinValueTests {
    @Test func pinTextConventions() {
        #expect(MPin.PIN(decimal: "0123")?.value == 123)
        #expect(MPin.PIN(decimal: "987654")?.value == 987_654)
        #expect(MPin.PIN(decimal: "1234567")?.value == 234_567)     // reduced mod 10⁶
        for bad in ["", "12a4", " 123", "1234567890", "-12"] { #expect(MPin.PIN(decimal: bad) == nil) }
        // docs/protocols/mpin.md §3: "1234" → Java hashCode 1509442 → 509442.
        #expect(MPin.PIN(legacyHashOf: "1234").value == 509_442)
        #expect(MPin.PIN(1_234_567).value == 234_567)
        // The digit count a client holds the PIN length to; not part of equality.
        #expect(MPin.PIN(decimal: "0123")?.digitCount == 4 && MPin.PIN(decimal: SecretBytes("000123".utf8))?.digitCount == 6)
        #expect(MPin.PIN(123).digitCount == 0 && MPin.PIN(legacyHashOf: "1234").digitCount == 0)
        #expect(MPin.PIN(decimal: "0123") == MPin.PIN(123))
    }

    @Test func secretsAreRedacted() throws {
        var random = SeededRandomSource(seed: 11)
        let share = try MPin.MasterSecretShare.random(using: &random)
        let identity = MPin.Identity([1, 2, 3])
        let token = MPin.Client.extractPIN(MPin.PIN(1234), identity: identity,
                                           clientSecret: MPin.Issuer.combine([MPin.Issuer.clientSecretShare(share, for: identity)]))
        let hex = TestHex.string(token.rawRepresentation.unsafeExposedBytes)
        for value in [String(describing: token), String(describing: share), String(describing: MPin.PIN(1234))] {
            #expect(value.contains("redacted") && !value.contains(String(hex.prefix(12))))
        }
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains(String(hex.dropFirst(2).prefix(12))))
        #expect(Mirror(reflecting: MPin.PIN(1234)).children.isEmpty)
        // Every secret type shows no stored property to `dump`: their empty mirrors live apart
        // from the types (MPin+Redaction.swift, absent under Embedded Swift), so a type that
        // misses its conformance there would show its storage.
        let clientShare = MPin.Issuer.clientSecretShare(share, for: identity)
        let first = MPin.Client.firstPass(identity: identity, pin: MPin.PIN(1234), token: token,
                                          x: try BN254CX.Scalar.random(using: &random))
        let secrets: [Any] = [share, MPin.Issuer.serverSecret(share), clientShare, MPin.Issuer.combine([clientShare]), token,
                              MPin.Issuer.timePermit(share, for: identity, day: 1), first.authenticationSecret, MPin.PIN(1234),
                              try MPin.DVS.PrivateKey(using: &random)]
        for secret in secrets {
            #expect(Mirror(reflecting: secret).children.isEmpty, "\(type(of: secret))")
        }
    }

    /// Shares that cancel (a hostile issuer sending −P beside P, here 02‖x and 03‖x of one x)
    /// sum to infinity: it is reported, not trapped on, by every combination, and its empty
    /// encoding decodes as nothing.
    @Test func sharesThatCancelSumToInfinityWithoutATrap() throws {
        var random = SeededRandomSource(seed: 12)
        let master = try MPin.MasterSecretShare.random(using: &random)
        let share = MPin.Issuer.clientSecretShare(master, for: MPin.Identity([4, 5, 6]))
        let plain = try BN254CX.G1(encoded: share.rawRepresentation.unsafeExposedBytes).compressedRepresentation
        let flipped = [plain[0] ^ 1] + plain.dropFirst()   // 02 ↔ 03: the same x, −y
        let shares = [try MPin.ClientSecretShare(rawRepresentation: plain), try MPin.ClientSecretShare(rawRepresentation: flipped)]
        #expect(!shares[0].isInfinity && shares[0] != shares[1])
        let sum = MPin.Issuer.combine(shares)
        #expect(sum.isInfinity && sum.rawRepresentation.count == 0)
        #expect(MPin.DVS.clientSecret(shares, privateKey: try MPin.DVS.PrivateKey(using: &random)).isInfinity)
        let permits = [MPin.TimePermit(try BN254CX.G1(encoded: plain)), MPin.TimePermit(try BN254CX.G1(encoded: flipped))]
        #expect(MPin.Issuer.combine(permits).isInfinity)
        #expect(throws: CryptoError.invalidEncoding) { try MPin.ClientSecret(rawRepresentation: sum.rawRepresentation.unsafeExposedBytes) }
    }

    @Test func identitiesAndDecoding() throws {
        let id = Array(#"{"userID":"a"}"#.utf8)
        let identity = MPin.Identity(id)
        #expect(identity.hash == SHA256.hash(data: id).bytes)
        #expect(try MPin.Identity(hash: identity.hash) == identity)
        #expect(throws: CryptoError.incorrectLength) { try MPin.Identity(hash: [1, 2, 3]) }
        #expect(MPin.day(ofUnixTime: 1_437_055_594) == 16_632)                 // BN254_CXOnePass.json test 0
        #expect(throws: CryptoError.self) { try MPin.Token(rawRepresentation: [0x04] + [UInt8](repeating: 1, count: 64)) }
        #expect(throws: CryptoError.self) { try MPin.ServerSecret(rawRepresentation: [UInt8](repeating: 0, count: 127)) }
        #expect(throws: CryptoError.self) { try MPin.DVS.PublicKey(rawRepresentation: [UInt8](repeating: 7, count: 128)) }
    }

    @Test func dvsSignsAndVerifies() throws {
        var random = SeededRandomSource(seed: 12)
        let shares: [MPin.MasterSecretShare] = [try .random(using: &random), try .random(using: &random)]
        let z = try MPin.DVS.PrivateKey(using: &random)
        let identity = MPin.Identity(mpinID: Array("7b7d".utf8), dvsPublicKey: z.publicKey)
        #expect(identity.bytes == Array("7b7d".utf8) + z.publicKey.rawRepresentation)
        let clientSecret = MPin.DVS.clientSecret(shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }, privateKey: z)
        let pin = MPin.PIN(55_555)
        let token = MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret)
        let serverSecret = MPin.Issuer.combine(shares.map(MPin.Issuer.serverSecret))
        let hash = MPin.DVS.documentHash(of: "sample document")
        #expect(TestHex.string(hash).hasPrefix("1789c9ee"))                    // docs/protocols/mpin.md §5.6
        #expect(MPin.DVS.verifyDocument("sample document", hash: hash) && !MPin.DVS.verifyDocument("sample document.", hash: hash))
        let signature = try MPin.DVS.signature(for: hash, time: 1_700_000_000, identity: identity, pin: pin, token: token, using: &random)
        #expect(MPin.DVS.isValidSignature(signature, for: hash, time: 1_700_000_000, identity: identity, publicKey: z.publicKey,
                                          serverSecret: serverSecret))
        #expect(!MPin.DVS.isValidSignature(signature, for: MPin.DVS.documentHash(of: "other"), time: 1_700_000_000, identity: identity,
                                           publicKey: z.publicKey, serverSecret: serverSecret))
        let wrongPIN = try MPin.DVS.signature(for: hash, time: 1_700_000_000, identity: identity, pin: MPin.PIN(55_556), token: token,
                                              using: &random)
        #expect(!MPin.DVS.isValidSignature(wrongPIN, for: hash, time: 1_700_000_000, identity: identity, publicKey: z.publicKey,
                                           serverSecret: serverSecret))
        // Without Pa the designated verifier cannot check it: the secret carries z.
        #expect(MPin.Server.verifyOnePass(identity: identity, client: .init(u: signature.u, v: signature.v), message: hash,
                                          time: 1_700_000_000, serverSecret: serverSecret).0 != .accepted)
    }
}
