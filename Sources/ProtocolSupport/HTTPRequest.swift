// The transport-free description of one HTTP exchange. Protocol targets build these and parse
// the responses the caller hands back; they never open a socket (docs/design.md §2, habit 8).

public import CryptoPrimitives

/// An HTTP method.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method token, upper case.
    public let rawValue: String
    /// Creates a method from its token.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// The token.
    public var description: String { rawValue }
}

/// One header field (or one query parameter: a name and a value).
///
/// A credential (a bearer token, an access token, a one-time registration code) is held as a
/// secret field, ``init(_:secret:)``: its bytes stay in `SecretBytes` from the record to the
/// transport's request bytes, themselves secret and wiped when released. ``value`` and URLs show
/// ``redactedValue`` for it, descriptions show `SecretBytes`' redaction, and a transport writes
/// the bytes with ``withValueBytes(_:)`` and ``HTTPRequest/appendQuery(to:)``. A plain and a
/// secret field with the same bytes are not equal.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, as it should be sent.
    public var name: String
    /// The field value; ``redactedValue`` for a secret field.
    public var value: String { secret == nil ? text : Self.redactedValue }
    /// The value of a secret field, or nil for a plain one.
    public let secret: SecretBytes?
    private let text: String

    /// What ``value`` and a URL show in place of a secret value.
    public static let redactedValue = "REDACTED"

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.text = value
        self.secret = nil
    }

    /// Creates a field whose value is a secret: it is never made into a `String`.
    public init(_ name: String, secret: SecretBytes) {
        self.name = name
        self.text = ""
        self.secret = secret
    }

    /// Calls `body` with the bytes that go on the wire: the secret's own for a secret field, the
    /// UTF-8 of ``value`` otherwise. Do not let the pointer escape.
    public func withValueBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if let secret { return try secret.withUnsafeBytes(body) }
        return try Array(text.utf8).withUnsafeBytes { bytes in Result { () throws(E) in try body(bytes) } }.get()
    }

    /// Equal names and values; secret values compare in constant time.
    public static func == (lhs: HTTPHeader, rhs: HTTPHeader) -> Bool {
        lhs.name == rhs.name && lhs.text == rhs.text && lhs.secret == rhs.secret
    }

    /// Hashes the name and a plain value; a secret adds only that it is one.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(text)
        hasher.combine(secret != nil)
    }
}

/// A request to send: method, path relative to the service's base URL, query, headers and the
/// exact body bytes. When a signature covers the body, ``body`` holds the signed bytes and must be
/// sent unchanged.
public struct HTTPRequest: Sendable, Equatable {
    /// The method.
    public var method: HTTPMethod
    /// The path below the base URL, without a leading slash (`api/authenticator/v2/consents`).
    public var path: String
    /// Query parameters, in order, not yet percent-encoded.
    public var query: [HTTPHeader]
    /// Header fields, in order.
    public var headers: [HTTPHeader]
    /// The body, or `nil` for none.
    public var body: [UInt8]?
    /// Seconds to wait for this request's answer, overriding the transport's own timeout.
    public var timeout: Double?

    /// Creates a request.
    public init(method: HTTPMethod, path: String, query: [HTTPHeader] = [], headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (compared case-insensitively);
    /// ``HTTPHeader/redactedValue`` for a secret one.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The secret value of the first header called `name` (compared case-insensitively), or nil
    /// when there is none or it is plain text.
    public func secretHeader(_ name: String) -> SecretBytes? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.secret
    }

    /// The full URL text: `base` (a trailing slash is allowed, its path prefix is kept), the
    /// path, and the query percent-encoded (RFC 3986 unreserved characters left as they are).
    /// A secret query value shows as ``HTTPHeader/redactedValue``: this is the URL to judge
    /// and to show; a transport writes the query with ``appendQuery(to:)``.
    public func url(relativeTo base: String) -> String {
        var url = base.hasSuffix("/") ? String(base.dropLast()) : base
        if !path.isEmpty { url += "/" + path }
        if !query.isEmpty {
            url += "?" + query.map { URLText.percentEncoded($0.name) + "=" + URLText.percentEncoded($0.value) }.joined(separator: "&")
        }
        return url
    }

    /// Appends `name=value` for every query parameter, joined by `&`, to `bytes`, percent-encoded
    /// as ``url(relativeTo:)`` does except that a secret value is written whole as `%XX` triples
    /// (RFC 3986 §2.1 lets any byte be percent-encoded), so that neither the time taken nor the
    /// length written depends on which bytes it holds. Nothing is appended for an empty query.
    public func appendQuery(to bytes: inout [UInt8]) {
        for (index, item) in query.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            bytes += URLText.percentEncoded(item.name).utf8
            bytes.append(UInt8(ascii: "="))
            if let secret = item.secret {
                secret.withUnsafeBytes { URLText.appendPercentEncodedSecret($0, to: &bytes) }
            } else {
                bytes += URLText.percentEncoded(item.value).utf8
            }
        }
    }

    /// The most bytes ``appendQuery(to:)`` appends.
    public var queryCapacity: Int {
        query.reduce(0) { $0 + 2 + 3 * $1.name.utf8.count + 3 * ($1.secret?.count ?? $1.value.utf8.count) }
    }
}

/// A response handed back by the caller's transport.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields, in the order the transport reported them.
    public var headers: [HTTPHeader]
    /// The body bytes (empty for none).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: some Sequence<UInt8> = [UInt8]()) {
        self.status = status
        self.headers = headers
        self.body = Array(body)
    }

    /// The value of the first header called `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
