// The optional external encryption key (EEK, docs/protocols/powerauth.md §4.2): a second AES-CBC-NoPadding,
// zero-IV layer over the locked knowledge and biometry keys, applied after the factor's own
// lock. The EEK is the app's own secret (for example from a server or a hardware token); with
// it, the stored activation alone no longer unlocks those factors even with the password.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth.KeyLocking {
    /// `locked` under `externalKey` as one more layer; unchanged without one.
    static func addExternalLayer(_ locked: [UInt8], externalKey: SymmetricKey?) throws(ProtocolError) -> [UInt8] {
        guard let externalKey else { return locked }
        return try lock(SymmetricKey(data: locked), with: externalKey)
    }

    /// `locked` with the external layer removed; unchanged without one.
    static func removeExternalLayer(_ locked: [UInt8], externalKey: SymmetricKey?) throws(ProtocolError) -> [UInt8] {
        guard let externalKey else { return locked }
        return try unlock(locked, with: externalKey).withUnsafeBytes { Array($0) }
    }
}

extension PowerAuth.ActivationData {
    /// `externalKey` when it agrees with ``usesExternalEncryptionKey``; otherwise
    /// ``ProtocolError/Code/invalidArgument`` (a missing EEK, or one this activation does not use).
    func externalLayerKey(_ externalKey: SymmetricKey?) throws(ProtocolError) -> SymmetricKey? {
        guard usesExternalEncryptionKey == (externalKey != nil) else {
            throw ProtocolError(.invalidArgument, usesExternalEncryptionKey ? "this activation needs its external encryption key"
                                                                            : "this activation uses no external encryption key")
        }
        return externalKey
    }

    /// The knowledge key's stored form without the external layer.
    func lockedKnowledgeKey(externalKey: SymmetricKey?) throws(ProtocolError) -> [UInt8] {
        try PowerAuth.KeyLocking.removeExternalLayer(lockedKnowledgeKey, externalKey: try externalLayerKey(externalKey))
    }

    /// Adds the external layer to the knowledge and biometry keys (§4.2). The password is not
    /// needed: the layer goes over the keys as stored. A wrong EEK later gives wrong keys,
    /// silently, exactly like a wrong password.
    public func addingExternalEncryptionKey(_ externalKey: SymmetricKey) throws(ProtocolError) -> PowerAuth.ActivationData {
        guard !usesExternalEncryptionKey else { throw ProtocolError(.invalidArgument, "an external encryption key is already in use") }
        return try mappingLayeredKeys(usesExternalEncryptionKey: true) { (locked) throws(ProtocolError) in
            try PowerAuth.KeyLocking.addExternalLayer(locked, externalKey: externalKey)
        }
    }

    /// Removes the external layer again (§4.2).
    public func removingExternalEncryptionKey(_ externalKey: SymmetricKey) throws(ProtocolError) -> PowerAuth.ActivationData {
        let key = try externalLayerKey(externalKey)
        return try mappingLayeredKeys(usesExternalEncryptionKey: false) { (locked) throws(ProtocolError) in
            try PowerAuth.KeyLocking.removeExternalLayer(locked, externalKey: key)
        }
    }

    /// A copy with `transform` applied to the stored knowledge and biometry keys.
    private func mappingLayeredKeys(usesExternalEncryptionKey flag: Bool,
                                    _ transform: ([UInt8]) throws(ProtocolError) -> [UInt8]) throws(ProtocolError) -> PowerAuth.ActivationData {
        var copy = self
        copy.lockedKnowledgeKey = try transform(lockedKnowledgeKey)
        copy.lockedBiometryKey = try lockedBiometryKey.map(transform)
        copy.usesExternalEncryptionKey = flag
        return copy
    }
}
