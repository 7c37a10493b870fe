// The MIRACL MFA Platform SDK on Linux (docs/protocols/sdk-surfaces.md
// §3.11 naming map): one actor that holds the configuration and the active backend, keeps
// users in the secure store, and sends every request of docs/protocols/mpin.md §7.1–§7.2 through a transport
// made per origin. Configuration, backend, users and discovery here; verification and
// registration, authentication, and DVS signing in the extensions beside it.

public import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
public import ProtocolSupport
public import SecureStore
public import MPinPlatform
public import TLSTransport

/// A platform service found from a QR code (`ServiceDetails`, docs/protocols/sdk-surfaces.md §3.9).
public struct MPinServiceDetails: Sendable, Equatable {
    /// The service's name.
    public let name: String
    /// The backend to pass to ``MPinClient/setBackend(_:)``.
    public let backendURL: String
    /// The service's logo.
    public let logoURL: String?

    /// Details as the platform describes them.
    ///
    /// - Parameters:
    ///   - name: The service's name.
    ///   - backendURL: The backend to pass to `MPinClient.setBackend(_:)`.
    ///   - logoURL: The service's logo, if it has one.
    public init(name: String, backendURL: String, logoURL: String?) {
        self.name = name
        self.backendURL = backendURL
        self.logoURL = logoURL
    }
}

/// A browser session behind an access code (`SessionDetails`, docs/protocols/sdk-surfaces.md §3.9).
public struct MPinSessionDetails: Sendable, Equatable {
    /// The user id the browser suggests (may be empty).
    public let prerollID: String
    /// The relying party's application name.
    public let appName: String
    /// Its icon.
    public let appIconURL: String?
    /// The customer id.
    public let customerID: String
    /// The customer's name.
    public let customerName: String
    /// The customer's icon.
    public let customerIconURL: String?
}

/// The MIRACL MFA client of one device (`MPinMFA`).
public actor MPinClient {
    let records: UserRecords
    /// Makes the transport for an origin (`https://host[:port]`); requests carry the path.
    let transportFor: HTTPTransportFactory
    /// The configured random source, shared by every operation (``AuthNetworking/SharedRandomSource``).
    let randomSource: SharedRandomSource
    /// The configuration in force.
    public private(set) var configuration: Configuration
    /// The active backend, once ``setBackend(_:)`` succeeded.
    public private(set) var backend: String?
    /// The active backend's client settings (the MFA platform).
    public private(set) var settings: MPinPlatform.ClientSettings?
    /// The active backend's signing keys (MIRACL Trust's JWKS).
    public internal(set) var keySet: MPinTrust.KeySet?

    /// A client keeping its users in `store` and sending through the transport `transport`
    /// makes for each origin.
    ///
    /// - Parameters:
    ///   - configuration: The platform, client id, custom headers, trusted domains and layer-3 members.
    ///   - store: The secure store the users are kept in.
    ///   - transport: Makes the transport for each origin.
    public init(configuration: Configuration = Configuration(), store: SecureStore, transport: HTTPTransportFactory = .standard) {
        self.configuration = configuration
        records = UserRecords(store: store)
        transportFor = transport
        randomSource = SharedRandomSource(configuration.random)
    }

    /// The configured clock.
    var now: @Sendable () -> Date { configuration.clock }

    // MARK: Configuration (docs/protocols/sdk-surfaces.md §3.1)

    /// Adds headers to every later request (`AddCustomHeaders:`, cumulative).
    ///
    /// - Parameter headers: The headers to add after those already set.
    public func addCustomHeaders(_ headers: [HTTPHeader]) { configuration.customHeaders += headers }
    /// Removes every custom header (`ClearCustomHeaders`).
    public func removeAllCustomHeaders() { configuration.customHeaders = [] }
    /// Restricts requests to https in `domain` and its subdomains (`AddTrustedDomain:`).
    ///
    /// - Parameter domain: The domain; compared without regard to case.
    public func addTrustedDomain(_ domain: String) { configuration.trustedDomains.append(domain.lowercased()) }
    /// Lifts the restriction (`ClearTrustedDomains`).
    public func removeAllTrustedDomains() { configuration.trustedDomains = [] }
    /// Sets the client id sent as `X-MIRACL-CID` (`SetClientId:`).
    ///
    /// - Parameter id: The client id from the platform portal; `nil` to send none.
    public func setClientID(_ id: String?) { configuration.clientID = id }

    /// Fetches `url`'s client settings without switching to it (`TestBackend:`).
    ///
    /// - Parameter url: The backend's base URL.
    /// - Throws: `MPinError` with code `flowError` on MIRACL Trust, which has no client settings,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when the settings are not usable.
    @discardableResult
    public func testBackend(_ url: String) async throws(MPinError) -> MPinPlatform.ClientSettings {
        if case .trust = configuration.platform { throw MPinError(.flowError, "MIRACL Trust has no client settings: setBackend checks its JWKS") }
        let backend = url.hasSuffix("/") ? String(url.dropLast()) : url
        let response = try await send(.get, backend + "/" + configuration.rpsPrefix + "/clientSettings", step: .clientSettings)
        do { return try MPinPlatform.ClientSettings(responseBody: response.body, backend: backend) } catch {
            throw MPinError(.invalidResponse, "the client settings are not usable", protocolError: error)
        }
    }

    /// Makes `url` the active backend (`SetBackend:`): its settings are fetched first, and on
    /// failure the previous backend stays.
    ///
    /// - Parameter url: The backend's base URL.
    /// - Throws: `MPinError` with code `invalidInput` when a URL is not absolute, `untrustedDomain` when the
    ///   trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the
    ///   code its status means, such as `notAuthorized` or `requestExpired`) when the platform answers with
    ///   an error, `invalidResponse` when the client settings (MIRACL Trust: the JWKS) are not usable; the
    ///   previous backend stays.
    public func setBackend(_ url: String) async throws(MPinError) {
        if case .trust = configuration.platform {
            keySet = try await trustKeySet(url)
            backend = url.hasSuffix("/") ? String(url.dropLast()) : url
            return
        }
        let fetched = try await testBackend(url)
        backend = url.hasSuffix("/") ? String(url.dropLast()) : url
        settings = fetched
    }

    /// Makes `url` the active backend with settings fetched earlier (by ``testBackend(_:)`` or
    /// kept by the app), without a request: a second client of the same device, or a process
    /// that cached them.
    ///
    /// - Parameters:
    ///   - url: The backend's base URL.
    ///   - settings: The backend's client settings, from `testBackend(_:)` or the app's cache.
    /// - Throws: `MPinError` with code `invalidInput` when `url` is not absolute, `untrustedDomain`
    ///   when the trusted domains refuse it, `urlRefused` when the URL policy does (the same rule
    ///   as every request, applied now rather than at the first one); the previous backend stays.
    public func setBackend(_ url: String, settings: MPinPlatform.ClientSettings) throws(MPinError) {
        _ = try location(url)
        backend = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.settings = settings
    }

    // MARK: Users (docs/protocols/sdk-surfaces.md §3.2)

    /// Makes a user for `identity` at the active backend, in state ``MPinUser/State/invalid``,
    /// and keeps it (`MakeNewUser:`). An unregistered user of the same identity is replaced;
    /// a registered or blocked one is a `MPinError.Code.flowError` (delete it first).
    ///
    /// - Parameters:
    ///   - identity: The user's identity, an e-mail address for example.
    ///   - deviceName: The name the platform shows for this device; `nil` for none.
    /// - Throws: `MPinError` with code `flowError` when no backend is set or a registered or blocked user of
    ///   `identity` is stored, `invalidInput` for an empty identity, `store` when the secure store fails or
    ///   holds an unusable record.
    public func makeUser(identity: String, deviceName: String? = nil) throws(MPinError) -> MPinUser {
        let backend = try activeBackend()
        guard !identity.isEmpty else { throw MPinError(.invalidInput, "an empty identity") }
        let user = MPinUser(identity: identity, backend: backend, deviceName: deviceName)
        // Checked and replaced under the store's lock, so a user another process registered
        // meanwhile is never overwritten.
        try records.update(identity: identity, backend: backend) { (stored: inout UserRecord?) throws(MPinError) in
            if let existing = stored, existing.state == .registered || existing.state == .blocked {
                throw MPinError(.flowError, "\(identity) is already \(existing.state.rawValue) at this backend")
            }
            stored = UserRecord(user)
        }
        return user
    }

    /// Whether `identity` is registered here for `customerID` (`IsUserExisting:`), at any backend.
    ///
    /// - Parameters:
    ///   - identity: The user's identity.
    ///   - customerID: The customer id the registration belongs to.
    /// - Throws: `MPinError` with code `store` when the secure store fails or holds an unusable record.
    public func userExists(identity: String, customerID: String) throws(MPinError) -> Bool {
        try records.all().contains { $0.identity == identity && $0.customerID == customerID && $0.state != .invalid }
    }

    /// The user `identity` of the active backend (`getIUserById:`); nil for an empty id, and
    /// when no backend is set (there is no user of one), as every client's lookup answers a
    /// missing item.
    ///
    /// - Parameter identity: The user's identity.
    /// - Returns: The user, or `nil` when none is stored for `identity` at the active backend.
    /// - Throws: `MPinError` with code `store` when the secure store fails or holds an unusable record.
    public func user(id identity: String) throws(MPinError) -> MPinUser? {
        guard !identity.isEmpty, let backend else { return nil }
        return try records.read(identity: identity, backend: backend)?.user
    }

    /// Forgets the user here: M-Pin ID, state and token (`DeleteUser:`).
    ///
    /// - Parameter user: The user to forget.
    /// - Throws: `MPinError` with code `store` when the record cannot be removed.
    public func deleteUser(_ user: MPinUser) throws(MPinError) {
        try records.remove(identity: user.identity, backend: user.backend)
    }

    /// The users of the active backend (`listUsers`); `MPinError.Code.flowError` without one.
    ///
    /// - Throws: `MPinError` with code `flowError` when no backend is set, `store` when the secure store
    ///   fails or holds an unusable record.
    public func users() throws(MPinError) -> [MPinUser] {
        let backend = try activeBackend()
        return try records.all().filter { $0.backend == backend }.map(\.user)
    }

    /// The users of every backend (for `mfa mpin users --all`).
    ///
    /// - Throws: `MPinError` with code `store` when the secure store fails or holds an unusable record.
    public func allUsers() throws(MPinError) -> [MPinUser] { try records.all().map(\.user) }

    // MARK: Discovery (docs/protocols/sdk-surfaces.md §3.3; docs/protocols/mpin.md §7.1 item 2)

    /// The service behind a platform QR text `<landing-url>#<accessCode>` (`GetServiceDetails:`).
    ///
    /// - Parameter qrURL: The platform QR text, `<landing-url>#<accessCode>`.
    /// - Throws: `MPinError` with code `invalidInput` when a URL is not absolute, `untrustedDomain` when the
    ///   trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the
    ///   code its status means, such as `notAuthorized` or `requestExpired`) when the platform answers with
    ///   an error, `invalidResponse` when the details are not the expected JSON.
    public func serviceDetails(for qrURL: String) async throws(MPinError) -> MPinServiceDetails {
        let landing = qrURL.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let base = landing.hasSuffix("/") ? String(landing.dropLast()) : landing
        let response = try await send(.get, base + "/service", step: .service)
        let wire = try decode(MPinPlatform.ServiceWire.self, response, "service details")
        return MPinServiceDetails(name: wire.name, backendURL: wire.url, logoURL: wire.logo_url)
    }

    /// The access code in a platform QR text (what follows `#`), or nil.
    ///
    /// - Parameter text: The text of a platform QR code or deep link.
    public nonisolated static func accessCode(inQRText text: String) -> String? {
        MPinPlatform.accessCode(inQRText: text)
    }

    /// The browser session of `accessCode`; tells the platform the code was picked up
    /// (`GetSessionDetails:`).
    ///
    /// - Parameter accessCode: The access code from the QR text.
    /// - Throws: `MPinError` with code `flowError` when no backend is set or it has no `codeStatusURL`,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when the details are not the expected JSON.
    public func sessionDetails(accessCode: String) async throws(MPinError) -> MPinSessionDetails {
        let url = try codeStatusURL()
        let response = try await send(.post, url, body: MPinPlatform.codeStatusBody(status: "wid", accessCode: accessCode), step: .session)
        let wire = try decode(MPinPlatform.SessionWire.self, response, "session details")
        return MPinSessionDetails(prerollID: wire.prerollId ?? "", appName: wire.appName ?? "", appIconURL: nonEmpty(wire.appLogoURL),
                                  customerID: wire.customerId ?? "", customerName: wire.customerName ?? "",
                                  customerIconURL: nonEmpty(wire.customerLogoURL))
    }

    /// Tells the platform the session was abandoned (`AbortSession:`).
    ///
    /// - Parameter accessCode: The access code of the session.
    /// - Throws: `MPinError` with code `flowError` when no backend is set or it has no `codeStatusURL`,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error.
    public func abortSession(accessCode: String) async throws(MPinError) {
        _ = try await send(.post, try codeStatusURL(), body: MPinPlatform.codeStatusBody(status: "abort", accessCode: accessCode), step: .session)
    }

    /// The access code for logging in to the app itself from its backend's authorization URL
    /// (`GetAccessCode:`); its `client_id` must be the configured client id.
    ///
    /// - Parameter authorizationURL: The app backend's authorization URL.
    /// - Throws: `MPinError` with code `invalidInput` when `authorizationURL` is not an authorization URL or
    ///   names another `client_id` than the configured one, `invalidInput` when a URL is not absolute,
    ///   `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer
    ///   arrives, `server` (or the code its status means, such as `notAuthorized` or `requestExpired`) when
    ///   the platform answers with an error, `invalidResponse` when the answer holds no access code.
    public func accessCode(authorizationURL: String) async throws(MPinError) -> String {
        guard let location = MPinPlatform.Location(authorizationURL) else { throw MPinError(.invalidInput, "not an authorization URL") }
        if let clientID = configuration.clientID, let given = location.query.first(where: { $0.name == "client_id" })?.value, given != clientID {
            throw MPinError(.invalidInput, "the authorization URL is for client \(given), not \(clientID)")
        }
        let response = try await send(.post, authorizationURL, body: .object([]), step: .authorize)
        let wire = try decode(MPinPlatform.AuthorizeWire.self, response, "authorization answer")
        guard let code = Self.accessCode(inQRText: wire.qrURL) else { throw MPinError(.invalidResponse, "the authorization answer holds no access code") }
        return code
    }

    // MARK: Plumbing

    func activeBackend() throws(MPinError) -> String {
        guard let backend else { throw MPinError(.flowError, "no backend is set (setBackend)") }
        return backend
    }

    func activeSettings() throws(MPinError) -> MPinPlatform.ClientSettings {
        guard let settings else { throw MPinError(.flowError, "no backend is set (setBackend)") }
        return settings
    }

    private func codeStatusURL() throws(MPinError) -> String {
        guard let url = try activeSettings().codeStatusURL else { throw MPinError(.flowError, "the backend has no codeStatusURL") }
        return url
    }

    /// Checks `url` against the trusted domains (docs/protocols/sdk-surfaces.md §3.1) or the URL policy.
    func location(_ url: String) throws(MPinError) -> MPinPlatform.Location {
        guard let location = MPinPlatform.Location(url) else { throw MPinError(.invalidInput, "not an absolute URL (scheme://host/…)") }
        guard Self.permits(url, configuration) else { throw Self.untrusted(location.origin, configuration) }
        return location
    }

    /// The URL rule (docs/protocols/sdk-surfaces.md §3.1): https in a trusted domain or a subdomain once any
    /// is set (`AddTrustedDomain:`), else the URL policy.
    static func permits(_ url: String, _ configuration: Configuration) -> Bool {
        guard let location = MPinPlatform.Location(url), !URLPolicy.hasUserInformation(url: url) else { return false }
        guard !configuration.trustedDomains.isEmpty else { return configuration.urlPolicy.permits(url) }
        let host = location.host
        return location.isHTTPS && configuration.trustedDomains.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The refusal of `origin`: `urlRefused` by the URL policy when no trusted domain is set
    /// (the shared mapping), else `untrustedDomain` (`UNTRUSTED_DOMAIN_ERROR`).
    static func untrusted(_ origin: String, _ configuration: Configuration, file: String = #fileID, line: UInt = #line) -> MPinError {
        configuration.trustedDomains.isEmpty ? MPinError(refusing: origin, file: file, line: line)
            : MPinError(.untrustedDomain, "\(URLPolicy.displayURL(origin)) is not https in a trusted domain", file: file, line: line)
    }

    /// Every request's middlewares (docs/design.md §1), around the caller's transport for `origin`:
    /// the URL rule, the `User-Agent`, header validation, logging when the configuration has a
    /// logger, the size limits, redirect refusal.
    func pipeline(_ origin: String) throws(TransportError) -> SendPipeline {
        let configuration = configuration
        return .client(transport: try transportFor.transport(baseURL: origin),
                       urlRule: URLPolicyMiddleware(baseURL: origin) { Self.permits($0, configuration) },
                       userAgent: SwiftMFAVersion.userAgent(component: "MPinSDK"), logger: configuration.logger)
    }

    /// Sends one request; a non-2xx answer becomes the error its status means at `step`.
    func send(_ method: HTTPMethod, _ url: String, query extra: [HTTPHeader] = [], body: JSONText? = nil,
              step: MPinError.Step) async throws(MPinError) -> HTTPResponse {
        let location = try location(url)
        var request = HTTPRequest(method: method, path: location.path, query: location.query + extra,
                                  headers: MPinPlatform.headers(clientID: configuration.clientID, clientName: configuration.clientName,
                                                                custom: configuration.customHeaders, hasBody: body != nil),
                                  body: body?.bytes)
        // A body may hold a secret member (regOTT on a restart, authOTT on authenticate): wiped
        // in place once sent, unless a transport kept the request (ReplayTransport.sent) and so
        // its own buffer.
        defer { request.body?.withUnsafeMutableBytes { SecretBytes.wipe($0) } }
        let response: HTTPResponse
        do { response = try await pipeline(location.origin).send(request) } catch {
            guard error.kind != .urlRefused else { throw Self.untrusted(location.origin, configuration) }
            throw MPinError(noAnswer: error, "no answer from \(URLPolicy.displayURL(location.origin)) (\(step.rawValue))")
        }
        guard response.isSuccess else { throw MPinError.status(response.status, step: step, body: response.body) }
        return response
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, _ what: String) throws(MPinError) -> T {
        do { return try JSONResponse.decode(T.self, from: response.body, what: what) } catch {
            throw MPinError(.invalidResponse, "the \(what) is not the expected JSON", protocolError: error)
        }
    }

    /// An answer that carries a secret member (a client-secret share, a one-time token), read by
    /// `reader` (which takes it into `SecretBytes`), then its body wiped. The response is consumed, so the body has one
    /// owner and is wiped in place when the caller hands over `send`'s result directly, as every
    /// caller does; a middleware that kept a copy of the response would keep its own buffer.
    /// The transport's buffers are its to wipe.
    func read<T>(_ response: consuming HTTPResponse, _ what: String, _ reader: ([UInt8]) throws(ProtocolError) -> T) throws(MPinError) -> T {
        var owned = response
        defer { SecretBytes.wipe(&owned.body) }
        do { return try reader(owned.body) } catch {
            throw MPinError(.invalidResponse, "the \(what) is not the expected JSON", protocolError: error)
        }
    }

    /// A share an answer may leave out; a missing one is refused like a malformed one.
    func requiredShare(_ share: SecretBytes?) throws(CryptoError) -> SecretBytes {
        guard let share else { throw .invalidEncoding }
        return share
    }

    private func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
}
