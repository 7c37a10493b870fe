// The wire of the MIRACL MFA platform as the MPinMFA SDK generation speaks it (docs/protocols/mpin.md §7.1 and
// §7.2): absolute URLs split into an origin and a path, the headers every request carries, and
// the request bodies with the platform's JSON member names. Sans-I/O: nothing here sends.

public import CryptoPrimitives
public import ProtocolSupport

/// Requests and responses of the MIRACL MFA platform API (docs/protocols/mpin.md §7.1–§7.2).
public enum MPinPlatform {
    /// An absolute URL split into what a transport is made for (`scheme://host[:port]`) and
    /// the request's path and query below it.
    public struct Location: Sendable, Equatable, CustomStringConvertible {
        /// `scheme://host[:port]`, lower-case scheme.
        public let origin: String
        /// The path without a leading slash.
        public let path: String
        /// The query items, decoded.
        public let query: [HTTPHeader]

        /// Splits `url`; nil when it is not an absolute URL or its query cannot be decoded.
        public init?(_ url: String) {
            guard let (base, query) = URLText.split(url), let components = URLText.components(of: base) else { return nil }
            origin = components.scheme + "://" + components.host
            path = components.path.joined(separator: "/")
            self.query = query
        }

        /// The host name without port or user information, lower case.
        public var host: String {
            var host = Substring(origin.split(separator: "://", maxSplits: 1).last ?? "")
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[...close]).lowercased() }
            if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
            return host.lowercased()
        }

        /// Whether the scheme is `https`.
        public var isHTTPS: Bool { origin.hasPrefix("https://") }

        /// The URL again (query percent-encoded).
        public var description: String {
            HTTPRequest(method: .get, path: path, query: query).url(relativeTo: origin)
        }

        /// This location's path and query with `segment` appended to the path.
        public func appending(_ segment: String) -> Location {
            Location(origin: origin, path: path.isEmpty ? segment : path + "/" + segment, query: query)
        }

        init(origin: String, path: String, query: [HTTPHeader]) {
            self.origin = origin
            self.path = path
            self.query = query
        }
    }

    /// Whether `mpinID` is what the platform issues: non-empty hex of whole bytes (docs/protocols/mpin.md §6,
    /// §7.1 item 3). It is put into URL paths, so nothing else — no `/`, `.` or `%` — may pass.
    public static func isHexMPinID(_ mpinID: String) -> Bool {
        !mpinID.isEmpty && mpinID.utf8.count % 2 == 0
            && mpinID.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }
    }

    /// Resolves a URL from the client settings against the backend (docs/protocols/mpin.md §7.1 item 1:
    /// relative URLs such as `/rps/user` are relative to the backend's origin).
    public static func resolve(_ url: String, against backend: String) -> String {
        if url.contains("://") { return url }
        guard let base = Location(backend) else { return url }
        return base.origin + (url.hasPrefix("/") ? url : "/" + url)
    }

    /// The headers of every platform request (docs/protocols/mpin.md §7): `X-MIRACL-CID` when a client id is
    /// set (the 2017 platform answered 406 without it), `X-MIRACL-CLIENT`, the caller's custom
    /// headers, and `Content-Type: application/json` on requests with a body.
    public static func headers(clientID: String?, clientName: String, custom: [HTTPHeader], hasBody: Bool) -> [HTTPHeader] {
        var headers: [HTTPHeader] = []
        if hasBody { headers.append(HTTPHeader("Content-Type", "application/json")) }
        headers.append(HTTPHeader("Accept", "application/json"))
        if let clientID, !clientID.isEmpty { headers.append(HTTPHeader("X-MIRACL-CID", clientID)) }
        headers.append(HTTPHeader("X-MIRACL-CLIENT", clientName))
        return headers + custom
    }

    // MARK: Bodies (docs/protocols/mpin.md §7.1; member names exactly as in the recorded traffic)

    /// `PUT registerURL` (§7.1 item 3): `userId`, `mobile: 1`, then the optional members.
    /// A restart (`PUT registerURL/{mpinId}`) adds `regOTT`.
    public static func registerBody(userID: String, deviceName: String?, accessCode: String?, activationCode: String?,
                                    pushToken: String?, regOTT: SecretBytes? = nil) -> JSONText {
        var members: [(String, JSONText)] = [("userId", .string(userID)), ("mobile", .integer(1))]
        if let accessCode { members.append(("wid", .string(accessCode))) }
        if let deviceName { members.append(("deviceName", .string(deviceName))) }
        if let activationCode { members.append(("activateCode", .string(activationCode))) }
        if let pushToken { members.append(("pushToken", .string(pushToken))) }
        if let regOTT { members.append(("regOTT", .secret(regOTT))) }
        return .object(members)
    }

    /// `POST codeStatusURL` (§7.1 item 2): `wid` announces pick-up, `abort` abandons, `user`
    /// names the user about to authenticate.
    public static func codeStatusBody(status: String, accessCode: String, userID: String? = nil) -> JSONText {
        var members: [(String, JSONText)] = [("status", .string(status)), ("wid", .string(accessCode))]
        if let userID { members.append(("userId", .string(userID))) }
        return .object(members)
    }

    /// `POST …/pass1` (§7.1 item 6): `UT` is the empty string without time permits; `dtas`
    /// and `publicKey` are sent by the 2019 generation for DVS identities (§7.2).
    public static func pass1Body(mpinID: String, u: [UInt8], ut: [UInt8]?, dtas: String? = nil, publicKey: [UInt8]? = nil,
                                 scope: String? = nil) -> JSONText {
        var members: [(String, JSONText)] = [("pass", .integer(1)), ("mpin_id", .string(mpinID)),
                                             ("UT", .string(ut.map { Hex.encode($0) } ?? "")), ("U", .string(Hex.encode(u)))]
        if let dtas { members.append(("dtas", .string(dtas))) }
        if let publicKey { members.append(("publicKey", .string(Hex.encode(publicKey)))) }
        if let scope { members.append(("scope", .array([.string(scope)]))) }
        return .object(members)
    }

    /// `POST …/pass2` (§7.1 items 6–7): `WID` is the access code or `"0"`, `OTP` asks the
    /// server for a one-time password.
    public static func pass2Body(mpinID: String, v: [UInt8], accessCode: String?, otp: Bool) -> JSONText {
        .object([("pass", .integer(2)), ("OTP", .bool(otp)), ("WID", .string(accessCode ?? "0")),
                 ("V", .string(Hex.encode(v))), ("mpin_id", .string(mpinID))])
    }

    /// `POST authenticateURL` (§7.1 item 6): the `authOTT` from pass 2 and whether an OIDC
    /// authorization code is wanted. `purpose` names the 2019 registration-code and
    /// DVS-registration scopes as `wam` (§7.2 gives no wire name; the client also sends it as the
    /// pass-1 `scope` of §7.3, so a platform reading either member finds it; see docs/architecture.md).
    public static func authenticateBody(authOTT: SecretBytes, authorizationCodeWanted: Bool, purpose: String? = nil) -> JSONText {
        var members: [(String, JSONText)] = [("mpinResponse", .object([("authOTT", .secret(authOTT))])),
                                             ("authzRequest", .bool(authorizationCodeWanted))]
        if let purpose { members.append(("wam", .string(purpose))) }
        return .object(members)
    }

    /// `POST /dvsregister` (§7.2): the token from the DVS-scoped authentication and Pa in hex.
    public static func dvsRegisterBody(token: String, publicKey: [UInt8], deviceName: String?) -> JSONText {
        var members: [(String, JSONText)] = [("dvs-register-token", .string(token)), ("public-key", .string(Hex.encode(publicKey)))]
        if let deviceName { members.append(("deviceName", .string(deviceName))) }
        return .object(members)
    }

    /// `POST /verification/email` (§7.2 `StartVerification`; the member names are MIRACL
    /// Trust's of §7.3, assumed for this generation too).
    public static func verificationBody(userID: String, clientID: String?, redirectURI: String?, accessCode: String?,
                                        deviceName: String?) -> JSONText {
        var members: [(String, JSONText)] = [("userId", .string(userID))]
        if let clientID { members.append(("clientId", .string(clientID))) }
        if let redirectURI { members.append(("redirectURI", .string(redirectURI))) }
        if let accessCode { members.append(("accessId", .string(accessCode))) }
        if let deviceName { members.append(("deviceName", .string(deviceName))) }
        return .object(members)
    }

    /// `POST /verification/confirmation` (§7.2 `FinishVerification`, names of §7.3).
    public static func confirmationBody(userID: String, code: String) -> JSONText {
        .object([("userId", .string(userID)), ("code", .string(code))])
    }
}
