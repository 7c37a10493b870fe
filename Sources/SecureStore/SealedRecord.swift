// Records whose secrets never pass through JSON (docs/design.md §1, layer 3 "State": secrets wiped).
// JSONEncoder and JSONDecoder make `String` copies of every field that the program cannot wipe,
// so a record type that holds secrets keeps them as `SecretBytes`, excluded from its `Codable`
// form, and hands them to ``RecordStore`` beside the JSON. The plaintext of such a record is
//
//     JSON length (4 bytes, big-endian, below 2^24) ‖ JSON ‖ entries
//     entry = name length (1 byte, 1…255) ‖ name (UTF-8) ‖ value length (4 bytes, big-endian) ‖ value
//
// and the values are copied straight from the decrypted, wiped buffer into `SecretBytes`. The
// first byte of this form is always 0, which no JSON text starts with, so a record written
// before (secrets inside the JSON) is told apart and still reads; its next write is in this form.

public import CryptoPrimitives

/// The secret fields of one record, by name, kept out of its JSON.
///
/// A name is public (1 to 255 bytes of UTF-8); a value is `SecretBytes` and is never copied
/// into a `String` or an array on its way to or from the store.
public struct RecordSecrets: Sendable {
    /// The entries, in the order they were first set.
    private var entries: [(name: String, value: SecretBytes)] = []

    /// No secrets.
    public init() {}

    /// The names present, in the order they were first set.
    public var names: [String] { entries.map(\.name) }

    /// The secret called `name`; setting nil removes it.
    public subscript(name: String) -> SecretBytes? {
        get { entries.first { $0.name == name }?.value }
        set {
            let index = entries.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((name, value))
            case (nil, nil): break
            }
        }
    }
}

/// A `Codable` record that keeps some fields as `SecretBytes` outside its JSON.
///
/// Exclude the secret fields from `Codable` (leave them out of `CodingKeys`), hand them over in
/// ``sealSecrets(into:)`` and take them back in ``unsealSecrets(from:)``. ``RecordStore`` then
/// stores them in the binary section of the record. A record written before its secrets left
/// the JSON is unsealed with no secrets: decode the old text fields (optional properties keyed
/// by the old names, never encoded once nil) and move them into the secret fields there.
public protocol SealedRecordValue: Codable {
    /// Puts every secret field that is set into `secrets`.
    func sealSecrets(into secrets: inout RecordSecrets)
    /// Takes the secret fields from `secrets` (empty for a record of the old all-JSON form).
    /// Throw ``SecureStoreError/Kind/corrupt`` for a secret that cannot be used.
    mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError)
}

/// The byte layout of a sealed record (see the top of this file).
enum SealedRecordFormat {
    /// The JSON of a sealed record is shorter than this, so the first byte is 0.
    static let jsonLimit = 1 << 24

    /// JSON length ‖ `json` ‖ the entries of `secrets`, written in place into wiped storage.
    static func encode(json: UnsafeRawBufferPointer, secrets: RecordSecrets, name: String) throws(SecureStoreError) -> SecretBytes {
        guard json.count < jsonLimit else { throw SecureStoreError(.corrupt, "the record's JSON is too large", path: name) }
        var total = 4 + json.count
        for secretName in secrets.names {
            let nameCount = secretName.utf8.count
            let valueCount = secrets[secretName]?.count ?? 0
            guard (1...255).contains(nameCount), valueCount <= Int(UInt32.max) else {
                throw SecureStoreError(.corrupt, "the secret \(secretName) cannot be stored", path: name)
            }
            total += 1 + nameCount + 4 + valueCount
        }
        return SecretBytes(count: total) { out in
            var offset = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                if bytes.count > 0 { UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + bytes.count]).copyMemory(from: bytes) }
                offset += bytes.count
            }
            func putLength(_ length: Int) {
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: length).bigEndian) { put($0) }
            }
            putLength(json.count)
            put(json)
            for secretName in secrets.names {
                let value = secrets[secretName] ?? SecretBytes(zeros: 0)
                let nameBytes = Array(secretName.utf8)   // a name is public
                withUnsafeBytes(of: UInt8(truncatingIfNeeded: nameBytes.count)) { put($0) }
                nameBytes.withUnsafeBytes { put($0) }
                putLength(value.count)
                value.withUnsafeBytes { put($0) }
            }
        }
    }

    /// The JSON bytes and the secrets of `plaintext`; nil when it is a record of the old
    /// all-JSON form. Bounds are checked before every read: a malformed record is
    /// ``SecureStoreError/Kind/corrupt``, never a trap.
    static func decode(_ plaintext: UnsafeRawBufferPointer, name: String) throws(SecureStoreError) -> (json: Range<Int>, secrets: RecordSecrets)? {
        guard let first = plaintext.first, first == 0 else { return nil }
        let corrupt = SecureStoreError(.corrupt, "the record's secret section is malformed", path: name)
        func length(at offset: Int) throws(SecureStoreError) -> Int {
            guard plaintext.count - offset >= 4 else { throw corrupt }
            return plaintext[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let jsonCount = try length(at: 0)
        guard plaintext.count - 4 >= jsonCount else { throw corrupt }
        var secrets = RecordSecrets()
        var offset = 4 + jsonCount
        while offset < plaintext.count {
            let nameCount = Int(plaintext[offset])
            offset += 1
            guard nameCount > 0, plaintext.count - offset >= nameCount else { throw corrupt }
            let secretName = String(decoding: plaintext[offset..<offset + nameCount], as: UTF8.self)
            offset += nameCount
            let valueCount = try length(at: offset)
            offset += 4
            guard plaintext.count - offset >= valueCount, secrets[secretName] == nil else { throw corrupt }
            let source = UnsafeRawBufferPointer(rebasing: plaintext[offset..<offset + valueCount])
            secrets[secretName] = SecretBytes(count: valueCount) { $0.copyMemory(from: source) }
            offset += valueCount
        }
        return (4..<4 + jsonCount, secrets)
    }
}

extension SealedRecordValue {
    /// `self` with the secrets of `secrets` moved in (opens an existential in ``RecordStore``).
    func unsealed(from secrets: RecordSecrets) throws(SecureStoreError) -> Self {
        var value = self
        try value.unsealSecrets(from: secrets)
        return value
    }
}
