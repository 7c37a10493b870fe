// diff-powerauth-ecies: PowerAuth.encryptedRequest and its ResponseDecryptor (the client)
// against PowerAuthServer's application- and activation-scope decryption and ResponseEncryptor
// (docs/protocols/powerauth.md §9), for each version, sharedInfo1, scope and the 3.3 temporary key, with
// fuzzer-chosen plaintexts, timestamps and response nonces. Both directions must round-trip;
// then one field of the request or response envelope, its JSON bytes, or the server's choice of
// sharedInfo1 or scope changes. A change of a field the version uses must be refused with the one
// decryption error (§9.3); a change of a field it ignores (3.0's nonce, 3.0–3.1's timestamp,
// the response's nonce and timestamp before 3.2) must not change the plaintext.
import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthPair {
    typealias Opened = (plaintext: [UInt8], responseEncryptor: PowerAuth.ECIES.ResponseEncryptor)

    /// The server's decryption of a request body in one scope (§9.1).
    static func serverOpen(_ body: [UInt8], version: Int, activationScope: Bool, temporary: Bool,
                           sharedInfo1: PowerAuth.ECIES.SharedInfo1) -> Result<Opened, ProtocolError> {
        do throws(ProtocolError) {
            let temporaryKey = temporary ? (key: world.temporaryKey, id: world.temporaryKeyID) : nil
            if activationScope {
                return .success(try world.servers[version].decrypt(body, sharedInfo1: sharedInfo1, application: world.application,
                                                                   temporaryKey: temporaryKey))
            }
            let parameters = world.application.applicationScope(sharedInfo1, version: versions[version], temporaryKeyID: temporaryKey?.id)
            return .success(try PowerAuth.ECIES.RequestDecryptor(privateKey: temporaryKey?.key ?? world.application.masterAgreementKey,
                                                                 parameters: parameters).decrypt(PowerAuth.ECIES.Request(jsonBytes: body)))
        } catch {
            return .failure(error)
        }
    }

    /// The client's decryption of a response body.
    static func clientOpen(_ body: [UInt8], _ decryptor: PowerAuth.ECIES.ResponseDecryptor) -> Result<[UInt8], ProtocolError> {
        do throws(ProtocolError) {
            return .success(try decryptor.decrypt(PowerAuth.ECIES.Response(jsonBytes: body)))
        } catch {
            return .failure(error)
        }
    }

    /// Whether two requests agree on every field `version` reads (§9.2).
    static func sameRequest(_ a: PowerAuth.ECIES.Request, _ b: PowerAuth.ECIES.Request, _ version: PowerAuth.ProtocolVersion) -> Bool {
        a.ephemeralPublicKey == b.ephemeralPublicKey && a.encryptedData == b.encryptedData && a.mac == b.mac && a.temporaryKeyID == b.temporaryKeyID
            && (version < .v3_1 || a.nonce == b.nonce) && (version < .v3_2 || a.timestamp == b.timestamp)
    }

    /// Whether two responses agree on every field `version` reads (§9.3).
    static func sameResponse(_ a: PowerAuth.ECIES.Response, _ b: PowerAuth.ECIES.Response, _ version: PowerAuth.ProtocolVersion) -> Bool {
        a.encryptedData == b.encryptedData && a.mac == b.mac && (version < .v3_2 || (a.nonce == b.nonce && a.timestamp == b.timestamp))
    }

    /// A changed nonce: removed, added, or with one byte changed.
    static func changed(_ nonce: [UInt8]?, _ reader: inout ProtocolInput) -> [UInt8]? {
        switch (nonce, reader.flag()) {
        case (.some, true): return nil
        case (.none, _): return reader.bytes(16)
        case (.some(let bytes), false): return reader.mutate(bytes)
        }
    }

    /// A changed timestamp: removed, added, or different.
    static func changed(_ timestamp: UInt64?, _ reader: inout ProtocolInput) -> UInt64? {
        guard let timestamp else { return reader.word64() }
        return reader.flag() ? nil : timestamp ^ (reader.word64() | 1)
    }

    static func ecies(_ input: [UInt8]) {
        var reader = ProtocolInput(input)
        let versionIndex = reader.below(4)
        let version = versions[versionIndex]
        let activationScope = reader.flag()
        let temporary = reader.flag() && version >= .v3_3
        // The change is chosen up front, so that short inputs explore every kind of it.
        let direction = reader.below(4)
        let field = reader.below(7)
        let allSharedInfo = PowerAuth.ECIES.SharedInfo1.allCases
        let sharedInfo1 = allSharedInfo[reader.below(allSharedInfo.count)]
        let timestamp = reader.word64()
        let requestPlaintext = reader.chunk(maximum: 255)
        let responsePlaintext = reader.chunk(maximum: 255)
        let responseNonce = reader.bytes(16)
        let responseTimestamp = reader.word64()
        var random = SeededRandomSource(seed: reader.bytes(32))

        // The client encrypts to the key its own records name (§9.1).
        let encryptionKey: PowerAuth.EncryptionKey
        if temporary {
            encryptionKey = PowerAuth.EncryptionKey(publicKey: world.temporaryKey.publicKey, temporaryKeyID: world.temporaryKeyID)
        } else if activationScope {
            guard let key = try? P256.KeyAgreement.PublicKey(sec1Representation: world.client.serverPublicKey) else {
                FuzzTarget.violated("the stored server public key does not decode", input)
            }
            encryptionKey = PowerAuth.EncryptionKey(publicKey: key)
        } else {
            encryptionKey = PowerAuth.EncryptionKey(publicKey: P256.KeyAgreement.PublicKey(sameKeyAs: world.configuration.masterServerPublicKey))
        }
        let scope: PowerAuth.EncryptionScope = activationScope ? .activation(id: world.client.activationID, transportKey: world.transportKey) : .application
        let sent: (request: HTTPRequest, decryptor: PowerAuth.ECIES.ResponseDecryptor)
        do {
            sent = try PowerAuth.encryptedRequest(path: "/pa/v3/fuzz", plaintext: requestPlaintext, scope: scope, sharedInfo1: sharedInfo1,
                                                  configuration: world.configuration, encryptionKey: encryptionKey, version: version,
                                                  timestamp: timestamp, using: &random)
        } catch {
            FuzzTarget.violated("the client does not encrypt: \(error)", input)
        }
        let body = sent.request.body ?? []
        let what = "\(version) \(activationScope ? "activation" : "application") scope\(temporary ? ", temporary key" : "") \(sharedInfo1.rawValue)"

        // Both directions round-trip.
        let opened: Opened
        switch serverOpen(body, version: versionIndex, activationScope: activationScope, temporary: temporary, sharedInfo1: sharedInfo1) {
        case .success(let value): opened = value
        case .failure(let error): FuzzTarget.mismatch("ECIES \(what): the server refuses the client's request: \(error)", input)
        }
        guard opened.plaintext == requestPlaintext else { FuzzTarget.mismatch("ECIES \(what): the server reads another request plaintext", input) }
        let response: PowerAuth.ECIES.Response
        do {
            response = try opened.responseEncryptor.encrypt(responsePlaintext, nonce: responseNonce, timestamp: responseTimestamp)
        } catch {
            FuzzTarget.violated("the server does not encrypt its response: \(error)", input)
        }
        guard case .success(let answer) = clientOpen(response.json.bytes, sent.decryptor), answer == responsePlaintext else {
            FuzzTarget.mismatch("ECIES \(what): the client does not read the server's response", input)
        }
        guard let request = try? PowerAuth.ECIES.Request(jsonBytes: body) else {
            FuzzTarget.violated("the client's request body does not parse", input)
        }

        switch direction {
        case 0:
            // The request changes on its way to the server.
            var changedRequest = request
            var changedBody: [UInt8]?
            switch field {
            case 0: changedRequest.ephemeralPublicKey = reader.mutate(request.ephemeralPublicKey)
            case 1: changedRequest.encryptedData = reader.mutate(request.encryptedData)
            case 2: changedRequest.mac = reader.mutate(request.mac)
            case 3: changedRequest.nonce = changed(request.nonce, &reader)
            case 4: changedRequest.timestamp = changed(request.timestamp, &reader)
            case 5: changedRequest.temporaryKeyID = request.temporaryKeyID == nil ? reader.text(maximum: 12) : (reader.flag() ? nil : reader.mutate(world.temporaryKeyID))
            default: changedBody = reader.mutate(body)
            }
            let wire = changedBody ?? changedRequest.json.bytes
            let result = serverOpen(wire, version: versionIndex, activationScope: activationScope, temporary: temporary, sharedInfo1: sharedInfo1)
            // A body that does not parse can only be refused; one that parses is judged by its fields.
            guard let parsed = try? PowerAuth.ECIES.Request(jsonBytes: wire) else {
                if case .success = result { FuzzTarget.mismatch("ECIES \(what): the server decrypts a request body that does not parse", input) }
                return
            }
            var unauthenticatedIV = parsed
            unauthenticatedIV.nonce = request.nonce
            if version == .v3_1, parsed.nonce != request.nonce, parsed.nonce?.count == 16, sameRequest(unauthenticatedIV, request, version) {
                // 3.1 derives the IV from the nonce but does not MAC the nonce (SH2 is SH2_BASE
                // alone, §9.2): another nonce changes the first block and nothing else, or the
                // padding check refuses it. A protocol property, fixed in 3.2.
                switch result {
                case .success(let opened):
                    let tail = requestPlaintext.count >= 16 ? Array(requestPlaintext.dropFirst(16)) : nil
                    if let tail, Array(opened.plaintext.dropFirst(16)) != tail || opened.plaintext.count != requestPlaintext.count {
                        FuzzTarget.mismatch("ECIES \(what): another 3.1 nonce changes more than the first block", input)
                    }
                case .failure(let error):
                    if error.code != .decryptionFailed { FuzzTarget.mismatch("ECIES \(what): another 3.1 nonce fails with \(error)", input) }
                }
                return
            }
            judge(result.map { $0.plaintext }, same: sameRequest(parsed, request, version), expected: requestPlaintext, "request", what, input)
        case 1:
            // The response changes on its way to the client.
            var changedResponse = response
            var changedBody: [UInt8]?
            switch field % 5 {
            case 0: changedResponse.encryptedData = reader.mutate(response.encryptedData)
            case 1: changedResponse.mac = reader.mutate(response.mac)
            case 2: changedResponse.nonce = changed(response.nonce, &reader)
            case 3: changedResponse.timestamp = changed(response.timestamp, &reader)
            default: changedBody = reader.mutate(response.json.bytes)
            }
            let wire = changedBody ?? changedResponse.json.bytes
            let result = clientOpen(wire, sent.decryptor)
            guard let parsed = try? PowerAuth.ECIES.Response(jsonBytes: wire) else {
                if case .success = result { FuzzTarget.mismatch("ECIES \(what): the client decrypts a response body that does not parse", input) }
                return
            }
            judge(result, same: sameResponse(parsed, response, version), expected: responsePlaintext, "response", what, input)
        case 2:
            // The server reads the request with another sharedInfo1.
            let other = allSharedInfo[reader.below(allSharedInfo.count)]
            let result = serverOpen(body, version: versionIndex, activationScope: activationScope, temporary: temporary, sharedInfo1: other)
            judge(result.map { $0.plaintext }, same: other == sharedInfo1, expected: requestPlaintext, "request read as \(other.rawValue)", what, input)
        default:
            // The server reads the request in the other scope.
            let result = serverOpen(body, version: versionIndex, activationScope: !activationScope, temporary: temporary, sharedInfo1: sharedInfo1)
            judge(result.map { $0.plaintext }, same: false, expected: requestPlaintext, "request read in the other scope", what, input)
        }
    }

    /// Same fields: the same plaintext. Otherwise: the one decryption error.
    static func judge(_ result: Result<[UInt8], ProtocolError>, same: Bool, expected: [UInt8], _ direction: String, _ what: String, _ input: [UInt8]) {
        switch (result, same) {
        case (.success(let plaintext), true):
            if plaintext != expected { FuzzTarget.mismatch("ECIES \(what): an unchanged \(direction) decrypts to another plaintext", input) }
        case (.failure(let error), true):
            FuzzTarget.mismatch("ECIES \(what): a \(direction) changed only in ignored fields is refused: \(error)", input)
        case (.success, false):
            FuzzTarget.mismatch("ECIES \(what): a changed \(direction) decrypts", input)
        case (.failure(let error), false):
            if error.code != .decryptionFailed { FuzzTarget.mismatch("ECIES \(what): a changed \(direction) fails with \(error), not the one decryption error", input) }
        }
    }
}
