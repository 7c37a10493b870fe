// Rollback detection: the newest generation this store has written for each record name, kept
// in `<store>/.generations`, itself a sealed record (encrypted and authenticated under the
// store key like any other). A record whose authenticated generation is below its name's mark is
// an older copy put back (a restored backup, a file copied aside and back) and is refused.
//
// Plaintext, version 2: 0x02 ‖ epoch (8) ‖ flags (1; bit 0: anchored) ‖ count (4) ‖
// count × (name length (1) ‖ name ‖ generation (8)), integers big-endian. Version 1 (0x01 ‖ count
// ‖ entries) is read as not anchored, at the epoch of the sum of its marks, which grew with every
// change too, so an older version-1 copy is below it. The epoch grows with every change of the marks.
//
// The file is created when a store is first opened, before any record carries a generation;
// afterwards a missing file means it was deleted (to reset the marks) and every read is refused.
// Putting back an older copy of a record *together with* an older copy of this file (two files,
// or the whole directory) is consistent inside the directory: only state outside it can tell.
// When the key provider has such state (a `StoreRollbackAnchor`: a PKCS #11 token), the file's
// epoch is kept there too and an epoch below it is refused; the `anchored` flag says the store
// has had an anchor, so losing it later is refused too (RollbackAnchor.swift).

import CryptoPrimitives

/// The per-name high-water marks of one store.
struct Generations {
    static let recordName = ".generations"
    var marks: [String: UInt64] = [:]
    /// How many times the marks have changed; kept outside the directory by an anchor.
    var epoch: UInt64 = 0
    /// Whether the store has had its epoch anchored outside the directory.
    var anchored = false

    /// The marks on disk (empty when the file does not exist yet).
    static func load(in directory: String, format: RecordFormat) throws(SecureStoreError) -> Generations {
        guard let sealed = try FileSystem.read(recordName, in: directory) else {
            throw SecureStoreError(.rolledBack, "the generations file is missing (deleted after the store was created)",
                                   path: directory + "/" + recordName)
        }
        let plaintext = try format.open(sealed, name: recordName).plaintext
        return try plaintext.withUnsafeBytes { raw throws(SecureStoreError) in try decode(Array(raw)) }
    }

    /// The marks on disk, creating the (empty) file when a store opens without one (the caller
    /// holds the lock). A store that has none but holds records with generations lost it after
    /// the fact: refused as rolled back.
    static func loadCreating(in directory: String, format: RecordFormat) throws(SecureStoreError) -> Generations {
        guard try FileSystem.read(recordName, in: directory) == nil else { return try load(in: directory, format: format) }
        for name in try FileSystem.names(in: directory) where (try? SecureStore.check(name)) != nil {  // foreign files are not records
            // Only a record that authenticates is evidence of lost marks: a forged header must
            // not be able to refuse a store that never had a generations file.
            if let bytes = try FileSystem.read(name, in: directory), try format.authenticatedGeneration(of: bytes, name: name) ?? 0 > 0 {
                throw SecureStoreError(.rolledBack, "the generations file is missing but records carry generations",
                                       path: directory + "/" + recordName)
            }
        }
        let empty = Generations()
        try empty.save(in: directory, format: format)
        return empty
    }

    /// Replaces the file with these marks (atomically and durably; the caller holds the lock).
    func save(in directory: String, format: RecordFormat) throws(SecureStoreError) {
        var random = SystemRandomSource()
        let sealed = try format.seal(SecretBytes(encoded()), name: Self.recordName, generation: 0, using: &random)
        try FileSystem.replace(Self.recordName, in: directory, with: SecretBytes(sealed))
    }

    /// The mark of `name` (0 when none).
    func mark(of name: String) -> UInt64 { marks[name] ?? 0 }

    /// The marks with `name` at `generation` and the epoch advanced.
    func advancing(_ name: String, to generation: UInt64) throws(SecureStoreError) -> Generations {
        guard epoch < UInt64.max else { throw SecureStoreError(.corrupt, "the generations epoch is exhausted", path: Self.recordName) }
        var next = self
        next.marks[name] = generation
        next.epoch += 1
        return next
    }

    func encoded() -> [UInt8] {
        var out: [UInt8] = [2] + BigEndian.bytes(epoch) + [anchored ? 1 : 0] + BigEndian.bytes(UInt64(marks.count), count: 4)
        for (name, generation) in marks.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(name.utf8)
            out += [UInt8(truncatingIfNeeded: bytes.count)] + bytes + BigEndian.bytes(generation)
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) throws(SecureStoreError) -> Generations {
        let damaged = SecureStoreError(.corrupt, "the generations file is damaged", path: recordName)
        var result = Generations()
        var offset = 1
        switch bytes.first {
        case 1: break
        case 2:
            guard bytes.count >= 10, bytes[9] <= 1 else { throw damaged }
            result.epoch = BigEndian.value(bytes[1..<9])
            result.anchored = bytes[9] == 1
            offset = 10
        default: throw damaged
        }
        guard bytes.count >= offset + 4 else { throw damaged }
        let count = Int(BigEndian.value(bytes[offset..<(offset + 4)]))
        offset += 4
        for _ in 0..<count {
            guard offset < bytes.count else { throw damaged }
            let nameCount = Int(bytes[offset])
            guard nameCount > 0, bytes.count - offset - 1 >= nameCount + 8 else { throw damaged }
            let name = String(decoding: bytes[(offset + 1)..<(offset + 1 + nameCount)], as: UTF8.self)
            offset += 1 + nameCount
            result.marks[name] = BigEndian.value(bytes[offset..<(offset + 8)])
            offset += 8
        }
        guard offset == bytes.count else { throw damaged }
        if bytes[0] == 1 {
            result.epoch = result.marks.values.reduce(0) { sum, mark in
                let (total, overflow) = sum.addingReportingOverflow(mark)
                return overflow ? UInt64.max : total
            }
        }
        return result
    }
}
