// PKCS #11 URIs (RFC 7512): `pkcs11:` path attributes separated by `;` that name a library,
// slot, token and object, then `?` and query attributes separated by `&` that say how to reach
// it (module-path, module-name, pin-source, pin-value). Values are percent-decoded to bytes;
// attribute order is kept so a URI prints back as it was written.

/// A parsed PKCS #11 URI (RFC 7512).
///
/// ```swift
/// let uri = try PKCS11URI("pkcs11:token=SwiftMFA;object=store-key?module-path=/usr/lib/softhsm/libsofthsm2.so")
/// uri.token        // "SwiftMFA"
/// uri.modulePath   // "/usr/lib/softhsm/libsofthsm2.so"
/// ```
public struct PKCS11URI: Sendable, Equatable, CustomStringConvertible {
    /// One `name=value` attribute, its value percent-decoded.
    public struct Attribute: Sendable, Equatable {
        /// The attribute name (`token`, `id`, `module-path`, or a vendor's).
        public let name: String
        /// The decoded value bytes (UTF-8 for every textual attribute; raw bytes for `id`).
        public let value: [UInt8]

        /// An attribute.
        public init(name: String, value: [UInt8]) {
            self.name = name
            self.value = value
        }

        /// A textual attribute.
        public init(name: String, text: String) {
            self.init(name: name, value: Array(text.utf8))
        }
    }

    /// The object classes of the `type` attribute (RFC 7512 §2.3).
    public enum ObjectType: String, Sendable, CaseIterable {
        /// `CKO_PUBLIC_KEY`.
        case publicKey = "public"
        /// `CKO_PRIVATE_KEY`.
        case privateKey = "private"
        /// `CKO_CERTIFICATE`.
        case certificate = "cert"
        /// `CKO_SECRET_KEY`.
        case secretKey = "secret-key"
        /// `CKO_DATA`.
        case data

        /// The `CKO_` class.
        public var objectClass: PKCS11ObjectClass {
            switch self {
            case .publicKey: .publicKey
            case .privateKey: .privateKey
            case .certificate: .certificate
            case .secretKey: .secretKey
            case .data: .data
            }
        }
    }

    /// The path attributes, in order.
    public let path: [Attribute]
    /// The query attributes, in order.
    public let query: [Attribute]

    /// The standard path attributes (RFC 7512 §2.3); each may appear at most once.
    static let standardPathNames: Set<String> = [
        "id", "library-description", "library-manufacturer", "library-version", "manufacturer", "model",
        "object", "serial", "slot-description", "slot-id", "slot-manufacturer", "token", "type",
    ]
    /// The standard query attributes (RFC 7512 §2.3).
    static let standardQueryNames: Set<String> = ["pin-source", "pin-value", "module-name", "module-path"]

    /// A URI from its attributes. Names are taken in lower case (RFC 7512's names are ABNF
    /// literals, which match in any case: `PIN-VALUE` is `pin-value`). Throws
    /// ``PKCS11Error/Kind/invalidURI`` for what ``init(_:)`` would refuse (a repeated attribute,
    /// a query attribute in the path or a path attribute in the query, an unknown `type`, both
    /// PIN attributes).
    public init(path: [Attribute] = [], query: [Attribute] = []) throws(PKCS11Error) {
        self.path = path.map(Self.normalized)
        self.query = query.map(Self.normalized)
        try validate()
    }

    /// `attribute` with its name in ASCII lower case.
    private static func normalized(_ attribute: Attribute) -> Attribute {
        let lower = attribute.name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return Attribute(name: String(decoding: lower, as: UTF8.self), value: attribute.value)
    }

    /// Parses `text` (attribute names in any letter case, taken in lower case). Throws
    /// ``PKCS11Error/Kind/invalidURI`` for another scheme, a malformed `%` escape, an attribute
    /// without `=`, an empty or malformed name (a name is never percent-encoded), a repeated
    /// attribute, a query attribute in the path or a path attribute in the query, an unknown `type`, a non-numeric `slot-id`, text that is not UTF-8, or
    /// both `pin-source` and `pin-value`.
    public init(_ text: String) throws(PKCS11Error) {
        // RFC 7512 §2.3: the scheme name is case-insensitive.
        guard text.utf8.count >= 7, text.prefix(7).lowercased() == "pkcs11:" else {
            throw PKCS11Error(.invalidURI, "a PKCS #11 URI starts with \"pkcs11:\"")
        }
        let rest = text.dropFirst(7)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = try Self.attributes(parts.first.map(String.init) ?? "", separator: ";").map(Self.normalized)
        query = parts.count > 1 ? try Self.attributes(String(parts[1]), separator: "&").map(Self.normalized) : []
        try validate()
    }

    private static func attributes(_ text: String, separator: Character) throws(PKCS11Error) -> [Attribute] {
        guard !text.isEmpty else { return [] }
        var result: [Attribute] = []
        for component in text.split(separator: separator, omittingEmptySubsequences: false) {
            guard let equals = component.firstIndex(of: "=") else {
                throw PKCS11Error(.invalidURI, "an attribute without \"=\"")
            }
            let name = String(component[..<equals])
            // pk11-v-attr-nm-char: ALPHA / DIGIT / "-" / "_" (RFC 7512 §2.3).
            guard !name.isEmpty, name.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
                throw PKCS11Error(.invalidURI, "a malformed attribute name")
            }
            result.append(Attribute(name: name, value: try percentDecoded(component[component.index(after: equals)...])))
        }
        return result
    }

    private func validate() throws(PKCS11Error) {
        // RFC 7512 §2.3: an attribute must not appear more than once (names compared after
        // lower-casing); a query attribute (the PIN) is refused in the path, where it would be
        // printed and stored as an ordinary value, and a path attribute in the query.
        var seenQuery: Set<String> = []
        for attribute in query {
            guard seenQuery.insert(attribute.name).inserted else {
                throw PKCS11Error(.invalidURI, "the query attribute \(attribute.name) appears twice")
            }
            guard !Self.standardPathNames.contains(attribute.name) else {
                throw PKCS11Error(.invalidURI, "\(attribute.name) is a path attribute, not a query attribute")
            }
        }
        var seen: Set<String> = []
        for attribute in path {
            guard seen.insert(attribute.name).inserted else {
                throw PKCS11Error(.invalidURI, "the path attribute \(attribute.name) appears twice")
            }
            guard !Self.standardQueryNames.contains(attribute.name) else {
                throw PKCS11Error(.invalidURI, "\(attribute.name) is a query attribute, not a path attribute")
            }
        }
        for attribute in path where Self.standardPathNames.contains(attribute.name) {
            if attribute.name != "id" {
                guard String(validating: attribute.value, as: UTF8.self) != nil else {
                    throw PKCS11Error(.invalidURI, "\(attribute.name) is not UTF-8")
                }
            }
        }
        if let type = value("type", in: path), ObjectType(rawValue: String(decoding: type, as: UTF8.self)) == nil {
            throw PKCS11Error(.invalidURI, "type is one of public, private, cert, secret-key, data")
        }
        if let slot = value("slot-id", in: path), !(1...20).contains(slot.count) || !slot.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || UInt(String(decoding: slot, as: UTF8.self)) == nil {
            throw PKCS11Error(.invalidURI, "slot-id is a decimal number")
        }
        if let version = text("library-version", in: path), Self.version(version) == nil {
            throw PKCS11Error(.invalidURI, "library-version is M or M.N")
        }
        // RFC 7512 §2.3: a URI with both pin-source and pin-value "SHOULD be refused as invalid".
        if value("pin-source", in: query) != nil, value("pin-value", in: query) != nil {
            throw PKCS11Error(.invalidURI, "pin-source and pin-value together")
        }
    }

    private func value(_ name: String, in attributes: [Attribute]) -> [UInt8]? {
        attributes.first { $0.name == name }?.value
    }

    private func text(_ name: String, in attributes: [Attribute]) -> String? {
        value(name, in: attributes).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The path attribute `name` as text.
    func pathText(_ name: String) -> String? { text(name, in: path) }

    /// The `token` label.
    public var token: String? { text("token", in: path) }
    /// The token's `manufacturer`.
    public var manufacturer: String? { text("manufacturer", in: path) }
    /// The token's `serial` number.
    public var serial: String? { text("serial", in: path) }
    /// The token's `model`.
    public var model: String? { text("model", in: path) }
    /// The `object` label (`CKA_LABEL`).
    public var object: String? { text("object", in: path) }
    /// The object `id` (`CKA_ID`), raw bytes.
    public var id: [UInt8]? { value("id", in: path) }
    /// The object `type`.
    public var type: ObjectType? { text("type", in: path).flatMap(ObjectType.init(rawValue:)) }
    /// The `slot-id`.
    public var slotID: UInt? { text("slot-id", in: path).flatMap { UInt($0) } }
    /// The `module-path` query attribute: the module's file.
    public var modulePath: String? { text("module-path", in: query) }
    /// The `module-name` query attribute: a module's name without path or suffix.
    public var moduleName: String? { text("module-name", in: query) }
    /// The `pin-source` query attribute (`file:/path` or a path).
    public var pinSource: String? { text("pin-source", in: query) }
    /// The `pin-value` query attribute (a PIN written into the URI itself: keep such URIs secret).
    public var pinValue: String? { text("pin-value", in: query) }

    /// Whether `info` satisfies the token attributes (RFC 7512 §2.3: absent attributes match anything).
    public func matches(_ info: PKCS11TokenInfo) -> Bool {
        (token.map { $0 == info.label } ?? true) && (manufacturer.map { $0 == info.manufacturer } ?? true)
            && (serial.map { $0 == info.serialNumber } ?? true) && (model.map { $0 == info.model } ?? true)
    }

    /// The token attributes as they print, for error messages (no PIN).
    var tokenDescription: String {
        let token = path.filter { !["object", "id", "type"].contains($0.name) && Self.standardPathNames.contains($0.name) }
        return token.isEmpty ? "pkcs11: (any token)" : "pkcs11:" + Self.printed(token, separator: ";", query: false)
    }

    /// The URI text, every attribute in its original order, percent-encoding what RFC 7512 §2.3
    /// does not allow literally; `id` is always fully percent-encoded (as §7 writes it).
    /// It includes a `pin-value` as it is: never log it (``description`` redacts the PIN).
    public var text: String {
        var text = "pkcs11:" + Self.printed(path, separator: ";", query: false)
        if !query.isEmpty { text += "?" + Self.printed(query, separator: "&", query: true) }
        return text
    }

    /// ``text`` with a `pin-value` replaced by `REDACTED`: safe to log.
    public var description: String {
        let redacted = query.map { $0.name == "pin-value" ? Attribute(name: $0.name, text: "REDACTED") : $0 }
        var text = "pkcs11:" + Self.printed(path, separator: ";", query: false)
        if !redacted.isEmpty { text += "?" + Self.printed(redacted, separator: "&", query: true) }
        return text
    }
}

#if !hasFeature(Embedded)
extension PKCS11URI: CustomReflectable {
    /// The redacted ``description`` only: `dump` would otherwise show a `pin-value`'s bytes.
    public var customMirror: Mirror { Mirror(self, children: ["uri": description], displayStyle: .struct) }
}
#endif
