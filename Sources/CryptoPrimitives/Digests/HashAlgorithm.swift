// Hash functions as values, for the places that choose one at run time (RSA paddings, MGF1).

import CryptoCore

/// A hash function chosen at run time.
public enum HashAlgorithm: Sendable, Equatable, CaseIterable {
    /// SHA-1: for verifying legacy signatures and inside OAEP/MGF1 only.
    case insecureSHA1
    /// SHA-224.
    case sha224
    /// SHA-256.
    case sha256
    /// SHA-384.
    case sha384
    /// SHA-512.
    case sha512

    /// The digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .insecureSHA1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `data`.
    public func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        switch self {
        case .insecureSHA1: Insecure.SHA1.hash(data: data).bytes
        case .sha224: SHA224.hash(data: data).bytes
        case .sha256: SHA256.hash(data: data).bytes
        case .sha384: SHA384.hash(data: data).bytes
        case .sha512: SHA512.hash(data: data).bytes
        }
    }

    /// The algorithm identifier (RFC 8017 Appendix B.1).
    var objectIdentifier: DER.ObjectIdentifier {
        switch self {
        case .insecureSHA1: .sha1
        case .sha224: DER.ObjectIdentifier([2, 16, 840, 1, 101, 3, 4, 2, 4])
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// MGF1 (RFC 8017 Appendix B.2.1): `Hash(seed ‖ counter)` for counter = 0, 1, …, truncated.
    func mgf1(seed: some Collection<UInt8>, length: Int) -> [UInt8] {
        let seed = Array(seed)
        var mask: [UInt8] = []
        mask.reserveCapacity(length + byteCount)
        var counter: UInt32 = 0
        while mask.count < length {
            mask += hash(seed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) })
            counter += 1
        }
        return Array(mask.prefix(length))
    }
}

extension SHA256 {
    /// `.sha256`.
    public static var algorithm: HashAlgorithm { .sha256 }
}

extension SHA224 {
    /// `.sha224`.
    public static var algorithm: HashAlgorithm { .sha224 }
}

extension SHA384 {
    /// `.sha384`.
    public static var algorithm: HashAlgorithm { .sha384 }
}

extension SHA512 {
    /// `.sha512`.
    public static var algorithm: HashAlgorithm { .sha512 }
}

extension Insecure.SHA1 {
    /// `.insecureSHA1`.
    public static var algorithm: HashAlgorithm { .insecureSHA1 }
}
