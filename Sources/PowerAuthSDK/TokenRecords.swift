// The token store's persistent half (docs/protocols/powerauth.md §11; docs/protocols/sdk-surfaces.md §1.11): the named MAC
// tokens of one SDK instance in one secure-store record, `powerauth.<instance>.tokens`, read
// and replaced under the store's lock so that processes sharing the store do not lose each
// other's tokens. The record is a `RecordStore` record like every other client's: the names
// and ids in its JSON, the 16-byte secrets in its secret section (TokenList). A record of the
// earlier binary form (version 1, below) still reads and is replaced at the next change:
//
//   0x01 ‖ count:u16 ‖ count × (nameLength:u16 ‖ name ‖ idLength:u16 ‖ id ‖ secret:16)
//
// big-endian lengths, UTF-8 texts.

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
        if stored.withUnsafeBytes({ $0.first }) == 1 {
            return try stored.withUnsafeBytes { raw throws(PowerAuthSDKError) in
                var bytes = Array(raw)
                defer { SecretBytes.wipe(&bytes) }  // the plaintext copy holds every token secret
                return try Self.decodeVersion1(bytes)
            }
        }
        let list: TokenList
        do { list = try RecordStore<TokenList>.decode(stored, name: record.name) } catch {
            throw PowerAuthSDKError(.store, "the token record is not a token list", storeError: error)
        }
        return list.tokens
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
            let plaintext: SecretBytes
            do throws(SecureStoreError) { plaintext = try RecordStore<TokenList>.encode(TokenList(tokens), name: record.name) } catch {
                throw PowerAuthSDKError(.store, "the token record cannot be encoded", storeError: error)
            }
            try record.write(plaintext)
        }
    }

    /// Reads a record of the earlier binary form (the top of this file); anything else is a
    /// store error (never a silent reset).
    static func decodeVersion1(_ bytes: [UInt8]) throws(PowerAuthSDKError) -> [String: PowerAuth.Token] {
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

/// `powerauth.<instance>.tokens`, format 2: each token's name and id in the JSON, its secret in
/// the record's secret section under `token.<index>`.
struct TokenList: SealedRecordValue {
    private struct Entry: Codable {
        let name: String
        let id: String
    }

    private let format: Int
    private let entries: [Entry]
    private var secrets = RecordSecrets()

    private enum CodingKeys: String, CodingKey { case format, entries }

    /// The record of `tokens`, sorted by name.
    init(_ tokens: [String: PowerAuth.Token]) {
        format = 2
        let sorted = tokens.sorted { $0.key < $1.key }
        entries = sorted.map { Entry(name: $0.key, id: $0.value.id) }
        for (index, token) in sorted.map(\.value).enumerated() {
            secrets["token.\(index)"] = token.secret.withUnsafeBytes { raw in SecretBytes(count: raw.count) { $0.copyMemory(from: raw) } }
        }
    }

    /// The tokens by name.
    var tokens: [String: PowerAuth.Token] {
        var tokens: [String: PowerAuth.Token] = [:]
        for (index, entry) in entries.enumerated() {
            guard let secret = secrets["token.\(index)"] else { continue }   // unsealSecrets made sure there is one
            tokens[entry.name] = PowerAuth.Token(id: entry.id, secret: SymmetricKey(secret: secret))
        }
        return tokens
    }

    func sealSecrets(into secrets: inout RecordSecrets) {
        for name in self.secrets.names { secrets[name] = self.secrets[name] }
    }

    /// Every entry needs its 16-byte secret, and nothing else may be there.
    mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
        let expected = entries.indices.map { "token.\($0)" }
        guard format == 2, secrets.names.sorted() == expected.sorted(), expected.allSatisfy({ secrets[$0]?.count == 16 }),
              Set(entries.map(\.name)).count == entries.count else {
            throw SecureStoreError(.corrupt, "the token record's secrets do not match its tokens", path: "tokens")
        }
        self.secrets = secrets
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
