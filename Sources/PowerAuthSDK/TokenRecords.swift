// The token store's persistent half (docs/protocols/powerauth.md §11; docs/protocols/sdk-surfaces.md §1.11): the named MAC
// tokens of one SDK instance in one secure-store record, `powerauth.<instance>.tokens`, read
// and replaced under the store's lock so that processes sharing the store do not lose each
// other's tokens. The record is a small binary format of our own (no Foundation):
//
//   0x01 ‖ count:u16 ‖ count × (nameLength:u16 ‖ name ‖ idLength:u16 ‖ id ‖ secret:16)
//
// big-endian lengths, UTF-8 texts. The store encrypts and authenticates it at rest.

import CryptoPrimitives
public import PowerAuth
public import SecureStore

/// The named tokens of one instance, as stored. Not API (`PowerAuthClient`'s token verbs are):
/// SPI for tools and tests, as `ActivationStore` is.
@_spi(Internals) public struct TokenRecords: Sendable {
    /// `powerauth.<instance>.tokens`.
    private let record: InstanceRecord
    /// The secure store holding the record.
    public var store: SecureStore { record.store }
    /// The namespace of this instance's records.
    public var instanceID: String { record.instanceID }

    /// The tokens of `instanceID` in `store`.
    public init(store: SecureStore, instanceID: String) throws(SecureStoreError) {
        record = try InstanceRecord(checking: "tokens", of: instanceID, in: store)
    }

    /// Every stored token by name.
    public func all() throws(PowerAuthSDKError) -> [String: PowerAuth.Token] {
        guard let stored = try record.read() else { return [:] }
        return try stored.withUnsafeBytes { raw throws(PowerAuthSDKError) in
            var bytes = Array(raw)
            defer { SecretBytes.wipe(&bytes) }  // the plaintext copy holds every token secret
            return try Self.decode(bytes)
        }
    }

    /// The token called `name`, if stored.
    public func token(named name: String) throws(PowerAuthSDKError) -> PowerAuth.Token? { try all()[name] }

    /// Stores `token` as `name` (replacing one of that name); durable when this returns.
    public func save(_ token: PowerAuth.Token, as name: String) throws(PowerAuthSDKError) {
        try change { $0[name] = token }
    }

    /// Removes `name`; durable when this returns.
    public func remove(named name: String) throws(PowerAuthSDKError) {
        try change { $0[name] = nil }
    }

    /// Removes every token of the instance.
    public func removeAll() throws(PowerAuthSDKError) {
        try record.remove()
    }

    private func change(_ body: (inout [String: PowerAuth.Token]) -> Void) throws(PowerAuthSDKError) {
        try record.withExclusiveAccess { () throws(PowerAuthSDKError) in
            var tokens = try all()
            body(&tokens)
            var bytes = try Self.encode(tokens)
            defer { SecretBytes.wipe(&bytes) }
            try record.write(SecretBytes(bytes))
        }
    }

    static func encode(_ tokens: [String: PowerAuth.Token]) throws(PowerAuthSDKError) -> [UInt8] {
        guard tokens.count <= Int(UInt16.max) else { throw PowerAuthSDKError(.store, "too many tokens") }
        var out: [UInt8] = [1, UInt8(tokens.count >> 8), UInt8(tokens.count & 0xFF)]
        for (name, token) in tokens.sorted(by: { $0.key < $1.key }) {
            for text in [name, token.id] {
                let bytes = Array(text.utf8)
                guard bytes.count <= Int(UInt16.max) else { throw PowerAuthSDKError(.store, "a token name or id is too long") }
                out += [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
            }
            token.secret.withUnsafeBytes { out += $0 }
        }
        return out
    }

    /// Reads ``encode(_:)``; anything else is a store error (never a silent reset).
    static func decode(_ bytes: [UInt8]) throws(PowerAuthSDKError) -> [String: PowerAuth.Token] {
        var reader = ByteReader(bytes: bytes)
        guard reader.byte() == 1, let count = reader.length() else { throw PowerAuthSDKError(.store, "the token record is not version 1") }
        var tokens: [String: PowerAuth.Token] = [:]
        for _ in 0..<count {
            guard let nameLength = reader.length(), let name = reader.take(nameLength), let idLength = reader.length(),
                  let id = reader.take(idLength), var secret = reader.take(16) else {
                throw PowerAuthSDKError(.store, "the token record is cut short")
            }
            defer { SecretBytes.wipe(&secret) }
            tokens[String(decoding: name, as: UTF8.self)] = PowerAuth.Token(id: String(decoding: id, as: UTF8.self), secret: SymmetricKey(data: secret))
        }
        guard reader.isAtEnd else { throw PowerAuthSDKError(.store, "the token record has trailing bytes") }
        return tokens
    }
}

/// Bounds-checked reading of a byte array.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func byte() -> UInt8? { take(1)?.first }

    mutating func length() -> Int? {
        guard let pair = take(2) else { return nil }
        return Int(pair[0]) << 8 | Int(pair[1])
    }
}
