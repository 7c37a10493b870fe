// One call of the networking service (docs/protocols/powerauth.md §16 "Order of work", §7.7, §9.5): wrap the
// request object, obtain the encryptor (time sync and 3.3 keys first), then — inside the
// client's serial queue for signed calls — sign the plaintext, encrypt, send; open the answer,
// reading an error envelope whether it came encrypted or plain; a token refused with 401 is
// created again once.

import AuthNetworking
import FoundationEssentials
import PowerAuth
import PowerAuthSDK
import ProtocolSupport

extension NetworkingService {
    /// A duration in seconds, for the transport's `HTTPRequest.timeout`.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    func perform<Request, Response>(_ data: Request, to endpoint: Endpoint<Request, Response>, authentication: Authentication?,
                                    headers extra: [HTTPHeader], timeout: Duration?, queued: Bool) async throws(NetworkingError) -> Response? {
        let plaintext: [UInt8]
        do { plaintext = Array(try Self.encoder().encode(RequestEnvelope(requestObject: data))) } catch {
            throw NetworkingError(.invalidRequestObject, "the request object does not encode: \(error)", cause: error)
        }
        if endpoint.authentication != .none || endpoint.encryption == .activationScope, authentication == nil {
            throw NetworkingError(.invalidRequestObject, "this endpoint needs an authentication")
        }
        var headers = commonHeaders
        for header in extra {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(header)
        }
        let call = Call(path: endpoint.path, plaintext: plaintext, headers: headers, timeout: (timeout ?? configuration.timeout).map(Self.seconds),
                        encryption: endpoint.encryption, authentication: authentication)
        let answer: Answer
        switch endpoint.authentication {
        case .none:
            answer = try await exchange(call, authorization: nil)
        case .signed(let uriID):
            answer = try await signedExchange(call, uriID: uriID, queued: queued)
        case .token(let name):
            answer = try await tokenExchange(call, tokenName: name)
        }
        configuration.responseObserver?(endpoint.path, answer.status, answer.raw, answer.decrypted)
        return try Self.read(Response.self, from: answer)
    }

    struct Call {
        let path: String
        let plaintext: [UInt8]
        let headers: [HTTPHeader]
        let timeout: Double?
        let encryption: EndToEndEncryption
        let authentication: Authentication?
    }

    struct Answer {
        let status: Int
        /// The body as it came.
        let raw: [UInt8]
        /// The body opened: decrypted when encrypted, else the raw body.
        let body: [UInt8]
        /// The decrypted body, for the observer.
        let decrypted: [UInt8]?
    }

    /// Signs inside the client's serial queue (unless the strategy says otherwise or the whole
    /// call already holds it), right before sending.
    private func signedExchange(_ call: Call, uriID: String, queued: Bool) async throws(NetworkingError) -> Answer {
        guard let authentication = call.authentication else { throw NetworkingError(.invalidRequestObject, "no authentication") }
        let prepared = try await prepare(call)
        let client = self.client
        let sign = { @Sendable () async throws(NetworkingError) -> HTTPHeader in
            do throws(PowerAuthSDKError) {
                return try await client.requestSignature(method: "POST", uriID: uriID, body: call.plaintext, factors: authentication.factors,
                                                         authentication: authentication)
            } catch {
                throw NetworkingError.sdk(error)
            }
        }
        if queued || configuration.concurrency == .concurrentAll {
            return try await send(prepared, authorization: try await sign())
        }
        do {
            return try await client.executeOnSerialQueue { () async throws -> Answer in
                try await self.send(prepared, authorization: try await sign())
            }
        } catch let error as NetworkingError {
            throw error
        } catch {
            throw NetworkingError(.networkUnknown, "\(error)", cause: error)
        }
    }

    /// Adds the token's header; a 401 means the server no longer knows the token: it is
    /// forgotten, created again with the same authentication, and the call repeated once.
    private func tokenExchange(_ call: Call, tokenName: String) async throws(NetworkingError) -> Answer {
        guard let authentication = call.authentication else { throw NetworkingError(.invalidRequestObject, "no authentication") }
        for attempt in 0..<2 {
            let header: HTTPHeader
            do {
                _ = try await client.requestAccessToken(named: tokenName, authentication: authentication)
                header = try await client.tokenHeader(named: tokenName)
            } catch {
                let mapped = NetworkingError.sdk(error)
                // A refused URL and a cancelled call keep the shared codes (docs/design.md).
                if mapped.code == .urlRefused || mapped.code == .cancelled { throw mapped }
                throw NetworkingError(.tokenError, "the token cannot be made: \(error)", restAPIError: mapped.restAPIError,
                                      httpStatus: mapped.httpStatus, powerAuthError: error)
            }
            let answer = try await exchange(call, authorization: header)
            guard answer.status == 401, attempt == 0 else {
                if answer.status == 401 { throw Self.failure(answer, code: .tokenError) }
                return answer
            }
            do { try await client.removeLocalToken(named: tokenName) } catch { throw NetworkingError.sdk(error) }
            // Forgotten here; made again only when the configuration says so.
            if !configuration.recreatesRefusedTokens { throw Self.failure(answer, code: .tokenError) }
        }
        throw NetworkingError(.tokenError, "the token was refused twice")
    }

    private func exchange(_ call: Call, authorization: HTTPHeader?) async throws(NetworkingError) -> Answer {
        try await send(try await prepare(call), authorization: authorization)
    }

    /// The request without its authorization header, and how to open the answer.
    private struct Prepared: Sendable {
        let request: HTTPRequest
        let encrypted: EncryptedRequest?
    }

    private func prepare(_ call: Call) async throws(NetworkingError) -> Prepared {
        guard call.encryption != .notEncrypted else {
            var request = HTTPRequest(method: .post, path: call.path, headers: call.headers, body: call.plaintext)
            request.timeout = call.timeout
            return Prepared(request: request, encrypted: nil)
        }
        do throws(PowerAuthSDKError) {
            let encryptor: ECIESEncryptor
            if call.encryption == .applicationScope {
                encryptor = try await client.eciesEncryptorForApplicationScope()
            } else if let authentication = call.authentication {
                encryptor = try await client.eciesEncryptorForActivationScope(possessionUnlockKey: authentication.possessionUnlockKey)
            } else {
                throw PowerAuthSDKError(.invalidAuthentication, "activation scope needs the possession key")
            }
            let encrypted = try encryptor.encryptRequest(call.plaintext, path: call.path)
            var request = encrypted.request
            let own = Set(request.headers.map { $0.name.lowercased() })
            request.headers += call.headers.filter { !own.contains($0.name.lowercased()) }
            request.timeout = call.timeout
            return Prepared(request: request, encrypted: encrypted)
        } catch {
            throw NetworkingError.sdk(error)
        }
    }

    /// Sends; a signed request carries no `X-PowerAuth-Encryption` (§16).
    private func send(_ prepared: Prepared, authorization: HTTPHeader?) async throws(NetworkingError) -> Answer {
        var request = prepared.request
        if let authorization {
            if authorization.name == "X-PowerAuth-Authorization" { request.headers.removeAll { $0.name == "X-PowerAuth-Encryption" } }
            request.headers.append(authorization)
        }
        let response: HTTPResponse
        do { response = try await pipeline.send(request) } catch { throw NetworkingError.transport(error) }
        guard let encrypted = prepared.encrypted else { return Answer(status: response.status, raw: response.body, body: response.body, decrypted: nil) }
        do {
            let opened = try encrypted.decryptBody(response.body)
            return Answer(status: response.status, raw: response.body, body: opened, decrypted: opened)
        } catch {
            // An error answer may be a plain envelope (§16: "retried as a plain error envelope");
            // a success that does not decrypt is an end-to-end failure.
            guard response.isSuccess else { return Answer(status: response.status, raw: response.body, body: response.body, decrypted: nil) }
            throw NetworkingError(.e2eeError, "the answer does not decrypt", httpStatus: response.status, powerAuthError: error)
        }
    }

    /// The `responseObject` of an OK envelope, nil for an empty body; anything else an error.
    static func read<Response: Decodable>(_ type: Response.Type, from answer: Answer) throws(NetworkingError) -> Response? {
        guard (200..<300).contains(answer.status) else { throw failure(answer, code: .errorStatusCode) }
        if answer.body.isEmpty { return nil }
        let envelope: ResponseEnvelope<Response>
        do { envelope = try decoder().decode(ResponseEnvelope<Response>.self, from: Data(answer.body)) } catch {
            throw NetworkingError(.invalidResponseObject, "the answer is not the expected response object: \(error)", httpStatus: answer.status,
                                  cause: error)
        }
        guard envelope.status == "OK" else { throw failure(answer, code: .errorStatusCode) }
        return envelope.responseObject
    }

    /// An error with the envelope's code and message when the body is one.
    static func failure(_ answer: Answer, code: NetworkingError.Code) -> NetworkingError {
        struct ErrorEnvelope: Decodable { struct Body: Decodable { let code: String; let message: String? }; let responseObject: Body }
        let rest = (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(answer.body))).map {
            NetworkingRESTAPIError(code: $0.responseObject.code, message: $0.responseObject.message)
        }
        return NetworkingError(code, "the server answered HTTP \(answer.status)", restAPIError: rest, httpStatus: answer.status)
    }
}

struct RequestEnvelope<Object: Encodable>: Encodable {
    let requestObject: Object
}

struct ResponseEnvelope<Object: Decodable>: Decodable {
    let status: String
    let responseObject: Object?
}
