// The request context of one device (docs/protocols/cm-authenticator.md §1) and the error body every parser
// checks first.

import FoundationEssentials
public import ProtocolSupport

extension CMAuthenticator {
    /// The common headers' values (§1).
    public struct ClientDescription: Sendable, Equatable {
        /// `User-Agent`.
        public var userAgent: String

        /// Creates a description.
        public init(userAgent: String) { self.userAgent = userAgent }

        /// The §1-assumed Linux user agent: `<app>/<version> (Linux <system>; <arch>; <locale>)`.
        public static func linux(app: String, version: String, system: String, architecture: String, locale: String) -> ClientDescription {
            ClientDescription(userAgent: "\(app)/\(version) (Linux \(system); \(architecture); \(locale))")
        }

        var headers: [HTTPHeader] {
            [HTTPHeader("Content-Type", "application/json; charset=utf-8"),
             HTTPHeader("Accept", "application/json; charset=utf-8"), HTTPHeader("User-Agent", userAgent)]
        }
    }

    /// Builds the requests of one device. Paths are relative to ``CMAuthenticator/defaultBaseURL``
    /// or the configured base.
    public struct Requests: Sendable {
        /// The device id from the first registration answer, or `nil` before it.
        public let deviceID: String?
        /// The common headers' values.
        public let client: ClientDescription
        /// The bearer token shape.
        public let tokenStyle: TokenStyle

        /// Creates a request builder.
        public init(deviceID: String?, client: ClientDescription, tokenStyle: TokenStyle = .android) {
            self.deviceID = deviceID
            self.client = client
            self.tokenStyle = tokenStyle
        }

        /// `device/{deviceId}` (or `device` before registration).
        var devicePath: String {
            deviceID.map { "device/" + URLText.percentEncoded($0) } ?? "device"
        }

        /// An environment-scoped request with its bearer JWT over the exact body (§5).
        func authenticated(_ method: HTTPMethod, _ path: String, environment: Environment, now: Date,
                           authenticationID: String? = nil, body: [UInt8]? = nil) throws(ProtocolError) -> HTTPRequest {
            let authorization = try CMAuthenticator.bearerAuthorization(secret: environment.secret, now: now, authenticationID: authenticationID,
                                                                        body: body, style: tokenStyle)
            return HTTPRequest(method: method, path: path, headers: client.headers + [authorization], body: body)
        }
    }

    /// Checks the status (§1): 2xx (204 without a body included) passes; 410 is
    /// `ProtocolError.Code.requestExpired` (§4); anything else is
    /// `ProtocolError.Code.serverError` with the `{"status":…,"message":…}` body's message.
    public static func requireSuccess(_ response: HTTPResponse) throws(ProtocolError) {
        guard !response.isSuccess else { return }
        if response.status == 410 { throw ProtocolError(.requestExpired, "authentication request expired (410)") }
        let message = (try? JSONResponse.decode(ErrorBody.self, from: response.body, what: "error"))?.message
        throw ProtocolError(.serverError, "HTTP \(response.status): \(message ?? "no message")")
    }

    private struct ErrorBody: Decodable {
        let status: Int?
        let message: String?
    }
}
