// The CM stand-in's admin API under `/integration/cm/` — what a test or a demo drives: a new
// environment and its QR code, the SMS code sent to a device, authentication requests (instant
// or OTP, optionally already expired) and their status, the certificate-list key to trust, the
// pins to serve, and faults.

import CryptoPrimitives
import Foundation
import ProtocolSupport

extension CMStandIn {
    func admin(_ request: HTTPRequest) throws -> HTTPResponse? {
        let input = (request.body ?? []).isEmpty ? [:] : try Self.object(request.body ?? [])
        switch request.path.dropFirst("integration/cm/".count) {
        case "environment":
            // {"name"?}: a new environment; its QR code is `<id>,<secret>` (§3.1).
            let id = UUID().uuidString.lowercased()
            let secret = Array(Base64.encode(try random.bytes(count: 24), alphabet: .urlSafe, padded: false).utf8)
            environments[id] = Environment(id: id, name: input["name"] as? String ?? "mfa-server website", secret: secret)
            return Self.json(["environment_id": id, "qr_code": id + "," + String(decoding: secret, as: UTF8.self)])
        case "sms":
            // {"device_id"}: the code the "SMS" carried.
            guard let id = input["device_id"] as? String, let device = devices[id] else { throw StandInError(404, "no such device") }
            return Self.json(["code": device.smsCode.map { $0 as Any } ?? NSNull(), "registration_status": device.status,
                              "push_enabled": device.pushEnabled, "push_token": device.pushToken.map { $0 as Any } ?? NSNull()])
        case "request":
            // {"environment_id", "device_id", "auth_type": "instant"|"otp", "expiry"? (s), "age"? (s already elapsed)}
            guard let environmentID = input["environment_id"] as? String, environments[environmentID] != nil,
                  let deviceID = input["device_id"] as? String, devices[deviceID]?.environments.contains(environmentID) == true else {
                throw StandInError(404, "no such linked environment and device")
            }
            let kind = input["auth_type"] as? String ?? "instant"
            let pin = kind == "otp" ? String(format: "%06d", Int(try random.bytes(count: 3).reduce(0) { $0 << 8 | Int($1) }) % 1_000_000) : nil
            let id = UUID().uuidString.lowercased()
            let created = Date().addingTimeInterval(-Double(input["age"] as? Int ?? 0))
            requests[id] = AuthenticationRequest(id: id, environmentID: environmentID, deviceID: deviceID, kind: kind, pin: pin,
                                                 createdAt: created, expiry: input["expiry"] as? Int ?? 120)
            return Self.json(["auth_id": id, "pin": pin.map { $0 as Any } ?? NSNull()])
        case "request/status":
            // {"auth_id", "expire"?: true}: the status, after expiring the request when asked.
            guard let id = input["auth_id"] as? String, requests[id] != nil else { throw StandInError(404, "no such request") }
            if input["expire"] as? Bool == true { requests[id]?.status = "expired" }
            return Self.json(["auth_status": requests[id]?.status ?? "expired"])
        case "list-key":
            return Self.json(["spki_der_base64": Base64.encode(listPublicKeyDER)])
        case "pins":
            // {"pins": [{"hash"?, "spki_hash"?}]}
            let given = input["pins"] as? [[String: Any]] ?? []
            pins = given.map { ($0["hash"] as? String, $0["spki_hash"] as? String) }
            return Self.json(["pins": pins.count])
        case "fault":
            // {"kind": "garbage"|"unavailable"|null}
            fault = input["kind"] as? String
            return Self.json(["fault": fault.map { $0 as Any } ?? NSNull()])
        default:
            return nil
        }
    }
}
