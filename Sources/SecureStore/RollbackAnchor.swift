// State outside the store directory that only grows, so that putting back an older copy of the
// whole directory (records and generations file together, which agree with each other) is
// refused: the generations file's epoch is kept in the anchor too, and a store whose epoch is
// below its anchor's was restored from an older copy.
//
// Order, so that a crash at any point leaves a store that opens: a write makes the record
// durable, then the generations file (epoch e + 1), then advances the anchor to e + 1. A crash
// before the last step leaves the anchor one behind the file, which opens and catches the anchor
// up; the file cannot be forged ahead, because it is sealed under the store key.

/// A counter kept outside the store's directory, by the store's key provider, that never goes
/// back: a PKCS #11 token's data object (``StoreKeyProvider/rollbackAnchor(directory:)``). One
/// anchor belongs to one store: two stores sharing it would refuse each other.
///
/// A store opened with an anchor refuses (``SecureStoreError/Kind/rolledBack``) a directory
/// whose generations epoch is below the anchor's, and one that was anchored before when the
/// anchor has since disappeared; it advances the anchor after every write and removal, and
/// refuses to go on when the anchor is already ahead (the directory was put back while open).
public protocol StoreRollbackAnchor: Sendable {
    /// The epoch anchored for the store at `directory`, or nil when there is none yet.
    func anchoredEpoch(directory: String) throws(SecureStoreError) -> UInt64?

    /// Records `epoch` for the store at `directory` and returns the epoch anchored before (nil
    /// when there was none). An epoch at or below that one leaves the anchor as it is: it never
    /// goes back. Throws ``SecureStoreError/Kind/anchorUnsupported`` when the state outside
    /// cannot hold an epoch at all (a token that refuses the object).
    @discardableResult
    func advanceAnchor(to epoch: UInt64, directory: String) throws(SecureStoreError) -> UInt64?
}

extension StoreKeyProvider {
    /// No anchor: a provider whose key lives beside the records has no state outside them.
    public func rollbackAnchor(directory: String) throws(SecureStoreError) -> (any StoreRollbackAnchor)? { nil }
}

extension Generations {
    /// Checks the directory against `anchor` when a store opens, under the store's lock (making
    /// the generations file of a new store first), and returns the anchor the store keeps using: an epoch below the anchor's, or an anchored
    /// store whose anchor is gone, is refused; an anchor behind the file (a crash between the
    /// two) is caught up; a store never anchored before (new, or made before anchors existed) is
    /// anchored at its current epoch, or opens without one (nil) when the anchor cannot hold an
    /// epoch (``SecureStoreError/Kind/anchorUnsupported``). Without an anchor, a store that was
    /// anchored is refused: opening it so would drop the protection.
    static func reconcile(with anchor: (any StoreRollbackAnchor)?, in directory: String,
                          format: RecordFormat) throws(SecureStoreError) -> (any StoreRollbackAnchor)? {
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) -> (any StoreRollbackAnchor)? in
            var marks = try loadCreating(in: directory, format: format)
            guard let anchor else {
                guard !marks.anchored else {
                    throw SecureStoreError(.keyUnavailable, "the store keeps its epoch in its key provider's token, and this provider keeps none: open it with anchoring (x-swiftmfa-anchor=automatic or on)",
                                           path: directory + "/" + recordName)
                }
                return nil
            }
            let anchored = try anchor.anchoredEpoch(directory: directory)
            if let anchored, anchored > marks.epoch {
                let reason = marks.epoch == 0 && marks.marks.isEmpty && !marks.anchored
                    ? "this new store's anchor is already at \(anchored): the anchor (its store identifier) belongs to another store"
                    : "the store is at epoch \(marks.epoch) but its key provider's anchor is at \(anchored): the directory was put back from an older copy"
                throw SecureStoreError(.rolledBack, reason, path: directory + "/" + recordName)
            }
            if anchored == nil, marks.anchored {
                throw SecureStoreError(.rolledBack, "the store was anchored to its key provider's counter, which is gone: it was deleted, or this is another token",
                                       path: directory + "/" + recordName)
            }
            // The anchor first, the flag second: a crash between them leaves an anchored
            // epoch equal to the file's and no flag, which opens and sets the flag.
            do throws(SecureStoreError) {
                if anchored != marks.epoch { try anchor.advanceAnchor(to: marks.epoch, directory: directory) }
            } catch where error.kind == .anchorUnsupported && anchored == nil && !marks.anchored {
                return nil  // "where there is one": this token keeps none, and this store never had one
            }
            if !marks.anchored {
                marks.anchored = true
                try marks.save(in: directory, format: format)
            }
            return anchor
        }
    }
}
