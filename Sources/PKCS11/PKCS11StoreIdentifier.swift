// Every store keyed in a token gets its own random identifier, made when the store chooses the
// token and kept in its provider setting as the vendor query attribute `x-swiftmfa-store`
// (RFC 7512 §2.3 leaves `x-` names to vendors). Both token derivations bind it, so two stores on
// one token have different store keys and different possession keys, and a store given another
// store's identifier opens none of that store's records.

import CryptoPrimitives

/// The 16 random bytes that tell one token-keyed store from another.
public struct PKCS11StoreIdentifier: Sendable, Equatable, CustomStringConvertible {
    /// The query attribute that carries the identifier in a store's provider URI.
    public static let attributeName = "x-swiftmfa-store"
    /// The identifier's length in bytes.
    public static let byteCount = 16

    /// The identifier (public: it names a store, it opens nothing without the token).
    public let bytes: [UInt8]

    /// Wraps 16 bytes; throws ``PKCS11Error/Kind/invalidURI`` for another length.
    public init(bytes: [UInt8]) throws(PKCS11Error) {
        guard bytes.count == Self.byteCount else {
            throw PKCS11Error(.invalidURI, "\(Self.attributeName) is \(Self.byteCount) bytes (\(2 * Self.byteCount) hex digits)")
        }
        self.bytes = bytes
    }

    /// Parses 32 hex digits; throws ``PKCS11Error/Kind/invalidURI`` for anything else.
    public init(text: String) throws(PKCS11Error) {
        let decoded: [UInt8]
        do { decoded = try Hex.decode(text) } catch {
            throw PKCS11Error(.invalidURI, "\(Self.attributeName) is \(2 * Self.byteCount) hex digits")
        }
        try self.init(bytes: decoded)
    }

    /// A fresh identifier from the system's random source.
    public static func random() throws(PKCS11Error) -> PKCS11StoreIdentifier {
        var random = SystemRandomSource()
        do { return try PKCS11StoreIdentifier(bytes: try random.bytes(count: byteCount)) } catch {
            throw PKCS11Error(.invalidArgument, "the random source failed")
        }
    }

    /// 32 lower-case hex digits.
    public var text: String { Hex.encode(bytes) }

    /// ``text``.
    public var description: String { text }
}

extension PKCS11URI {
    /// The store identifier the URI carries (`x-swiftmfa-store`), nil when it has none. Throws
    /// ``PKCS11Error/Kind/invalidURI`` for a value that is not 32 hex digits.
    public func storeIdentifier() throws(PKCS11Error) -> PKCS11StoreIdentifier? {
        guard let attribute = query.first(where: { $0.name == PKCS11StoreIdentifier.attributeName }) else { return nil }
        return try PKCS11StoreIdentifier(text: String(decoding: attribute.value, as: UTF8.self))
    }

    /// The URI with `identifier` as its store identifier (replacing any).
    public func settingStoreIdentifier(_ identifier: PKCS11StoreIdentifier) throws(PKCS11Error) -> PKCS11URI {
        try PKCS11URI(path: path, query: withoutStoreIdentifier.query + [Attribute(name: PKCS11StoreIdentifier.attributeName, text: identifier.text)])
    }

    /// The URI without a store identifier: the token and key it names, whichever store uses them.
    public var withoutStoreIdentifier: PKCS11URI {
        do { return try PKCS11URI(path: path, query: query.filter { $0.name != PKCS11StoreIdentifier.attributeName }) } catch {
            return self  // dropping an attribute keeps a valid URI valid
        }
    }
}
