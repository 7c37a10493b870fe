// Shared pieces of the RSA checkers: keys from vector fields, signing and verifying a digest
// named at run time, and a random source that replays a recorded seed.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum RSACheck {
    /// `bytes` with zeros in front up to `count` (unchanged when already as long).
    static func leftPadded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: max(0, count - bytes.count)) + bytes
    }

    /// Verifies a signature over an already computed digest of the named hash.
    static func verify(_ key: RSA.Signing.PublicKey, _ signature: [UInt8], digest: [UInt8], hash: HashChoice,
                       padding: RSA.Signing.Padding) -> Bool {
        switch hash {
        case .sha1: key.isValidSignature(.init(rawRepresentation: signature), for: Digests.digest(Insecure.SHA1.self, digest), padding: padding)
        case .sha224: key.isValidSignature(.init(rawRepresentation: signature), for: Digests.digest(SHA224.self, digest), padding: padding)
        case .sha256: key.isValidSignature(.init(rawRepresentation: signature), for: Digests.digest(SHA256.self, digest), padding: padding)
        case .sha384: key.isValidSignature(.init(rawRepresentation: signature), for: Digests.digest(SHA384.self, digest), padding: padding)
        case .sha512: key.isValidSignature(.init(rawRepresentation: signature), for: Digests.digest(SHA512.self, digest), padding: padding)
        }
    }

    /// A deterministic PKCS #1 v1.5 signature through the public API (SHA-1 is refused there).
    static func signPKCS1(_ key: RSA.Signing.PrivateKey, message: [UInt8], hash: HashChoice) -> [UInt8]? {
        var random = SeededRandomSource(seed: 0)  // unused by PKCS #1 v1.5
        switch hash {
        case .sha1: return nil
        case .sha224: return try? key.signature(for: SHA224.hash(data: message), padding: .pkcs1v1_5, using: &random).rawRepresentation
        case .sha256: return try? key.signature(for: SHA256.hash(data: message), padding: .pkcs1v1_5, using: &random).rawRepresentation
        case .sha384: return try? key.signature(for: SHA384.hash(data: message), padding: .pkcs1v1_5, using: &random).rawRepresentation
        case .sha512: return try? key.signature(for: SHA512.hash(data: message), padding: .pkcs1v1_5, using: &random).rawRepresentation
        }
    }

    /// A PKCS #1 v1.5 signature by the raw private operation, for hashes the API refuses to
    /// sign with (legacy SHA-1 known answers).
    static func signPKCS1Raw(_ key: RSA.Signing.PrivateKey, digest: [UInt8], hash: HashChoice) -> [UInt8]? {
        guard let em = try? RSASignaturePadding.pkcs1Encode(digest: digest, hash: hash.algorithm, emLength: key.publicKey.byteCount) else { return nil }
        return key.privateOperation(em)
    }
}

/// Turns digest bytes back into a typed digest for the digest-taking APIs.
enum Digests {
    static func digest<H: HashFunction>(_: H.Type, _ bytes: [UInt8]) -> HashDigest<H> {
        HashDigest<H>(replaying: bytes)
    }
}

/// A random source that returns recorded bytes, then zeros: it replays the OAEP seed or the
/// PKCS #1 v1.5 padding of a known-answer vector through the public encryption API.
struct ReplayRandomSource: RandomSource {
    var bytes: [UInt8]

    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        for i in 0..<buffer.count {
            buffer[i] = bytes.isEmpty ? 0 : bytes.removeFirst()
        }
    }
}
