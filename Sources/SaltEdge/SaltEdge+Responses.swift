// Response parsing for the connection endpoints (docs/protocols/saltedge-v2.md §6.2–§6.5, §6.8) and the error
// body of §10. Every parser takes the caller's `HTTPResponse` and throws a typed error.

import FoundationEssentials
public import ProtocolSupport

extension ProtocolError.Code {
    /// §10: the connection is gone; mark it inactive and offer to reconnect.
    public static let connectionNotFound = Self(rawValue: "ConnectionNotFound")
    /// §10: the connection was revoked.
    public static let connectionRevoked = Self(rawValue: "ConnectionRevoked")
    /// §10: the authorization does not exist (any more).
    public static let authorizationNotFound = Self(rawValue: "AuthorizationNotFound")
}

extension SaltEdge {
    /// Checks the status and, for an error, throws the server's class as the error code
    /// (docs/protocols/saltedge-v2.md §10): `{"error_class":…,"error_message":…}`, or `ApiResponseError` with
    /// `Request Error (<status>)` when the body is not that JSON or its message is empty.
    public static func requireSuccess(_ response: HTTPResponse) throws(ProtocolError) {
        guard !response.isSuccess else { return }
        let body = try? JSONResponse.decode(ErrorBody.self, from: response.body, what: "error")
        let errorClass = body?.error_class.flatMap { $0.isEmpty ? nil : $0 } ?? "ApiResponseError"
        let message = body?.error_message.flatMap { $0.isEmpty ? nil : $0 } ?? "Request Error (\(response.status))"
        throw ProtocolError(ProtocolError.Code(rawValue: errorClass), message)
    }

    private struct ErrorBody: Decodable {
        let error_class: String?
        let error_message: String?
    }

    /// The answer to create-connection (§6.2): open ``authenticationURL`` in a browser.
    public struct CreatedConnection: Sendable, Equatable {
        /// The new connection's id.
        public let connectionID: String
        /// Where the user authenticates.
        public let authenticationURL: String

        /// Parses the response.
        public init(response: HTTPResponse) throws(ProtocolError) {
            try SaltEdge.requireSuccess(response)
            let wire = try JSONResponse.decode(Envelope<Wire>.self, from: response.body, what: "create connection").data
            connectionID = wire.connection_id.value
            authenticationURL = wire.authentication_url
        }

        private struct Wire: Decodable {
            let connection_id: FlexibleID
            let authentication_url: String
        }
    }

    /// A connection's state on the server (§6.3).
    public struct ConnectionStatus: RawRepresentable, Sendable, Hashable, Decodable {
        /// The wire value.
        public let rawValue: String
        /// Creates a status.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Decodes the wire string.
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        /// Waiting for the web authentication.
        public static let authenticationPending = Self(rawValue: "authentication_pending")
        /// The web authentication failed.
        public static let authenticationFail = Self(rawValue: "authentication_fail")
        /// Active.
        public static let valid = Self(rawValue: "valid")
        /// Revoked.
        public static let revoked = Self(rawValue: "revoked")
    }

    /// Show-connection's answer (§6.3).
    public struct ConnectionInfo: Sendable, Equatable {
        /// The id.
        public let id: String
        /// The state.
        public let status: ConnectionStatus
        /// The push token the server holds, if any.
        public let pushToken: String?

        /// Parses the response.
        public init(response: HTTPResponse) throws(ProtocolError) {
            try SaltEdge.requireSuccess(response)
            let wire = try JSONResponse.decode(Envelope<Wire>.self, from: response.body, what: "connection").data
            id = wire.id.value
            status = wire.status
            pushToken = wire.push_token
        }

        private struct Wire: Decodable {
            let id: FlexibleID
            let status: ConnectionStatus
            let push_token: String?
        }
    }

    /// Parses `{"data":{"connection_id":…}}`, the answer to revoke and push-token updates
    /// (§6.4, §6.5), and returns the id.
    public static func connectionID(from response: HTTPResponse) throws(ProtocolError) -> String {
        try requireSuccess(response)
        return try JSONResponse.decode(Envelope<ConnectionIDWire>.self, from: response.body, what: "connection id").data.connection_id.value
    }

    private struct ConnectionIDWire: Decodable {
        let connection_id: FlexibleID
    }

    /// The answer to an instant action (§6.8): with both ids, show that authorization and let
    /// the user decide; without, the action is done.
    public struct InstantActionResult: Sendable, Equatable {
        /// The authorization to confirm or deny, if any.
        public let authorizationID: String?
        /// Its connection, if any.
        public let connectionID: String?

        /// Parses the response.
        public init(response: HTTPResponse) throws(ProtocolError) {
            try SaltEdge.requireSuccess(response)
            let wire = try JSONResponse.decode(Envelope<Wire>.self, from: response.body, what: "instant action").data
            authorizationID = wire.authorization_id?.value
            connectionID = wire.connection_id?.value
        }

        /// Whether an authorization awaits the user's decision.
        public var needsDecision: Bool { authorizationID != nil && connectionID != nil }

        private struct Wire: Decodable {
            let authorization_id: FlexibleID?
            let connection_id: FlexibleID?
        }
    }
}
