// Signed traffic (docs/protocols/powerauth.md §7, §16
// "Serialization"; docs/protocols/sdk-surfaces.md §1.5): one counter-consuming request in flight per client,
// the signature computed inside the serialised step, the advanced counter written and fsynced
// before the request leaves. Across processes the store's flock orders the counters.

public import AuthNetworking
import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthClient {
    // MARK: The serial queue (`executeOperation(onSerialQueue:)`, `executeBlock(onSerialQueue:)`)

    /// Runs `operation` alone on this client's serial queue, shared with the SDK's own signed
    /// calls (token creation, vault unlock, removal, …): compute a signature with
    /// ``requestSignature(method:uriID:body:factors:authentication:)`` inside it and send the
    /// request before it returns. FIFO; a waiting caller cannot be overtaken. Re-entrant: the
    /// SDK's own signed calls made from inside `operation` (creating a token, for example) run
    /// in the slot `operation` already holds instead of waiting for it forever.
    ///
    /// - Parameter operation: The work to run alone on the queue; it signs and sends its requests before it
    ///   returns.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws, unchanged; the queue itself throws nothing.
    public func executeOnSerialQueue<Output: Sendable>(_ operation: @Sendable () async throws -> Output) async throws -> Output {
        if holdsQueue { return try await operation() }
        await enterQueue()
        defer { leaveQueue() }
        return try await Self.$queueHolder.withValue(ObjectIdentifier(self)) { try await operation() }
    }

    /// Runs `body` on the serial queue with typed errors (the SDK's own use); re-entrant like
    /// ``executeOnSerialQueue(_:)``.
    func serially<Output>(_ body: () async throws(PowerAuthSDKError) -> Output) async throws(PowerAuthSDKError) -> Output {
        if holdsQueue { return try await body() }
        await enterQueue()
        defer { leaveQueue() }
        let result: Result<Output, PowerAuthSDKError> = await Self.$queueHolder.withValue(ObjectIdentifier(self)) {
            do throws(PowerAuthSDKError) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The client whose serial queue the current task (or the task that started it) holds.
    @TaskLocal static var queueHolder: ObjectIdentifier?

    /// Whether the current task runs inside this client's serial queue.
    private var holdsQueue: Bool { Self.queueHolder == ObjectIdentifier(self) }

    private func enterQueue() async {
        guard queueBusy else {
            queueBusy = true
            return
        }
        await withCheckedContinuation { queueWaiters.append($0) }  // the leaver hands the queue over
    }

    private func leaveQueue() {
        if queueWaiters.isEmpty { queueBusy = false } else { queueWaiters.removeFirst().resume() }
    }

    // MARK: Signatures the caller sends

    /// The `X-PowerAuth-Authorization` header for a request (`requestSignature`, §7.2–§7.5): the
    /// counter is advanced and fsynced before the header is returned. `body` is the exact body
    /// (empty for none). Send it from inside ``executeOnSerialQueue(_:)`` so that signatures reach
    /// the server in counter order.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the request, for example `POST`.
    ///   - uriID: The URI identifier agreed with the server for the endpoint.
    ///   - body: The exact request body; empty for none.
    ///   - factors: The factors to sign with.
    ///   - authentication: The secrets that unlock the keys of the factors to sign with.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the keys `factors` needs, `signing` when the signature cannot be
    ///   computed, `store` when the store cannot be locked, read or written.
    public func requestSignature(method: String, uriID: String, body: [UInt8], factors: PowerAuth.SignatureFactors,
                                 authentication: Authentication) throws(PowerAuthSDKError) -> HTTPHeader {
        try activations.sign(method: method, uriID: uriID, body: body, factors: factors, authentication: authentication,
                             configuration: configuration.core, random: randomSource)
    }

    /// The header for a GET (`requestGetSignature`): the query parameters are canonicalised
    /// (sorted, form-encoded, §7.2) and signed as the body.
    ///
    /// - Parameters:
    ///   - uriID: The URI identifier agreed with the server for the endpoint.
    ///   - query: The query parameters as name–value pairs, canonicalised before they are signed.
    ///   - factors: The factors to sign with.
    ///   - authentication: The secrets that unlock the keys of the factors to sign with.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the keys `factors` needs, `signing` when the signature cannot be
    ///   computed, `store` when the store cannot be locked, read or written.
    public func requestGetSignature(uriID: String, query: [(String, String)], factors: PowerAuth.SignatureFactors,
                                    authentication: Authentication) throws(PowerAuthSDKError) -> HTTPHeader {
        try requestSignature(method: "GET", uriID: uriID, body: Array(PowerAuth.NormalizedData.canonicalQuery(query).utf8),
                             factors: factors, authentication: authentication)
    }

    /// Signs `request` and sends it, on the serial queue: POST/PUT/DELETE sign the body, GET
    /// signs the canonical form of `request.query` (§7.2). The answer is returned whatever its
    /// status; a transport failure is `PowerAuthSDKError.Code.transport` (the counter has
    /// moved: the server's look-ahead window absorbs a request that never arrived).
    ///
    /// - Parameters:
    ///   - request: The request to sign and send.
    ///   - uriID: The URI identifier agreed with the server for the endpoint.
    ///   - factors: The factors to sign with.
    ///   - authentication: The secrets that unlock the keys of the factors to sign with.
    /// - Returns: The server's answer, whatever its HTTP status.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the keys `factors` needs, `signing` when the signature cannot be
    ///   computed, `transport` when no answer arrives, `store` when the store cannot be locked, read or
    ///   written.
    public func sendSignedRequest(_ request: HTTPRequest, uriID: String, factors: PowerAuth.SignatureFactors,
                                  authentication: Authentication) async throws(PowerAuthSDKError) -> HTTPResponse {
        try await serially { () async throws(PowerAuthSDKError) -> HTTPResponse in
            let signed: [UInt8]
            if request.method == .get {
                // The canonical form is text: a secret query value is signed as what is sent.
                signed = Array(PowerAuth.NormalizedData.canonicalQuery(request.query.map { item in
                    (item.name, item.withValueBytes { String(decoding: $0, as: UTF8.self) })
                }).utf8)
            } else {
                signed = request.body ?? []
            }
            var outgoing = request
            outgoing.headers.append(try requestSignature(method: request.method.rawValue, uriID: uriID, body: signed, factors: factors,
                                                         authentication: authentication))
            return try await send(outgoing)
        }
    }

    /// An offline signature for a code shown out of band (`offlineSignature`, §7.6): 8 digits
    /// per factor by default. Consumes a counter step, written before the digits are returned.
    ///
    /// - Parameters:
    ///   - uriID: The URI identifier; `/operation/authorize/offline` by default.
    ///   - body: The data shown out of band, signed as the body.
    ///   - nonce: The server's nonce, as it came with the data.
    ///   - factors: The factors to sign with; possession and knowledge by default.
    ///   - authentication: The secrets that unlock the keys of the factors to sign with.
    ///   - digits: The number of decimal digits per factor; 8 by default.
    /// - Returns: The decimal signature, `digits` digits per factor.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the keys `factors` needs, `signing` when the signature cannot be
    ///   computed (a `digits` or `nonce` it cannot use, for example), `store` when the store cannot be
    ///   locked, read or written.
    public func offlineSignature(uriID: String = "/operation/authorize/offline", body: [UInt8], nonce: String,
                                 factors: PowerAuth.SignatureFactors = .possessionKnowledge, authentication: Authentication,
                                 digits: Int = 8) throws(PowerAuthSDKError) -> String {
        try activations.consumeCounter { activation throws(PowerAuthSDKError) in
            let keys = try authentication.signatureKeys(for: factors, activation: activation)
            do throws(ProtocolError) {
                let result = try PowerAuth.offlineSignature(uriID: uriID, nonce: nonce, data: body, activation: activation, factors: factors,
                                                            keys: keys, digits: digits)
                return (result.signature, result.next)
            } catch {
                throw PowerAuthSDKError(.signing, "the offline signature cannot be computed", protocolError: error)
            }
        }
    }

    /// Whether `signature` (Base64 DER ECDSA-P256) over `data` is the server's (§8,
    /// `verifyServerSignedData`): with the master key when `masterKey`, else with the
    /// activation's personalised server key.
    ///
    /// - Parameters:
    ///   - data: The data the server signed.
    ///   - signature: The server's signature: Base64 of a DER ECDSA-P256 signature.
    ///   - masterKey: Whether to verify with the master server public key rather than the activation's server
    ///     key.
    /// - Returns: Whether the signature verifies; `false` also for a signature that is not Base64.
    /// - Throws: `PowerAuthSDKError`, when `masterKey` is false: `missingActivation` when no activation
    ///   is stored, `store` when its record cannot be read or its server key is not a P-256 point.
    public func verifyServerSignedData(_ data: [UInt8], signature: String, masterKey: Bool) throws(PowerAuthSDKError) -> Bool {
        let key: P256.Signing.PublicKey
        if masterKey {
            key = configuration.core.masterServerPublicKey
        } else {
            // No activation is `missingActivation` and an unreadable store its own error; only a
            // stored key that is not a point is reported as such.
            let stored = try storedActivation()
            do { key = try P256.Signing.PublicKey(sec1Representation: stored.serverPublicKey) } catch {
                throw PowerAuthSDKError(.store, "the stored server key is not a P-256 point")
            }
        }
        let der: [UInt8]
        do { der = try Base64.decode(signature) } catch { return false }
        return PowerAuth.isValidServerSignature(der, for: data, publicKey: key)
    }

    // MARK: The SDK's own signed calls

    /// Sends a standard signed request with a plain body on the serial queue and checks the
    /// answer is not an error (§11.2, §13).
    func standardSignedCall(path: String, uriID: String, body: [UInt8], factors: PowerAuth.SignatureFactors,
                            authentication: Authentication) async throws(PowerAuthSDKError) -> HTTPResponse {
        let version = try storedActivation().protocolVersion
        return try await serially { () async throws(PowerAuthSDKError) -> HTTPResponse in
            let request = try activations.consumeCounter { activation throws(PowerAuthSDKError) in
                let keys = try authentication.signatureKeys(for: factors, activation: activation)
                var random = randomSource
                do throws(ProtocolError) {
                    return try PowerAuth.signedRequest(path: path, uriID: uriID, body: body, activation: activation, factors: factors, keys: keys,
                                                       configuration: configuration.core, version: version, using: &random)
                } catch {
                    throw PowerAuthSDKError(.signing, "the request cannot be signed", protocolError: error)
                }
            }
            let response = try await send(request)
            do throws(ProtocolError) { try PowerAuth.requireSuccess(response) } catch { throw Self.failure(error, response: response) }
            return response
        }
    }

    /// Sends a standard encrypt-then-sign request (§7.7: token create, vault unlock, recovery
    /// confirm) on the serial queue and returns the decrypted answer. The 3.3 temporary key and
    /// the server time are fetched first; `make` runs under the store's lock with the current
    /// activation, and its advanced counter is on disk before the request leaves.
    func standardEncryptedCall(factors: PowerAuth.SignatureFactors, authentication: Authentication,
                               _ make: (EncryptedCallInputs, inout SharedRandomSource) throws(ProtocolError) -> PowerAuth.PendingEncryptedRequest)
        async throws(PowerAuthSDKError) -> [UInt8] {
        let stored = try storedActivation()
        let transportKey = try Self.transportKey(of: stored, authentication.possessionUnlockKey)
        let encryptionKey = try await activationEncryptionKey(stored, transportKey: transportKey)
        let timestamp = try await serverTime(version: stored.protocolVersion)
        return try await serially { () async throws(PowerAuthSDKError) -> [UInt8] in
            let pending = try activations.consumeCounter { activation throws(PowerAuthSDKError) in
                let keys = try authentication.signatureKeys(for: factors, activation: activation)
                var random = randomSource
                do throws(ProtocolError) {
                    let inputs = EncryptedCallInputs(activation: activation, keys: keys, transportKey: transportKey, encryptionKey: encryptionKey,
                                                     version: activation.protocolVersion, timestamp: timestamp, configuration: configuration.core)
                    let pending = try make(inputs, &random)
                    return (pending, pending.next)
                } catch {
                    throw PowerAuthSDKError(.encryption, "the encrypted request cannot be built", protocolError: error)
                }
            }
            let response = try await send(pending.request)
            do throws(ProtocolError) { return try pending.decrypt(response) } catch { throw Self.failure(error, response: response) }
        }
    }
}

/// What an encrypt-then-sign request is built from.
struct EncryptedCallInputs {
    let activation: PowerAuth.ActivationData
    let keys: PowerAuth.SignatureKeys
    let transportKey: SymmetricKey
    let encryptionKey: PowerAuth.EncryptionKey?
    let version: PowerAuth.ProtocolVersion
    let timestamp: UInt64
    let configuration: PowerAuth.Configuration
}
