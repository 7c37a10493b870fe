// The constant-time vocabulary: a `Choice` is a mask of all ones (true) or all zeros (false).
// Pattern after RustCrypto `subtle::Choice` and `crypto-bigint`'s `ConstChoice`.

/// An opaque zero that the optimizer cannot see through.
///
/// LLVM recognises `(a & m) | (b & ~m)` with a mask derived from a comparison and turns it into
/// a `select`, which the x86 back end may then lower to a *branch* (measured: the final
/// subtraction of a Montgomery product became `jb`/`jne`). Every `Choice` is therefore built
/// by XOR-ing its mask with this global: it is externally visible and mutable, so the compiler
/// cannot prove it is zero and must keep the mask arithmetic. It is never written.
/// A plain load (often hoisted out of loops) is the whole cost; there is no call:
/// `@exclusivity(unchecked)` drops the run-time exclusivity check (`swift_beginAccess`) that
/// every read from another module otherwise pays. That attribute changes only the access
/// bookkeeping, not the storage: the variable stays public, mutable and initialised at run
/// time from the compiler's point of view, so its value is still unknown to the optimiser.
@usableFromInline
@exclusivity(unchecked)
nonisolated(unsafe) package var constantTimeOpaqueZero: UInt64 = 0

/// A secret boolean held as a 64-bit mask: all ones for true, all zeros for false.
///
/// Combine choices with `&`, `|`, `^` and `!`; use them with `select(_:_:if:)`-style helpers.
/// Turning a `Choice` into a `Bool` reveals it and is spelled `isTrueVartime`.
@frozen
@usableFromInline
package struct Choice: Sendable {
    /// All ones when true, all zeros when false.
    @usableFromInline
    package let mask: UInt64

    /// Wraps a mask that is already laundered (internal use by the operators).
    @inlinable @inline(__always)
    init(launderedMask: UInt64) {
        self.mask = launderedMask
    }

    /// A choice from a mask that must be all ones or all zeros.
    @inlinable @inline(__always)
    package init(mask: UInt64) {
        self.mask = mask ^ constantTimeOpaqueZero
    }

    /// A choice from a bit that must be 0 or 1.
    @inlinable @inline(__always)
    package init(bit: UInt64) {
        self.init(mask: 0 &- bit)
    }

    /// A choice from a public `Bool`. The input is public; the result may be mixed with secrets.
    @inlinable @inline(__always)
    package init(_ value: Bool) {
        self.init(bit: value ? 1 : 0)
    }

    /// The constant true choice.
    @inlinable package static var `true`: Choice { Choice(mask: ~0) }
    /// The constant false choice.
    @inlinable package static var `false`: Choice { Choice(mask: 0) }

    /// Reveals the choice. Leaks: the one bit it holds (use only on values that may be public,
    /// such as the final result of a verification).
    @inlinable @inline(__always)
    package var isTrueVartime: Bool { mask != 0 }

    /// The choice as 0 or 1.
    @inlinable @inline(__always)
    package var bit: UInt64 { mask & 1 }

    @inlinable @inline(__always)
    package static func & (lhs: Choice, rhs: Choice) -> Choice { Choice(launderedMask: lhs.mask & rhs.mask) }

    @inlinable @inline(__always)
    package static func | (lhs: Choice, rhs: Choice) -> Choice { Choice(launderedMask: lhs.mask | rhs.mask) }

    @inlinable @inline(__always)
    package static func ^ (lhs: Choice, rhs: Choice) -> Choice { Choice(launderedMask: lhs.mask ^ rhs.mask) }

    @inlinable @inline(__always)
    package static prefix func ! (choice: Choice) -> Choice { Choice(launderedMask: ~choice.mask) }
}
