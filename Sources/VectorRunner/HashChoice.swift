// Choosing a hash function by name, so that checkers can be written once for all of them.

import CryptoPrimitives

/// The hash functions the vectors name.
enum HashChoice: String, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512

    /// From a name as vector files spell it: `SHA-256`, `SHA256`, `sha256`, `SHA1`, …
    init?(name: String) {
        let compact = name.lowercased().filter { $0 != "-" && $0 != "_" }
        guard let choice = HashChoice(rawValue: compact) else { return nil }
        self = choice
    }

    /// From a digest length in bytes (CAVP's `[L = …]`).
    init?(digestLength: Int) {
        switch digestLength {
        case 20: self = .sha1
        case 28: self = .sha224
        case 32: self = .sha256
        case 48: self = .sha384
        case 64: self = .sha512
        default: return nil
        }
    }

    /// The engine's run-time hash value.
    var algorithm: HashAlgorithm {
        switch self {
        case .sha1: .insecureSHA1
        case .sha224: .sha224
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// Calls `body` with the hash function's type.
    func with<R>(_ body: (any HashFunction.Type) -> R) -> R {
        switch self {
        case .sha1: body(Insecure.SHA1.self)
        case .sha224: body(SHA224.self)
        case .sha256: body(SHA256.self)
        case .sha384: body(SHA384.self)
        case .sha512: body(SHA512.self)
        }
    }

    func hash(_ data: [UInt8]) -> [UInt8] {
        with { open($0, data) }
    }

    func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        with { openHMAC($0, key, data) }
    }

    func isValidHMAC(_ tag: [UInt8], key: [UInt8], data: [UInt8]) -> Bool {
        with { openVerify($0, tag, key, data) }
    }

    func pbkdf2(password: [UInt8], salt: [UInt8], rounds: Int, length: Int) throws(CryptoError) -> [UInt8] {
        let result: Result<[UInt8], CryptoError> = with { openPBKDF2($0, password, salt, rounds, length) }
        return try result.get()
    }

    func hkdf(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        let result: Result<[UInt8], CryptoError> = with { openHKDF($0, ikm, salt, info, length) }
        return try result.get()
    }

    func x963(secret: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        let result: Result<[UInt8], CryptoError> = with { openX963($0, secret, info, length) }
        return try result.get()
    }
}

private func open<H: HashFunction>(_: H.Type, _ data: [UInt8]) -> [UInt8] {
    H.hash(data: data).bytes
}

private func openHMAC<H: HashFunction>(_: H.Type, _ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
    HMAC<H>.authenticationCode(for: data, using: SymmetricKey(data: key)).bytes
}

private func openVerify<H: HashFunction>(_: H.Type, _ tag: [UInt8], _ key: [UInt8], _ data: [UInt8]) -> Bool {
    // Wycheproof's HMAC groups include truncated tags (tagSize < the digest): the truncated check
    // decides those, the full-length one the rest.
    tag.count == H.byteCount
        ? HMAC<H>.isValidAuthenticationCode(tag, authenticating: data, using: SymmetricKey(data: key))
        : HMAC<H>.isValidTruncatedAuthenticationCode(tag, authenticating: data, using: SymmetricKey(data: key))
}

private func openPBKDF2<H: HashFunction>(_: H.Type, _ password: [UInt8], _ salt: [UInt8], _ rounds: Int, _ length: Int) -> Result<[UInt8], CryptoError> {
    Result { () throws(CryptoError) in
        try PBKDF2<H>.deriveKey(from: password, salt: salt, rounds: rounds, outputByteCount: length).secret.unsafeExposedBytes
    }
}

private func openHKDF<H: HashFunction>(_: H.Type, _ ikm: [UInt8], _ salt: [UInt8], _ info: [UInt8], _ length: Int) -> Result<[UInt8], CryptoError> {
    Result { () throws(CryptoError) in
        try HKDF<H>.deriveKey(inputKeyMaterial: SymmetricKey(data: ikm), salt: salt, info: info, outputByteCount: length).secret.unsafeExposedBytes
    }
}

private func openX963<H: HashFunction>(_: H.Type, _ secret: [UInt8], _ info: [UInt8], _ length: Int) -> Result<[UInt8], CryptoError> {
    Result { () throws(CryptoError) in
        try X963KDF<H>.deriveKey(sharedSecret: secret, sharedInfo: info, outputByteCount: length).secret.unsafeExposedBytes
    }
}
