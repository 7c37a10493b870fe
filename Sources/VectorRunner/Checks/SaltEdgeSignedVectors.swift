// The signed-request members of `saltedge/derived_vectors.json`: every body rebuilt from its
// inputs with our request builders must equal the recorded bytes, with the same
// `x-jws-signature`; the confirm payload decrypts with the provider key to the recorded JSON.

import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SaltEdge
import VectorFormats

extension SaltEdgeDerivedVectors {
    static func checkConfirm(_ entry: JSONValue?, _ requests: SaltEdge.Requests, provider: SaltEdge.ConnectionKey, _ log: inout CaseLog) {
        let id = "confirm_request"
        guard let entry, let body = entry["body"]?.string, let inner = entry["inner_plaintext"]?.string,
              let signature = entry["x_jws_signature"]?.string,
              let parsed = try? JSONValue.parse(Data(body.utf8)), let exp = parsed["exp"]?.int,
              let bundle = SaltEdgeFiles.bundle(parsed["data"]),
              let payload = try? JSONValue.parse(Data(inner.utf8)) else { return log.fail(id, "", expected: "fields", got: "missing") }
        SaltEdgeFiles.checkDecryption(bundle, with: provider, expected: entry, plaintext: inner, id: id, &log)

        // The inner payload from its three inputs.
        let location = (payload["geolocation"]?.string ?? "").dropFirst(4).split(separator: ";").map(String.init)
        let geolocation = location.count == 2 ? try? SaltEdge.Geolocation(latitude: location[0], longitude: location[1]) : nil
        let decision = SaltEdge.Decision(
            authorizationID: "444", isConfirmation: true, authorizationCode: payload["authorization_code"]?.string ?? "",
            userAuthorizationType: .init(rawValue: payload["user_authorization_type"]?.string ?? ""), geolocation: geolocation)
        log.expect(decision.payload.bytes, equals: Array(inner.utf8), id, "inner payload bytes")

        let request = try? requests.answer(decision, encryptedPayload: bundle, now: Date(timeIntervalSince1970: Double(exp - 300)))
        log.expect(request?.body ?? [], equals: Array(body.utf8), id, "body bytes")
        log.expect(request?.header("x-jws-signature") == signature, id, "x-jws-signature", expected: signature, got: request?.header("x-jws-signature") ?? "none")
        log.expect(request.map { "\($0.method) \($0.path)" } == "PUT api/authenticator/v2/authorizations/444/confirm", id, "route",
                   expected: "PUT …/authorizations/444/confirm", got: request.map { "\($0.method) \($0.path)" } ?? "none")
        let signingInput = entry["jws_signing_input"]?.string ?? ""
        log.expect(signingInput == "eyJhbGciOiJSUzI1NiJ9." + Base64.encode(Array(body.utf8), alphabet: .urlSafe, padded: false), id,
                   "signing input", expected: signingInput, got: "header.b64url(body)")
    }

    static func checkJWS(_ entry: JSONValue?, _ requests: SaltEdge.Requests, _ log: inout CaseLog) {
        guard let entry = entry?.object else { return log.fail("jws_vectors", "", expected: "object", got: "missing") }
        for (name, vector) in entry.sorted(by: { $0.key < $1.key }) where !name.hasPrefix("_") {
            guard let body = vector["body"]?.string, let signature = vector["x_jws_signature"]?.string,
                  let parsed = try? JSONValue.parse(Data(body.utf8)), let exp = parsed["exp"]?.int, let data = parsed["data"] else {
                log.fail(name, "", expected: "body, exp and signature", got: "missing")
                continue
            }
            let now = Date(timeIntervalSince1970: Double(exp - 300))
            let request: HTTPRequest?
            switch name {
            case "revoke_empty_data_body":
                request = try? requests.revokeConnection(now: now)
            case "create_authorization_for_action_body":
                request = try? requests.submitInstantAction(actionID: data["action_id"]?.string ?? "", providerID: data["provider_id"]?.string ?? "", now: now)
            case "update_push_token_body":
                request = try? requests.updatePushToken(data["push_token"]?.string ?? "", now: now)
            default:
                log.fail(name, "", expected: "a known request", got: "unknown vector")
                continue
            }
            log.expect(request?.body ?? [], equals: Array(body.utf8), name, "body bytes")
            log.expect(request?.header("x-jws-signature") == signature, name, "x-jws-signature", expected: signature, got: request?.header("x-jws-signature") ?? "none")
            let verified = SaltEdge.isValidDetachedSignature(signature, for: Array(body.utf8), publicKey: requests.connection.key.publicKey)
            log.expect(verified, name, "verifies", expected: "valid", got: "invalid")
        }
    }
}

enum SaltEdgeDeepLinkVectors {
    static func check(_ entry: JSONValue?, _ log: inout CaseLog) {
        guard let entry else { return log.fail("deep_links", "", expected: "object", got: "missing") }
        for (group, expected) in [("connect", "connect"), ("action_v2_valid", "action_v2"), ("action_v2_invalid_missing_action_id", "invalid"),
                                  ("action_v1", "action_v1"), ("action_v1_invalid", "invalid"), ("invalid", "invalid")] {
            for (index, link) in log.strings(entry[group], "deep_links.\(group)").enumerated() {
                let id = "deep_links.\(group)[\(index)]"
                let parsed = try? SaltEdge.DeepLink(parsing: link)
                let kind: String
                switch parsed {
                case .connect(let url, _, _)?: kind = url.hasPrefix("https://") ? "connect" : "connect?"
                case .instantAction?: kind = "action_v2"
                case .legacyInstantAction?: kind = "action_v1"
                case nil: kind = "invalid"
                }
                log.expect(kind == expected, id, link, expected: expected, got: kind)
            }
        }
        // The connect links' details, as the SDK tests state them.
        let detailed = (entry["connect"]?.array ?? []).compactMap(\.string).map { try? SaltEdge.DeepLink(parsing: $0) }
        let queries = detailed.map { link -> String in
            if case .connect(_, let query, _)? = link { return query ?? "-" }
            return "invalid"
        }
        log.expect(queries == ["-", "A12345678", "1234567890"], "deep_links.connect", "connect_query", expected: "-, A12345678, 1234567890", got: queries.joined(separator: ", "))
        let action = (entry["action_v2_valid"]?.array?.first?.string).flatMap { try? SaltEdge.DeepLink(parsing: $0) }
        log.expect(action == .instantAction(actionID: "1", providerID: "1", returnTo: "http://return.com"), "deep_links.action_v2_valid", "fields",
                   expected: "action 1, provider 1, return_to http://return.com", got: "\(String(describing: action))")
    }
}
