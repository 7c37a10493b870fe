// The transport-free description of one HTTP exchange. Protocol targets build these and parse
// the responses the caller hands back; they never open a socket (docs/design.md §2, habit 8).

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

/// One header field.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, as it should be sent.
    public var name: String
    /// The field value.
    public var value: String
    /// Creates a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
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

    /// The value of the first header called `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The full URL text: `base` (a trailing slash is allowed, its path prefix is kept), the
    /// path, and the query percent-encoded (RFC 3986 unreserved characters left as they are).
    public func url(relativeTo base: String) -> String {
        var url = base.hasSuffix("/") ? String(base.dropLast()) : base
        if !path.isEmpty { url += "/" + path }
        if !query.isEmpty {
            url += "?" + query.map { URLText.percentEncoded($0.name) + "=" + URLText.percentEncoded($0.value) }.joined(separator: "&")
        }
        return url
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
