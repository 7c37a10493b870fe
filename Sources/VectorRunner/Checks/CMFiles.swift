// The CM Authenticator vectors (vectors/cm/README.md): HS256 bearer tokens in both official
// shapes, the QR samples, and the SDK constants our code embeds.

import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import VectorFormats

enum CMFiles {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "jwt_vectors.json" where json["device_secret_utf8"] != nil: checkJWT
        case "qr_samples.json" where json["cases"] != nil: checkQR
        case "sdk_constants.json" where json["certificate_list_signing_key"] != nil: checkConstants
        default: nil
        }
    }

    /// The `iat` of a payload JSON text.
    private static func issued(_ payload: String?) -> Date? {
        (payload.flatMap { try? JSONValue.parse(Data($0.utf8)) }?["iat"]?.int).map { Date(timeIntervalSince1970: Double($0)) }
    }

    static func checkJWT(_ json: JSONValue, _ log: inout CaseLog) {
        guard let secretText = json["device_secret_utf8"]?.string else { return log.fileError("no secret") }
        let environment = CMAuthenticator.Environment(
            id: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b",
            secret: CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes(secretText.utf8)))
        let client = CMAuthenticator.ClientDescription(userAgent: "mfa vectors")

        if let ios = json["ios_style_default_claims"], let jwt = ios["jwt"]?.string, let now = issued(ios["payload_json"]?.string) {
            do {
                let token = try CMAuthenticator.bearerToken(secret: environment.secret, now: now, style: .iOS)
                log.expect(token == jwt, "ios_style_default_claims", "token", expected: jwt, got: token)
                let request = try CMAuthenticator.Requests(deviceID: "device-1", client: client, tokenStyle: .iOS).pendingAuthentication(in: environment, now: now)
                let header = ios["authorization_header"]?.string
                log.expect(authorization(request) == header, "ios_style_default_claims", "Authorization header", expected: header ?? "", got: authorization(request) ?? "none")
            } catch {
                log.fail("ios_style_default_claims", "", expected: jwt, got: "\(error)")
            }
        } else {
            log.fail("ios_style_default_claims", "", expected: "jwt and payload", got: "missing")
        }

        if let android = json["android_style_update_status"], let jwt = android["jwt"]?.string,
           let now = issued(android["payload_json"]?.string), let path = android["request"]?["path"]?.string,
           let body = android["request"]?["body"]?.string {
            let authID = String(path.split(separator: "/").last ?? "")
            let id = "android_style_update_status"
            do {
                let request = try CMAuthenticator.Requests(deviceID: "device-1", client: client).answer(.approved, toRequestID: authID, in: environment, now: now)
                log.expect(request.body ?? [], equals: Array(body.utf8), id, "body")
                log.expect(authorization(request) == "Bearer " + jwt, id, "Authorization header", expected: "Bearer " + jwt, got: authorization(request) ?? "none")
                log.expect(request.method == .put && request.path == "device/device-1/instant/" + authID, id, "route",
                           expected: "PUT device/{id}/instant/\(authID)", got: "\(request.method) \(request.path)")
            } catch {
                log.fail(id, "", expected: jwt, got: "\(error)")
            }
            let mac = HMAC<SHA256>.authenticationCode(for: Array(body.utf8), using: SymmetricKey(data: Array(secretText.utf8)))
            log.expect(HexText.string(mac.bytes) == android["body_hmac_sha256_hex"]?.string, id, "sig", expected: android["body_hmac_sha256_hex"]?.string ?? "", got: HexText.string(mac.bytes))
        } else {
            log.fail("android_style_update_status", "", expected: "jwt, payload and request", got: "missing")
        }

        if let empty = json["android_style_no_body"], let jwt = empty["jwt"]?.string, let now = issued(empty["payload_json"]?.string) {
            do {
                let token = try CMAuthenticator.bearerToken(secret: environment.secret, now: now)
                log.expect(token == jwt, "android_style_no_body", "token", expected: jwt, got: token)
                let request = try CMAuthenticator.Requests(deviceID: "device-1", client: client).registerEnvironment(environment, now: now)
                log.expect(authorization(request) == "Bearer " + jwt && request.body == nil, "android_style_no_body", "register request",
                           expected: "Bearer " + jwt, got: authorization(request) ?? "none")
            } catch {
                log.fail("android_style_no_body", "", expected: jwt, got: "\(error)")
            }
        } else {
            log.fail("android_style_no_body", "", expected: "jwt and payload", got: "missing")
        }
    }

    static func checkQR(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["cases"], "cases").enumerated() {
            guard let qr = entry["qr"]?.string, let valid = entry["valid"]?.bool else {
                log.fail("case \(index)", "", expected: "qr and valid", got: "missing")
                continue
            }
            let id = "case \(index) \(qr)"
            let parsed = try? CMAuthenticator.Environment(qrCode: qr)
            guard valid else {
                log.expect(parsed == nil, id, entry["note"]?.string ?? "", expected: "invalid", got: "parsed")
                continue
            }
            // Where the SDKs disagree we follow Android (docs/protocols/cm-authenticator.md §3.1).
            let secret = entry["secret"]?.string ?? entry["secret_android"]?.string
            let got = parsed.map { "\($0.id),\(String(decoding: $0.secret.softwareSecret?.unsafeExposedBytes ?? [], as: UTF8.self))" }
            let expected = "\(entry["environment_id"]?.string ?? "?"),\(secret ?? "?")"
            log.expect(got == expected, id, entry["note"]?.string ?? "", expected: expected, got: got ?? "invalid")
        }
    }

    static func checkConstants(_ json: JSONValue, _ log: inout CaseLog) {
        let keys = json["certificate_list_signing_key"]
        let pkcs1 = (keys?["pkcs1_rsapublickey_der_base64_ios"]?.string).flatMap { try? Base64.decode($0) } ?? []
        let spki = (keys?["spki_der_base64_android"]?.string).flatMap { try? Base64.decode($0) } ?? []
        let embedded = try? CMAuthenticator.certificateListKey()
        let fromPKCS1 = try? RSA.Signing.PublicKey(derRepresentation: pkcs1)
        let fromSPKI = try? RSA.Signing.PublicKey(derRepresentation: spki)
        log.expect(embedded?.modulus == fromPKCS1?.modulus && embedded?.keySizeInBits == 2048, "signing key", "embedded = iOS PKCS #1",
                   expected: "same modulus", got: embedded == nil ? "not loaded" : "different")
        log.expect(fromSPKI?.modulus == fromPKCS1?.modulus && fromSPKI?.publicExponent == fromPKCS1?.publicExponent, "signing key",
                   "Android SPKI = iOS PKCS #1", expected: "same key", got: "different")
        log.expect(embedded?.derRepresentation ?? [], equals: spki, "signing key", "our SPKI encoding")
        log.expect(json["api_base_url_device_sdk"]?.string == CMAuthenticator.defaultBaseURL, "base URL", expected: CMAuthenticator.defaultBaseURL,
                   got: json["api_base_url_device_sdk"]?.string ?? "")
        log.expect(json["jwt"]?["lifetime_seconds"]?.int == Int(CMAuthenticator.tokenLifetime), "jwt lifetime", expected: "60", got: "\(json["jwt"]?["lifetime_seconds"]?.int ?? -1)")
        log.expect(json["tls_pinning"]?["refresh_interval_seconds"]?.int == Int(CMAuthenticator.certificateRefreshInterval), "refresh interval",
                   expected: "3600", got: "\(json["tls_pinning"]?["refresh_interval_seconds"]?.int ?? -1)")
        log.expect(json["default_expiry_seconds_if_missing_android"]?.int == Int(CMAuthenticator.defaultRequestExpiry), "default expiry",
                   expected: "60", got: "\(json["default_expiry_seconds_if_missing_android"]?.int ?? -1)")
        let statuses = json["enums"]?["registration_status"]?.array?.compactMap(\.string) ?? []
        let ours = [CMAuthenticator.DeviceRegistration.Status.unverified, .pending, .verified].map(\.rawValue)
        log.expect(statuses == ours, "registration_status", expected: statuses.joined(separator: ","), got: ours.joined(separator: ","))
        let answers = json["enums"]?["client_settable_auth_status"]?.array?.compactMap(\.string) ?? []
        log.expect(answers == [CMAuthenticator.Answer.approved.rawValue, CMAuthenticator.Answer.denied.rawValue], "client_settable_auth_status",
                   expected: answers.joined(separator: ","), got: "approved,denied")
        let iosPins = json["tls_pinning"]?["ios_default_leaf_cert_der_sha256_hex"]?.array?.compactMap(\.string) ?? []
        log.expect(!iosPins.isEmpty && iosPins.allSatisfy { (try? HexText.bytes($0))?.count == 32 && $0 == $0.lowercased() }, "ios pins",
                   expected: "lower-case hex SHA-256", got: iosPins.joined(separator: ","))
        let androidPin = json["tls_pinning"]?["android_initial_spki_pin"]?.string ?? ""
        let pinBytes = androidPin.hasPrefix("sha256/") ? try? Base64.decode(androidPin.dropFirst(7)) : nil
        log.expect(pinBytes?.count == 32, "android pin", expected: "sha256/<Base64 of 32 bytes>", got: androidPin)
    }
}

/// The bearer field a request carries, revealed to compare it with a vector file's.
private func authorization(_ request: HTTPRequest) -> String? {
    request.secretHeader("Authorization").map { String(decoding: $0.unsafeExposedBytes, as: UTF8.self) }
}
