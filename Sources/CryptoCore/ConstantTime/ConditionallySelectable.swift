// The one constant-time table lookup (docs/design.md §2, habit 4), on a small protocol shaped like
// RustCrypto `subtle`'s `ConditionallySelectable`: every table of points or field elements the
// engine reads with a secret index goes through `ConstantTime.lookup`, which scans every entry.

/// A type whose values can be chosen between by a ``Choice`` without branching, so that a
/// table of them can be read at a secret index.
@usableFromInline
package protocol ConditionallySelectable {
    /// `a` if `choice` is true, else `b`, without branching on `choice`.
    static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self
}

extension UInt64: ConditionallySelectable {}
extension UInt8: ConditionallySelectable {}

extension ConstantTime {
    /// `table[index]`, reading every entry so that neither the memory access pattern nor the
    /// time depends on `index`. An index outside the table returns `table[0]` (callers whose
    /// digit 0 means "nothing" mask the result away themselves).
    @inlinable @inline(__always)
    package static func lookup<let count: Int, Element: ConditionallySelectable>(
        _ table: borrowing InlineArray<count, Element>, at index: UInt64
    ) -> Element {
        var result = table[0]
        for i in 1..<count {
            result = Element.select(table[i], result, if: UInt64(i).isEqual(to: index))
        }
        return result
    }

    /// Entry `index` of a table of `count` entries that are produced by `entry` (for tables
    /// stored in another layout, such as generated limb arrays), reading every entry. An index
    /// outside `0..<count` returns `entry(0)`.
    @inlinable @inline(__always)
    package static func lookup<Element: ConditionallySelectable>(
        count: Int, at index: UInt64, entry: (Int) -> Element
    ) -> Element {
        var result = entry(0)
        for i in 1..<count {
            result = Element.select(entry(i), result, if: UInt64(i).isEqual(to: index))
        }
        return result
    }
}

extension FixedUInt: ConditionallySelectable {}
extension MontgomeryResidue: ConditionallySelectable {}
