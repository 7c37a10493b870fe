// The `mpin` service of mfa-server: a MIRACL MFA platform
// under `/mpin/` on our MPin.Issuer and MPin.Server — client settings, service discovery,
// browser sessions with access codes, e-mail verification (the code read through the
// integration API), registration with two D-TA client-secret shares (`/mpin/rps/…` is D-TA 1,
// `/mpin/dta/…` D-TA 2 with its own master share), time permits, pass 1 / pass 2 / authenticate
// ending in web logins, authorization codes, OTPs and registration codes, wrong-PIN counting and
// blocking (410), DVS registration, and the relying party's `/mpin/dvs/verify` (docs/protocols/mpin.md §7.4).
// Answers take the shapes of the recorded traffic (mpin/mfa-sdk-core-recorded). State in memory.

import CryptoPrimitives
import Foundation
import MPin
import ProtocolSupport

/// One MIRACL MFA platform with its two D-TAs and a relying party, answering below `mpin/`.
public actor MPinStandIn {
    struct Identity {
        let mpinID: String
        let userID: String
        let identity: MPin.Identity
        var regOTT: String
        var verified: Bool
        var expires: Date
        var wrongPINs = 0
        var blocked = false
        var accessCode: String?
        /// Pa for a signing identity (docs/protocols/mpin.md §5).
        var publicKey: MPin.DVS.PublicKey?
    }

    struct Session {
        var status = "new"
        var userID: String?
        var authenticatedUser: String?
    }

    struct PendingPass {
        let y: BN254CX.Scalar
        let u: BN254CX.G1?
        let ut: BN254CX.G1?
        let day: UInt32?
        var scope: String?
    }

    struct Outcome {
        let mpinID: String
        let accepted: Bool
        let accessCode: String?
        let otp: String?
        var scope: String?
    }

    struct SigningSession {
        let userID: String
        let hash: String
        let description: String
        var status = "active"
        let expires: Date
    }

    let shares: [MPin.MasterSecretShare]
    let serverSecret: MPin.ServerSecret
    let customerID = "5f4e1b1c-mfa-server-customer"
    let appID = "0f3c2b1a9e8d7c6b5a4f3e2d1c0b9a88"
    /// D-TA 2 checks the parameters D-TA 1 signed with this key (the signature of §7.1 item 4).
    let parameterKey: SymmetricKey
    var baseURL = "http://127.0.0.1"
    var random = SystemRandomSource()
    var identities: [String: Identity] = [:]
    var sessions: [String: Session] = [:]
    var pending: [String: PendingPass] = [:]
    var outcomes: [String: Outcome] = [:]
    var verificationCodes: [String: String] = [:]
    var activationTokens: [String: String] = [:]
    var registrationCodes: [String: (userID: String, expires: Date)] = [:]
    var authorizationCodes: [String: String] = [:]
    var dvsTokens: [String: String] = [:]
    /// Users whose time permits are refused (HTTP 410, revoked).
    var revoked: Set<String> = []
    /// Whether authentication needs time permits.
    var usePermits = false
    /// When set, D-TA 2 plays a hostile authority: each of its shares (client secret, DVS
    /// client secret, time permit) is the negation of D-TA 1's, so the two sum to infinity.
    var cancellingShares = false
    /// When set, every `/mpin/` answer is this fault instead (`garbage` or `unavailable`).
    var fault: String?
    /// Wrong PINs after which an identity is blocked (the platform's limit).
    let maximumWrongPINs = 3
    /// MIRACL Trust (`/trust/…`): the project, the ES256 key its JWTs are signed with, and the
    /// signing sessions a relying party opened.
    let projectID = "mfa-server-project"
    let jwtKey: P256.Signing.PrivateKey
    var signingSessions: [String: SigningSession] = [:]

    /// A platform with fresh master shares for its two D-TAs.
    public init() throws {
        var random = SystemRandomSource()
        shares = [try MPin.MasterSecretShare.random(using: &random), try MPin.MasterSecretShare.random(using: &random)]
        serverSecret = MPin.Issuer.combine(shares.map(MPin.Issuer.serverSecret))
        parameterKey = SymmetricKey(data: try random.bytes(count: 32))
        jwtKey = try P256.Signing.PrivateKey(using: &random)
    }

    /// The server's URL once bound; every URL the platform hands out starts with it.
    public func setBaseURL(_ url: String) { baseURL = url }

    /// The backend a client sets (`<server>/mpin`).
    public var backendURL: String { baseURL + "/mpin" }

    /// The MIRACL Trust backend (`<server>/trust`) and its project.
    public var trustBackendURL: String { baseURL + "/trust" }

    /// Verifications the platform performed (pass 2), for tests and benchmarks.
    public internal(set) var verifications = 0

    /// Answers `request`; nil for a path it does not serve.
    public func handle(_ request: HTTPRequest) -> HTTPResponse? {
        do {
            if request.path.hasPrefix("integration/mpin/") { return try admin(request) }
            if request.path.hasPrefix("trust/") {
                if let fault { return CMStandIn.fault(fault) }
                return try trustAPI(request, route: request.path.dropFirst("trust/".count).split(separator: "/").map(String.init))
            }
            guard request.path.hasPrefix("mpin/") else { return nil }
            if let fault { return CMStandIn.fault(fault) }
            let route = request.path.dropFirst("mpin/".count).split(separator: "/").map(String.init)
            return try api(request, route: route)
        } catch let error as TrustError {
            return CMStandIn.json(["error": ["code": error.code, "info": error.info]], status: error.status)
        } catch let error as CMStandIn.StandInError {
            return HTTPResponse(status: error.status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")], body: Array(error.message.utf8))
        } catch {
            return HTTPResponse(status: 400, body: Array("\(error)".utf8))
        }
    }

    private func api(_ request: HTTPRequest, route: [String]) throws -> HTTPResponse? {
        let body = { () throws -> [String: Any] in try CMStandIn.object(request.body ?? Array("{}".utf8)) }
        switch (request.method, route.first ?? "", route.dropFirst().first ?? "", route.count) {
        case (.get, "service", _, 1): return service()
        case (.post, "authorize", _, 1): return try authorize()
        case (.get, "rps", "clientSettings", 2): return clientSettings()
        case (.post, "rps", "codeStatus", 2): return try codeStatus(try body())
        case (.put, "rps", "user", 2): return try register(try body())
        case (.put, "rps", "user", 3): return try restart(mpinID: route[2], try body())
        case (.get, "rps", "signature", 3): return try signature(mpinID: route[2], request)
        case (.get, "rps", "timePermit", 3): return try timePermit(mpinID: route[2])
        case (.post, "rps", "pass1", 2): return try pass1(try body())
        case (.post, "rps", "pass2", 2): return try pass2(try body())
        case (.post, "rps", "authenticate", 2): return try authenticate(try body())
        case (.post, "rps", "dvsregister", 2): return try dvsRegister(try body())
        case (.get, "dta", "clientSecret", 2): return try secondClientSecret(request)
        case (.get, "dta", "timePermit", 2): return try secondTimePermit(request)
        case (.get, "dta", "dvsClientSecret", 2): return try secondDVSSecret(request)
        case (.post, "verification", "email", 2): return try startVerification(try body())
        case (.post, "verification", "confirmation", 2): return try confirmVerification(try body())
        case (.post, "dvs", "verify", 2): return try verifySignature(try body())
        default: return nil
        }
    }

    // MARK: Settings, discovery, sessions (docs/protocols/mpin.md §7.1 items 1–2)

    private func clientSettings() -> HTTPResponse {
        let rps = backendURL + "/rps"
        return CMStandIn.json([
            "registerURL": rps + "/user", "signatureURL": rps + "/signature", "certivoxURL": backendURL + "/dta/",
            "dta2URL": backendURL + "/dta/", "mpinAuthServerURL": rps, "authenticateURL": rps + "/authenticate",
            "mobileAuthenticateURL": rps + "/authenticate", "codeStatusURL": rps + "/codeStatus", "dvsRegisterURL": rps + "/dvsregister",
            "timePermitsURL": usePermits ? rps + "/timePermit" : "", "timePermitsStorageURL": "", "usePermits": usePermits,
            "appID": appID, "requestOTP": false, "setDeviceName": false, "accessNumberDigits": 0, "useWebSocket": false,
        ])
    }

    private func service() -> HTTPResponse {
        CMStandIn.json(["name": "mfa-server MIRACL stand-in", "url": backendURL, "rps_prefix": "rps", "logo_url": baseURL + "/logo.png", "type": "online"])
    }

    /// A browser session: its access code is what follows `#` in the QR URL.
    func newSession() throws -> String {
        let code = Hex.encode(try random.bytes(count: 16))
        sessions[code] = Session()
        return code
    }

    private func authorize() throws -> HTTPResponse {
        let code = try newSession()
        return CMStandIn.json(["webOTT": Hex.encode(try random.bytes(count: 32)), "qrURL": backendURL + "#" + code, "accessURL": backendURL + "/rps/access"])
    }

    private func codeStatus(_ body: [String: Any]) throws -> HTTPResponse {
        guard let status = body["status"] as? String, let wid = body["wid"] as? String, var session = sessions[wid] else {
            throw CMStandIn.StandInError(412, "Invalid or expired access number")
        }
        switch status {
        case "wid":
            session.status = "wid"
            sessions[wid] = session
            return CMStandIn.json(["prerollId": session.userID ?? "", "appName": "mfa-server demo", "appLogoURL": "", "customerId": customerID,
                                   "customerName": "SwiftMFA", "customerLogoURL": ""])
        case "abort", "user":
            session.status = status
            if status == "user" { session.userID = body["userId"] as? String }
            sessions[wid] = session
            return CMStandIn.json(["status": "OK", "message": ""])
        default:
            throw CMStandIn.StandInError(400, "unknown status")
        }
    }

    // MARK: Helpers

    func hex(_ count: Int) throws -> String { Hex.encode(try random.bytes(count: count)) }

    static func point(_ text: Any?, _ name: String) throws -> BN254CX.G1 {
        guard let text = text as? String, let bytes = try? Hex.decode(text), let point = try? BN254CX.G1(encoded: bytes) else {
            throw CMStandIn.StandInError(400, "\(name) is not a BN254CX point")
        }
        return point
    }
}
