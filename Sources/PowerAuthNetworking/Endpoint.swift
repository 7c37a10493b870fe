// Typed endpoints of an application's own PowerAuth-protected API (docs/protocols/powerauth.md §16;
// docs/protocols/sdk-surfaces.md §2.2 `WPNEndpointBasic`, `WPNEndpointSigned`, `WPNEndpointSignedWithToken`):
// the path, how the request is authenticated, and which end-to-end encryption the back end
// expects — declared once on the endpoint, as networking-apple 1.5+ does.

/// Which end-to-end encryption an endpoint uses (`WPNE2EEConfiguration`, docs/protocols/powerauth.md §9).
public enum EndToEndEncryption: Sendable, Equatable {
    /// Plain JSON.
    case notEncrypted
    /// ECIES in application scope (no activation needed).
    case applicationScope
    /// ECIES in activation scope.
    case activationScope
}

/// How an endpoint's requests are authenticated.
public enum EndpointAuthentication: Sendable, Equatable {
    /// None (`WPNEndpointBasic`).
    case none
    /// `X-PowerAuth-Authorization` over the plaintext body for `uriID` (`WPNEndpointSigned`).
    case signed(uriID: String)
    /// `X-PowerAuth-Token` from the token called `tokenName`, created on demand
    /// (`WPNEndpointSignedWithToken`).
    case token(tokenName: String)
}

/// An endpoint that takes `Request` (sent as `{"requestObject": …}`) and answers `Response`
/// (read from `{"status":"OK","responseObject": …}`).
public struct Endpoint<Request: Encodable & Sendable, Response: Decodable & Sendable>: Sendable {
    /// The path below the service's base URL (a leading `/` is ignored).
    public let path: String
    /// How requests are authenticated.
    public let authentication: EndpointAuthentication
    /// The end-to-end encryption the back end expects.
    public let encryption: EndToEndEncryption

    /// An endpoint from its parts.
    ///
    /// - Parameters:
    ///   - path: The path below the service's base URL; a leading `/` is dropped.
    ///   - authentication: How requests are authenticated.
    ///   - encryption: The end-to-end encryption the back end expects (none by default).
    public init(path: String, authentication: EndpointAuthentication, encryption: EndToEndEncryption = .notEncrypted) {
        self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        self.authentication = authentication
        self.encryption = encryption
    }

    /// An unauthenticated endpoint.
    ///
    /// - Parameters:
    ///   - path: The path below the service's base URL; a leading `/` is dropped.
    ///   - encryption: The end-to-end encryption the back end expects (none by default).
    public static func basic(_ path: String, encryption: EndToEndEncryption = .notEncrypted) -> Self {
        Self(path: path, authentication: .none, encryption: encryption)
    }

    /// A PowerAuth-signed endpoint.
    ///
    /// - Parameters:
    ///   - path: The path below the service's base URL; a leading `/` is dropped.
    ///   - uriID: The URI identifier the signature covers, from the server team.
    ///   - encryption: The end-to-end encryption the back end expects (none by default).
    public static func signed(_ path: String, uriID: String, encryption: EndToEndEncryption = .notEncrypted) -> Self {
        Self(path: path, authentication: .signed(uriID: uriID), encryption: encryption)
    }

    /// A token-signed endpoint.
    ///
    /// - Parameters:
    ///   - path: The path below the service's base URL; a leading `/` is dropped.
    ///   - tokenName: The name of the token in the client's token store.
    ///   - encryption: The end-to-end encryption the back end expects (none by default).
    public static func signedWithToken(_ path: String, tokenName: String, encryption: EndToEndEncryption = .notEncrypted) -> Self {
        Self(path: path, authentication: .token(tokenName: tokenName), encryption: encryption)
    }
}

/// An empty request or response object (`{}`), for endpoints that take or give nothing.
public struct EmptyObject: Codable, Sendable, Equatable {
    /// `{}`.
    public init() {}
}
