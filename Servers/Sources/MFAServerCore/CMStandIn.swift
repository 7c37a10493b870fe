// The `cm` service of mfa-server:
// one CM Authenticator environment host under `/cm/` — device registration with
// an SMS code (read through the admin API), environments linked by QR code, instant and OTP
// authentication requests, and the signed certificate list (docs/protocols/cm-authenticator.md §2–§6). Every
// environment call's HS256 bearer JWT is verified: signature under the environment secret,
// `nbf`/`exp` with 60 s leeway, `sig` over the exact body, `auth_id` on the answer (§5). The
// list is signed with a test RSA key the client is configured to trust. State in memory; the
// admin API is in CMStandIn+Admin.swift.

import CMAuthenticator
import CryptoPrimitives
import Foundation
import ProtocolSupport

/// One CM Authenticator service, answering by path below `cm/`.
public actor CMStandIn {
    struct Device {
        let id: String
        var phoneNumber: String?
        var status = "unverified"
        var smsCode: String?
        var pushToken: String?
        var pushEnabled = false
        var environments: Set<String> = []
    }

    struct Environment {
        let id: String
        let name: String
        let secret: [UInt8]
    }

    struct AuthenticationRequest {
        let id: String
        let environmentID: String
        let deviceID: String
        let kind: String
        let pin: String?
        let createdAt: Date
        let expiry: Int
        var status = "open"
    }

    var devices: [String: Device] = [:]
    var environments: [String: Environment] = [:]
    var requests: [String: AuthenticationRequest] = [:]
    var random = SystemRandomSource()
    /// Signs the certificate list (§6); its public key is what a test client trusts.
    let listKey: RSA.Signing.PrivateKey
    /// The pins the list serves: leaf SHA-256 hex and SPKI SHA-256 Base64 (set by the admin API
    /// to the TLS certificate in use; a placeholder on plain HTTP).
    var pins: [(hash: String?, spkiHash: String?)] = [(Hex.encode(SHA256.hash(data: Array("mfa-server serves plain HTTP".utf8)).bytes), nil)]
    /// When set, every `/cm/` answer is this fault instead (admin `fault`).
    var fault: String?

    /// A service signing its certificate list with `listKey`, or a fresh RSA-2048 key when it is nil.
    public init(listKey: RSA.Signing.PrivateKey? = nil) throws {
        self.listKey = try listKey ?? RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    /// How many devices have registered (a refused connection must not have added one).
    public var deviceCount: Int { devices.count }

    /// The public key clients must trust for the certificate list, DER (SPKI).
    public var listPublicKeyDER: [UInt8] { listKey.publicKey.derRepresentation }

    /// Serves `pins` in the signed list: a leaf certificate's DER SHA-256 (hex) and its SPKI's (Base64).
    public func setPins(_ pins: [(hash: String?, spkiHash: String?)]) { self.pins = pins }

    /// Answers `request` (path below the server root without the leading slash); nil for a path
    /// it does not serve.
    public func handle(_ request: HTTPRequest) -> HTTPResponse? {
        do {
            if request.path.hasPrefix("integration/cm/") { return try admin(request) }
            guard request.path.hasPrefix("cm/") else { return nil }
            if let fault { return Self.fault(fault) }
            let route = request.path.dropFirst("cm/".count).split(separator: "/").map(String.init)
            return try api(request, route: route)
        } catch let error as StandInError {
            return Self.error(error.status, error.message)
        } catch {
            return Self.error(400, "\(error)")
        }
    }

    private func api(_ request: HTTPRequest, route: [String]) throws -> HTTPResponse? {
        switch (request.method, route.count, route.first) {
        case (.get, 1, "certificate"): return try certificateList()
        case (.post, 1, "device"): return try updateDevice(id: nil, request)
        default: break
        }
        guard route.count >= 2, route[0] == "device" else { return nil }
        let deviceID = route[1]
        guard let device = devices[deviceID] else { throw StandInError(404, "no such device") }
        let rest = Array(route.dropFirst(2))
        let second = rest.count > 1 ? rest[1] : ""
        switch (request.method, rest.count, rest.first ?? "", rest.last ?? "") {
        case (.put, 0, _, _): return try updateDevice(id: deviceID, request)
        case (.get, 0, _, _): return registration(device)
        case (.get, 1, "environment", _):
            let linked = device.environments.sorted().compactMap { environments[$0] }
            return Self.json(linked.map { ["id": $0.id, "name": $0.name, "icon_url": NSNull()] as [String: Any] })
        case (.put, 2, "environment", _):
            let environmentID = second
            try verifyToken(request, environmentID: environmentID)
            devices[deviceID]?.environments.insert(environmentID)
            return HTTPResponse(status: 204)
        case (.delete, 2, "environment", _):
            let environmentID = second
            try verifyToken(request, environmentID: environmentID)
            devices[deviceID]?.environments.remove(environmentID)
            return HTTPResponse(status: 204)
        case (.get, 3, "environment", "auth"):
            let environmentID = second
            try verifyToken(request, environmentID: environmentID)
            let now = Date()
            let open = requests.values.filter {
                $0.deviceID == deviceID && $0.environmentID == environmentID && $0.status == "open" && now < $0.createdAt.addingTimeInterval(Double($0.expiry))
            }.sorted { $0.createdAt < $1.createdAt }
            return Self.json(open.map(Self.wire))
        case (.put, 2, "instant", _):
            let authID = second
            guard var authentication = requests[authID], authentication.deviceID == deviceID else { throw StandInError(404, "no such request") }
            try verifyToken(request, environmentID: authentication.environmentID, authID: authID)
            guard authentication.kind == "instant" else { throw StandInError(400, "only instant requests are answered") }
            guard Date() < authentication.createdAt.addingTimeInterval(Double(authentication.expiry)), authentication.status == "open" else {
                throw StandInError(410, "the request has expired")
            }
            let status = try Self.object(request.body ?? [])["auth_status"] as? String
            guard let status, status == "approved" || status == "denied" else { throw StandInError(400, "auth_status must be approved or denied") }
            authentication.status = status
            requests[authID] = authentication
            return Self.json(Self.wire(authentication))
        default:
            return nil
        }
    }

    /// §2: `POST /device` creates, `PUT /device/{id}` updates; a phone number sends an "SMS"
    /// (the code is read through the admin API), the right code verifies.
    private func updateDevice(id: String?, _ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request.body ?? [])
        guard body["app_key"] is String, body["platform"] is String else { throw StandInError(400, "app_key and platform are required") }
        var device = try id.flatMap { devices[$0] } ?? Device(id: UUID().uuidString.lowercased())
        if let phone = body["phone_number"] as? String {
            device.phoneNumber = phone
            device.status = "pending"
            device.smsCode = String(Int(try random.bytes(count: 2).reduce(0) { $0 << 8 | Int($1) }) % 90_000 + 10_000)
        }
        if let code = body["verification_code"] as? String {
            guard device.status == "pending", let expected = device.smsCode, code == expected else { throw StandInError(400, "invalid verification code") }
            device.status = "verified"
            device.smsCode = nil
        }
        if body["push_enabled"] != nil {
            device.pushToken = body["push_token"] as? String
            device.pushEnabled = body["push_enabled"] as? Bool ?? false
        }
        devices[device.id] = device
        return registration(device)
    }

    private func registration(_ device: Device) -> HTTPResponse {
        var answer: [String: Any] = ["id": device.id, "registration_status": device.status, "push_enabled": device.pushEnabled, "development": false]
        if let phone = device.phoneNumber { answer["phone_number"] = phone }
        return Self.json(answer)
    }

    /// §6: each pin's JSON, Base64, signed with RSASSA-PKCS1-v1_5 / SHA-256 over the decoded bytes.
    private func certificateList() throws -> HTTPResponse {
        let entries = try pins.map { pin -> [String: Any] in
            var object: [String: Any] = ["algorithm": "sha-256"]
            if let hash = pin.hash { object["hash"] = hash }
            if let spki = pin.spkiHash { object["spki_hash"] = spki }
            let data = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            return ["data": Base64.encode(data), "signature": Base64.encode(try listKey.signature(for: data, padding: .pkcs1v1_5).rawRepresentation)]
        }
        return Self.json(entries)
    }

    static func wire(_ request: AuthenticationRequest) -> [String: Any] {
        var object: [String: Any] = ["id": request.id, "auth_type": request.kind, "expiry": request.expiry, "ip": "127.0.0.1",
                                     "created_at": iso8601(request.createdAt), "auth_status": request.status,
                                     "geoip": ["country_code": "NL", "city": "Breda"]]
        if let pin = request.pin { object["pin"] = pin }
        return object
    }
}
