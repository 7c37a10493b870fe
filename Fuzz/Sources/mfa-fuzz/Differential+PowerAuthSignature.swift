// diff-powerauth-signature: PowerAuth.sign / offlineSignature / Token against
// PowerAuthServer.Activation.verify / verifyOffline / isValidTokenHeader (docs/protocols/powerauth.md §7, §11.3).
// First the client's own request must verify at the step the client is ahead (or be refused past
// the look-ahead window), move the server's counter to the client's, and not verify twice. Then
// one field or byte of what was sent changes, and the server's verdict must be the client's:
// the client recomputes the signature over the changed request at each counter of the window.
// A changed request that is still in the client's exact output format is judged both ways; any
// other shape only one way (whatever the server accepts, the client must have signed).
import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthPair {
    static func signatures(_ input: [UInt8]) {
        var reader = ProtocolInput(input)
        switch reader.below(3) {
        case 0: online(&reader, input)
        case 1: offline(&reader, input)
        default: token(&reader, input)
        }
    }

    static let headerKeys = ["pa_version", "pa_activation_id", "pa_application_key", "pa_nonce", "pa_signature_type", "pa_signature"]
    static let methods = ["POST", "GET", "PUT", "DELETE", "PATCH", "HEAD", "post", "Get"]

    /// The header in the client's format (§7.5) from field texts.
    static func renderOnline(_ f: [String: String]) -> String? {
        guard let v = f["pa_version"], let id = f["pa_activation_id"], let key = f["pa_application_key"], let nonce = f["pa_nonce"],
              let type = f["pa_signature_type"], let signature = f["pa_signature"] else { return nil }
        return "PowerAuth pa_version=\"\(v)\", pa_activation_id=\"\(id)\", pa_application_key=\"\(key)\", pa_nonce=\"\(nonce)\", "
            + "pa_signature_type=\"\(type)\", pa_signature=\"\(signature)\""
    }

    /// The client's recomputation (§7.2–§7.5): the first counter step in the window at which the
    /// header's fields sign this request, or nil.
    static func clientStep(_ f: [String: String], method: String, uriID: String, body: [UInt8], window: Int) -> Int? {
        guard f["pa_activation_id"] == world.client.activationID, HeaderFields.decodes(f["pa_nonce"], to: 16),
              f["pa_application_key"] == world.configuration.applicationKey,   // §7.5: this application's APP_KEY, as the server checks
              let nonce = f["pa_nonce"], let signature = f["pa_signature"],
              let factors = f["pa_signature_type"].flatMap(PowerAuth.SignatureFactors.init(rawValue:)),
              let version = f["pa_version"].flatMap(PowerAuth.ProtocolVersion.init(rawValue:)) else { return nil }
        let data = PowerAuth.NormalizedData.make(method: method, uriID: uriID, nonce: nonce, body: body, secret: world.configuration.applicationSecret)
        var activation = world.client
        for step in 0..<window {
            if let expected = try? PowerAuth.Signature.compute(data: data, counter: activation.counter, factors: factors, keys: world.keys,
                                                               format: version == .v3_0 ? .decimal(digits: 8) : .base64), expected == signature {
                return step
            }
            activation = activation.advanced
        }
        return nil
    }

    static func online(_ reader: inout ProtocolInput, _ input: [UInt8]) {
        let change = reader.below(11)   // chosen up front, so that short inputs explore every kind
        let version = versions[reader.below(4)]
        let factors = Self.factors[reader.below(6)]
        let window = 1 + reader.below(64)
        let ahead = reader.below(window + 3)
        var method = methods[reader.below(methods.count)]
        var uriID = reader.text(maximum: 48)
        let nonceBytes = reader.bytes(16)
        var body = reader.chunk(maximum: 255)
        let secret = world.application.applicationSecret
        var random = ChosenRandomSource(nonceBytes)
        let signed: PowerAuth.SignedRequest
        do {
            signed = try PowerAuth.sign(method: method, uriID: uriID, body: body, activation: client(after: ahead), factors: factors, keys: world.keys,
                                        configuration: world.configuration, version: version, using: &random)
        } catch {
            FuzzTarget.violated("the client does not sign: \(error)", input)
        }
        let header = signed.header.value
        var fields = HeaderFields.read(header, keys: headerKeys)
        guard renderOnline(fields) == header, fields["pa_nonce"] == Base64.encode(nonceBytes) else {
            FuzzTarget.mismatch("the client's header is not in the §7.5 format: \(header)", input)
        }
        // The client's own request: valid at the first step where the client's recomputation
        // matches — `ahead`, or earlier when a short decimal signature collides.
        var server = Self.server(window: window)
        let verdict = server.verify(header: header, method: method, uriID: uriID, body: body, applicationSecret: secret)
        let first = clientStep(fields, method: method, uriID: uriID, body: body, window: window)
        if ahead < window, (first ?? window) > ahead { FuzzTarget.violated("the client does not find its own signature at step \(ahead)", input) }
        let expected: PowerAuthServer.SignatureVerification = first.map { .valid(steps: $0) } ?? .invalid
        guard verdict == expected else {
            FuzzTarget.mismatch("online \(version) \(factors) \(ahead) ahead, window \(window): server \(verdict), client \(expected)", input)
        }
        if let first {
            guard server.counter == client(after: first + 1).counter, server.counterIndex == world.servers[3].counterIndex + first + 1 else {
                FuzzTarget.mismatch("online: the server's counter is not the client's after a valid signature", input)
            }
            if first == ahead, server.verify(header: header, method: method, uriID: uriID, body: body, applicationSecret: secret) != .invalid {
                FuzzTarget.mismatch("online: a replayed signature verifies", input)
            }
        }
        // One change.
        var sent = header
        switch change {
        case 0: body = reader.mutate(body)
        case 1: uriID = reader.mutate(uriID)
        case 2: method = methods[reader.below(methods.count)]
        case 3: fields["pa_nonce"] = Base64.encode(reader.mutate(nonceBytes))
        case 4: fields["pa_signature_type"] = factors.rawValue == "possession" ? "possession_knowledge" : reader.mutate(factors.rawValue)
        case 5: fields["pa_signature"] = reader.mutate(fields["pa_signature"] ?? "")
        case 6: fields["pa_version"] = versions[reader.below(4)].rawValue
        case 7: fields["pa_activation_id"] = reader.mutate(world.client.activationID)
        case 8: fields["pa_application_key"] = Base64.encode(reader.mutate(reader.bytes(16)))
        case 9:
            // The same request signed with a knowledge key from a wrong password.
            var wrong = ChosenRandomSource(nonceBytes)
            do {
                sent = try PowerAuth.sign(method: method, uriID: uriID, body: body, activation: client(after: ahead), factors: factors,
                                          keys: world.wrongPasswordKeys, configuration: world.configuration, version: version, using: &wrong).header.value
            } catch {
                FuzzTarget.violated("the client does not sign with the wrong password's key: \(error)", input)
            }
        default: sent = reader.mutate(header)
        }
        if change < 9, let rendered = renderOnline(fields) { sent = rendered }
        var fresh = Self.server(window: window)
        let changed = fresh.verify(header: sent, method: method, uriID: uriID, body: body, applicationSecret: secret)
        let read = HeaderFields.read(sent, keys: headerKeys)
        let step = clientStep(read, method: method, uriID: uriID, body: body, window: window)
        let canonical = renderOnline(read) == sent
        switch changed {
        case .valid(let steps):
            guard steps == step else {
                FuzzTarget.mismatch("online: the server accepts at step \(steps) what the client signed at \(String(describing: step)): \(sent) \(method) \(uriID)", input)
            }
            guard fresh.counter == client(after: steps + 1).counter else {
                FuzzTarget.mismatch("online: the server's counter after a changed request is not the client's", input)
            }
        case .invalid, .notActive:
            if canonical, let step {
                FuzzTarget.mismatch("online: the server refuses (\(changed)) what the client signs at step \(step): \(sent)", input)
            }
        }
    }

    static func offline(_ reader: inout ProtocolInput, _ input: [UInt8]) {
        let change = reader.below(5)
        let factors = Self.factors[reader.below(6)]
        let window = 1 + reader.below(64)
        let ahead = reader.below(window + 3)
        let digits = 4 + reader.below(5)
        var nonce = Base64.encode(reader.bytes(16))
        var uriID = reader.flag() ? reader.text(maximum: 48) : "/operation/authorize/offline"
        var data = reader.chunk(maximum: 255)
        let signed: (signature: String, next: PowerAuth.ActivationData)
        do {
            signed = try PowerAuth.offlineSignature(uriID: uriID, nonce: nonce, data: data, activation: client(after: ahead), factors: factors,
                                                    keys: world.keys, digits: digits)
        } catch {
            FuzzTarget.violated("the client does not sign offline: \(error)", input)
        }
        // Valid at the first step where the client's recomputation matches: `ahead`, or earlier
        // when the short decimal code collides (about window / 10^digits of the time).
        var server = Self.server(window: window)
        let verdict = server.verifyOffline(signed.signature, factors: factors, nonce: nonce, data: data, uriID: uriID)
        let first = offlineStep(signed.signature, factors: factors, nonce: nonce, data: data, uriID: uriID, window: window)
        if ahead < window, (first ?? window) > ahead { FuzzTarget.violated("the client does not find its own offline signature", input) }
        let expected: PowerAuthServer.SignatureVerification = first.map { .valid(steps: $0) } ?? .invalid
        guard verdict == expected else {
            FuzzTarget.mismatch("offline \(factors) \(digits) digits, \(ahead) ahead, window \(window): server \(verdict), client \(expected)", input)
        }
        if let first, server.counter != client(after: first + 1).counter {
            FuzzTarget.mismatch("offline: the server's counter is not the client's after a valid signature", input)
        }
        var signature = signed.signature
        var changedFactors = factors
        switch change {
        case 0: data = reader.mutate(data)
        case 1: nonce = reader.mutate(nonce)
        case 2: uriID = reader.mutate(uriID)
        case 3: changedFactors = Self.factors[reader.below(6)]
        default: signature = reader.mutate(signature)
        }
        var fresh = Self.server(window: window)
        let changed = fresh.verifyOffline(signature, factors: changedFactors, nonce: nonce, data: data, uriID: uriID)
        let step = offlineStep(signature, factors: changedFactors, nonce: nonce, data: data, uriID: uriID, window: window)
        let verdictStep: Int? = if case .valid(let steps) = changed { steps } else { nil }
        guard verdictStep == step else {
            FuzzTarget.mismatch("offline: server \(changed), client step \(String(describing: step)) for \(signature) \(nonce) \(uriID)", input)
        }
    }

    /// The client's recomputation (§7.6): the first step of the window at which it makes this
    /// offline signature (with as many digits as its first group), or nil.
    static func offlineStep(_ signature: String, factors: PowerAuth.SignatureFactors, nonce: String, data: [UInt8], uriID: String,
                            window: Int) -> Int? {
        let digits = signature.split(separator: "-", omittingEmptySubsequences: false).first?.utf8.count ?? 0
        guard (4...8).contains(digits) else { return nil }
        var activation = world.client
        for step in 0..<window {
            if let made = try? PowerAuth.offlineSignature(uriID: uriID, nonce: nonce, data: data, activation: activation, factors: factors,
                                                          keys: world.keys, digits: digits), made.signature == signature {
                return step
            }
            activation = activation.advanced
        }
        return nil
    }

    static let tokenKeys = ["version", "token_id", "token_digest", "nonce", "timestamp"]

    /// The token header in the client's format (§11.3) from field texts.
    static func renderToken(_ f: [String: String]) -> String? {
        guard let v = f["version"], let id = f["token_id"], let digest = f["token_digest"], let nonce = f["nonce"], let ts = f["timestamp"] else { return nil }
        return "PowerAuth version=\"\(v)\", token_id=\"\(id)\", token_digest=\"\(digest)\", nonce=\"\(nonce)\", timestamp=\"\(ts)\""
    }

    /// The client's judgement of a token header (§11.3): its id, a 16-byte nonce, a 9–15-digit
    /// timestamp within a minute of `now`, a known version, and the digest it computes itself.
    static func clientAccepts(_ f: [String: String], token: PowerAuth.Token, now: UInt64) -> Bool {
        guard f["token_id"] == token.id, let nonce = f["nonce"].flatMap({ try? Base64.decode($0) }), nonce.count == 16,
              let text = f["timestamp"], (9...15).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let timestamp = UInt64(text), let version = f["version"].flatMap(PowerAuth.ProtocolVersion.init(rawValue:)),
              let digest = f["token_digest"] else { return false }
        guard max(timestamp, now) - min(timestamp, now) <= 60_000 else { return false }
        return (try? Base64.decode(digest)) == token.digest(nonce: nonce, timestamp: timestamp, version: version)
    }

    static func token(_ reader: inout ProtocolInput, _ input: [UInt8]) {
        let change = reader.below(6)
        let id = uuid(reader.bytes(16))
        var random = SeededRandomSource(seed: reader.bytes(32))
        let version = versions[reader.below(4)]
        let nonce = reader.bytes(16)
        let timestamp = reader.flag() ? 1_600_000_000_000 + UInt64(reader.word32()) * 997 : reader.word64() >> UInt64(reader.below(64))
        let skew = Int64(Int32(bitPattern: reader.word32()) % 90_000)
        let now = skew < 0 ? timestamp.subtractingReportingOverflow(UInt64(-skew)).partialValue : timestamp.addingReportingOverflow(UInt64(skew)).partialValue
        let issued: (token: PowerAuth.Token, plaintext: [UInt8])
        let received: PowerAuth.Token
        do {
            issued = try PowerAuthServer.issueToken(id: id, using: &random)
            received = try PowerAuth.token(from: issued.plaintext)
        } catch {
            FuzzTarget.mismatch("the client does not read the server's token: \(error)", input)
        }
        let header = received.headerValue(nonce: nonce, timestamp: timestamp, version: version)
        var fields = HeaderFields.read(header, keys: tokenKeys)
        guard renderToken(fields) == header else { FuzzTarget.mismatch("the token header is not in the §11.3 format: \(header)", input) }
        let verdict = PowerAuthServer.isValidTokenHeader(header, token: issued.token, now: now)
        guard verdict == clientAccepts(fields, token: received, now: now) else {
            FuzzTarget.mismatch("token \(version) at \(timestamp), now \(now): server \(verdict)", input)
        }
        var sent = header
        switch change {
        case 0: fields["nonce"] = Base64.encode(reader.mutate(nonce))
        case 1: fields["timestamp"] = reader.mutate(fields["timestamp"] ?? "")
        case 2: fields["version"] = versions[reader.below(4)].rawValue
        case 3: fields["token_id"] = reader.mutate(id)
        case 4: fields["token_digest"] = reader.mutate(fields["token_digest"] ?? "")
        default: sent = reader.mutate(header)
        }
        if sent == header, let rendered = renderToken(fields) { sent = rendered }
        let read = HeaderFields.read(sent, keys: tokenKeys)
        let accepted = PowerAuthServer.isValidTokenHeader(sent, token: issued.token, now: now)
        let predicted = clientAccepts(read, token: received, now: now)
        if accepted ? !predicted : (predicted && renderToken(read) == sent) {
            FuzzTarget.mismatch("token: server \(accepted), client \(predicted) for \(sent) at now \(now)", input)
        }
    }
}
