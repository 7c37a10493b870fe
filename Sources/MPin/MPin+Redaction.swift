// The secrets' empty mirrors, so `dump` shows none of their bytes. Compiled only outside
// Embedded Swift, which has no reflection to redact (docs/static-and-embedded.md).

#if !hasFeature(Embedded)
extension MPinSecretPoint {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension MPin.ClientSecretShare: CustomReflectable {}
extension MPin.ClientSecret: CustomReflectable {}
extension MPin.Token: CustomReflectable {}
extension MPin.TimePermit: CustomReflectable {}
extension MPin.AuthenticationSecret: CustomReflectable {}

extension MPin.MasterSecretShare: CustomReflectable {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension MPin.ServerSecret: CustomReflectable {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension MPin.PIN: CustomReflectable {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension MPin.DVS.PrivateKey: CustomReflectable {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
#endif
