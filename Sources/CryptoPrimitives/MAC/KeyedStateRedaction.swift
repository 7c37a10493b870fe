// Redaction of the public types that hold key-derived state (docs/design.md §2, habit 3 and 18):
// Swift's default `print` and `dump` show stored properties, which for these are the keyed
// hash states or the expanded AES key schedule.

import CryptoCore

extension HMAC: CustomStringConvertible, CustomDebugStringConvertible {
    /// `HMAC(redacted)`: the inner and outer states are functions of the key. (No type name:
    /// that would need runtime reflection, which Embedded Swift does not have.)
    public var description: String { "HMAC(redacted)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension AES.UnauthenticatedCTR.Stream: CustomStringConvertible, CustomDebugStringConvertible {
    /// `AES.UnauthenticatedCTR.Stream(redacted)`: the key schedule and buffered keystream are secret.
    public var description: String { "AES.UnauthenticatedCTR.Stream(redacted)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension P256.PrivateKey: CustomDebugStringConvertible {
    /// The same as ``description``.
    public var debugDescription: String { description }
}

#if !hasFeature(Embedded)
extension HMAC: CustomReflectable {
    /// A mirror with no children, so `dump` shows no keyed state.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension AES.UnauthenticatedCTR.Stream: CustomReflectable {
    /// A mirror with no children, so `dump` shows no key schedule or keystream.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension P256.PrivateKey: CustomReflectable {
    /// A mirror with no children, so `dump` shows nothing of the key.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
#endif
