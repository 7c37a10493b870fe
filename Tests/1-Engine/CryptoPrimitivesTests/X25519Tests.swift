// X25519: RFC 7748 §5.2 and §6.1 answers, the field against the reference integer, and the
// refusal of small-order peers. The Wycheproof suite and our recorded file run in RunnerTests.

import CryptoPrimitives
import Testing
import TestSupport

@Suite struct X25519Tests {
    static let p = (ReferenceInteger.one << 255) - ReferenceInteger(19)

    /// RFC 7748 §6.1: Alice's and Bob's keys and their shared secret.
    @Test func rfc7748DiffieHellman() throws {
        let alice = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: TestHex.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: TestHex.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(TestHex.string(alice.publicKey.rawRepresentation) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(TestHex.string(bob.publicKey.rawRepresentation) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(TestHex.string(try alice.sharedSecretFromKeyAgreement(with: bob.publicKey).secret.unsafeExposedBytes) == shared)
        #expect(TestHex.string(try bob.sharedSecretFromKeyAgreement(with: alice.publicKey).secret.unsafeExposedBytes) == shared)
    }

    /// RFC 7748 §5.2: k = u = 9, then k ← X25519(k, u), u ← old k; after 1 and 1,000 rounds.
    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func rfc7748Iterations() {
        var k = [UInt8](repeating: 0, count: 32), u = k
        k[0] = 9
        u[0] = 9
        for round in 1...1000 {
            let next = k.withUnsafeBytes { scalar in u.withUnsafeBytes { X25519.multiply(scalar: scalar, uCoordinate: $0) } }
            u = k
            k = next.unsafeExposedBytes
            if round == 1 { #expect(TestHex.string(k) == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079") }
        }
        #expect(TestHex.string(k) == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    /// Products, squares, differences and inverses against the reference integer, on values
    /// near 0, near p and near 2²⁵⁵, and random ones; encodings are canonical.
    @Test func fieldMatchesReference() {
        var random = TestRandom("curve25519-field")
        var values: [ReferenceInteger] = [.zero, .one, Self.p - .one, Self.p, Self.p + .one, (.one << 255) - .one, (.one << 254), ReferenceInteger(19)]
        for _ in 0..<40 { values.append(ReferenceInteger(bigEndian: random.bytes(32)) % (ReferenceInteger.one << 255)) }
        for a in values {
            for b in values.prefix(12) {
                let x = Self.element(a), y = Self.element(b)
                #expect(Self.value(x * y) == a * b % Self.p)
                #expect(Self.value(x - y) == (a % Self.p + Self.p - b % Self.p) % Self.p)
                #expect(Self.value(x + y) == (a + b) % Self.p)
            }
            let x = Self.element(a)
            #expect(Self.value(x.squared()) == a * a % Self.p)
            #expect(Self.value(x.timesA24()) == a * ReferenceInteger(121_665) % Self.p)
            #expect(Self.value(x.inverted()) == (a % Self.p).power(Self.p - ReferenceInteger(2), modulo: Self.p))
        }
    }

    /// A small-order peer gives an all-zero secret, which is refused (RFC 8446 §7.4.2).
    @Test func smallOrderPeersAreRefused() throws {
        let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))
        for peer in ["0000000000000000000000000000000000000000000000000000000000000000",
                     "0100000000000000000000000000000000000000000000000000000000000000",
                     "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
                     "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"] {
            let publicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: TestHex.bytes(peer))
            #expect(throws: CryptoError.invalidKey) { try key.sharedSecretFromKeyAgreement(with: publicKey) }
        }
        #expect(throws: CryptoError.incorrectLength) { try Curve25519.KeyAgreement.PublicKey(rawRepresentation: [1, 2]) }
        #expect(throws: CryptoError.incorrectLength) { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [1, 2]) }
    }

    static func element(_ value: ReferenceInteger) -> Curve25519FieldElement {
        let bytes = Array(value.bigEndian(count: 32).reversed())
        return bytes.withUnsafeBytes { Curve25519FieldElement(littleEndianBytes: $0) }
    }

    static func value(_ element: Curve25519FieldElement) -> ReferenceInteger {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBytes { element.write(littleEndianTo: $0) }
        return ReferenceInteger(bigEndian: bytes.reversed())
    }
}
