// End-to-end encryption for the application's own endpoints (docs/protocols/powerauth.md §9, §7.7, §15;
// docs/protocols/sdk-surfaces.md §1.9): the application- and activation-scope encryptors, signed-and-encrypted
// requests (sign-then-encrypt, the app-endpoint convention), and `/pa/v3/user/info`.

public import AuthNetworking
public import CryptoPrimitives
import PowerAuth
public import ProtocolSupport

/// An ECIES encryptor of one scope (`PA2ECIESEncryptor`), with its key and the server time
/// fixed when it was made: use it for requests sent right away.
public struct ECIESEncryptor: Sendable {
    let scope: PowerAuth.EncryptionScope
    let sharedInfo1: PowerAuth.ECIES.SharedInfo1?
    let configuration: PowerAuth.Configuration
    let encryptionKey: PowerAuth.EncryptionKey
    let version: PowerAuth.ProtocolVersion
    let timestamp: UInt64
    /// The client's configured random source: the ephemeral keys come from it.
    let randomSource: SharedRandomSource

    /// `plaintext` as an encrypted `POST` to `path` with `X-PowerAuth-Encryption` (§9.2, §9.4);
    /// every call uses a fresh ephemeral key, so one encryptor serves many requests.
    ///
    /// - Parameters:
    ///   - plaintext: The request body to encrypt.
    ///   - path: The endpoint's path below the base URL.
    /// - Returns: The encrypted request and the only key that opens its answer.
    /// - Throws: `PowerAuthSDKError` with code `encryption` when the request cannot be encrypted.
    public func encryptRequest(_ plaintext: [UInt8], path: String) throws(PowerAuthSDKError) -> EncryptedRequest {
        var random = randomSource
        do {
            let (request, decryptor) = try PowerAuth.encryptedRequest(path: path, plaintext: plaintext, scope: scope, sharedInfo1: sharedInfo1,
                                                                      configuration: configuration, encryptionKey: encryptionKey,
                                                                      version: version, timestamp: timestamp, using: &random)
            return EncryptedRequest(request: request, decryptor: decryptor)
        } catch {
            throw PowerAuthSDKError(.encryption, "the request cannot be encrypted", protocolError: error)
        }
    }
}

/// An encrypted request and the only key that opens its answer.
public struct EncryptedRequest: Sendable {
    /// The request to send.
    public let request: HTTPRequest
    let decryptor: PowerAuth.ECIES.ResponseDecryptor

    /// The plaintext of an encrypted answer body whatever its HTTP status (an application
    /// server may encrypt its error envelopes too). One error for anything that does not open.
    ///
    /// - Parameter body: The answer's body as it came, whatever its HTTP status.
    /// - Throws: `PowerAuthSDKError` with code `invalidResponse` when `body` is not an encrypted answer or
    ///   does not decrypt.
    public func decryptBody(_ body: [UInt8]) throws(PowerAuthSDKError) -> [UInt8] {
        do { return try decryptor.decrypt(try PowerAuth.ECIES.Response(jsonBytes: body)) } catch {
            throw PowerAuthSDKError(.invalidResponse, "the answer does not decrypt", protocolError: error)
        }
    }

    /// The answer's plaintext (`decryptResponse`). A §14.2 envelope (errors are not encrypted)
    /// is a server error; an answer that does not decrypt is `PowerAuthSDKError.Code.invalidResponse`.
    ///
    /// - Parameter response: The server's answer to `request`.
    /// - Throws: `PowerAuthSDKError` with code `server` (`authenticationFailed` for HTTP 401 or a refused
    ///   signature) when the answer is an error, `invalidResponse` when it does not decrypt.
    public func decryptResponse(_ response: HTTPResponse) throws(PowerAuthSDKError) -> [UInt8] {
        do {
            try PowerAuth.requireSuccess(response)
            return try decryptor.decrypt(try PowerAuth.ECIES.Response(jsonBytes: response.body))
        } catch {
            throw PowerAuthClient.failure(error, response: response)
        }
    }
}

extension PowerAuthClient {
    /// An application-scope encryptor (`eciesEncryptorForApplicationScope`): no activation
    /// needed; 3.3 fetches an application temporary key first.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read; from 3.2,
    ///   when the server's time or a temporary key is fetched, `transport` when no answer arrives, `server`
    ///   (`authenticationFailed` for HTTP 401) when the server answers with an error, `invalidResponse` when
    ///   the answer is not valid, `encryption` when a 3.3 temporary key does not verify.
    public func eciesEncryptorForApplicationScope() async throws(PowerAuthSDKError) -> ECIESEncryptor {
        let version = try activations.activation()?.protocolVersion ?? configuration.version
        return ECIESEncryptor(scope: .application, sharedInfo1: nil, configuration: configuration.core,
                              encryptionKey: try await applicationEncryptionKey(version: version), version: version,
                              timestamp: try await serverTime(version: version), randomSource: randomSource)
    }

    /// An activation-scope encryptor (`eciesEncryptorForActivationScope`): the activation's
    /// server key (3.0–3.2) or an activation temporary key (3.3), SH2 from KEY_TRANSPORT.
    ///
    /// - Parameter possessionUnlockKey: The device's possession unlock key, which opens the activation's
    ///   transport key.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `invalidAuthentication` when `possessionUnlockKey` does not open the transport key, `store` when the
    ///   store cannot be read or holds an unusable server key; from 3.2, when the server's time or a
    ///   temporary key is fetched, `transport` when no answer arrives, `server` (`authenticationFailed` for
    ///   HTTP 401) when the server answers with an error, `invalidResponse` when the answer is not valid,
    ///   `encryption` when a 3.3 temporary key does not verify.
    public func eciesEncryptorForActivationScope(possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) -> ECIESEncryptor {
        try await activationEncryptor(possessionUnlockKey: possessionUnlockKey, sharedInfo1: nil)
    }

    /// Encrypts `plaintext` in `scope` to `path`, sends it and returns the decrypted answer.
    ///
    /// - Parameters:
    ///   - plaintext: The request body to encrypt.
    ///   - path: The endpoint's path below the base URL.
    ///   - possessionUnlockKey: The possession unlock key for activation scope; `nil` for application scope.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when activation scope is asked for and no
    ///   activation is stored, `invalidAuthentication` when `possessionUnlockKey` does not open the transport
    ///   key, `encryption` when the request cannot be encrypted or a 3.3 temporary key does not verify,
    ///   `transport` when no answer arrives, `server` (`authenticationFailed` for HTTP 401) when the server
    ///   answers with an error, `invalidResponse` when the answer is not valid or does not decrypt, `store`
    ///   when the store cannot be read.
    public func sendEncrypted(_ plaintext: [UInt8], path: String, activationScope possessionUnlockKey: SymmetricKey?) async throws(PowerAuthSDKError) -> [UInt8] {
        let encryptor = if let possessionUnlockKey {
            try await eciesEncryptorForActivationScope(possessionUnlockKey: possessionUnlockKey)
        } else {
            try await eciesEncryptorForApplicationScope()
        }
        let request = try encryptor.encryptRequest(plaintext, path: path)
        return try request.decryptResponse(try await send(request.request))
    }

    /// A signed and encrypted request to an application endpoint (§7.7, sign-then-encrypt: the
    /// signature covers `plaintext`), on the serial queue, activation scope by default
    /// (application scope when `activationScope` is false); returns the decrypted answer.
    ///
    /// - Parameters:
    ///   - plaintext: The request body; the signature covers it.
    ///   - path: The endpoint's path below the base URL.
    ///   - uriID: The URI identifier the signature is computed for.
    ///   - activationScope: Whether to encrypt in activation scope (the default) or application scope.
    ///   - authentication: The secrets that unlock the keys of the factors to sign with.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the factor keys, `encryption` when the request cannot be built
    ///   or a 3.3 temporary key does not verify, `transport` when no answer arrives, `authenticationFailed`
    ///   when the server refuses the signature, `server` when it answers with another error,
    ///   `invalidResponse` when the answer is not valid or does not decrypt, `store` when the secure store
    ///   cannot be read or written.
    public func sendSignedEncrypted(_ plaintext: [UInt8], path: String, uriID: String, activationScope: Bool = true,
                                    authentication: Authentication) async throws(PowerAuthSDKError) -> [UInt8] {
        let encryptor = activationScope ? try await activationEncryptor(possessionUnlockKey: authentication.possessionUnlockKey, sharedInfo1: nil)
                                        : try await eciesEncryptorForApplicationScope()
        let factors = authentication.factors
        return try await serially { () async throws(PowerAuthSDKError) -> [UInt8] in
            let pending = try activations.consumeCounter { activation throws(PowerAuthSDKError) in
                let keys = try authentication.signatureKeys(for: factors, activation: activation)
                var random = randomSource
                do throws(ProtocolError) {
                    let pending = try PowerAuth.signedEncryptedRequest(path: path, uriID: uriID, plaintext: plaintext, scope: encryptor.scope,
                                                                       activation: activation, factors: factors, keys: keys,
                                                                       configuration: configuration.core, encryptionKey: encryptor.encryptionKey,
                                                                       version: encryptor.version, timestamp: encryptor.timestamp, using: &random)
                    return (pending, pending.next)
                } catch {
                    throw PowerAuthSDKError(.encryption, "the request cannot be signed and encrypted", protocolError: error)
                }
            }
            let response = try await send(pending.request)
            do throws(ProtocolError) { return try pending.decrypt(response) } catch { throw Self.failure(error, response: response) }
        }
    }

    /// The user's claims from `/pa/v3/user/info` (`fetchUserInfo`; activation scope, §15).
    ///
    /// - Parameter possessionUnlockKey: The device's possession unlock key, which opens the activation's
    ///   transport key.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `invalidAuthentication` when `possessionUnlockKey` does not open the transport key, `encryption`
    ///   when the request cannot be encrypted or a 3.3 temporary key does not verify, `transport` when no
    ///   answer arrives, `server` (`authenticationFailed` for HTTP 401) when the server answers with an
    ///   error, `invalidResponse` when the answer is not valid, does not decrypt or is not JSON, `store` when
    ///   the store cannot be read.
    public func fetchUserInfo(possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) -> JSONText {
        let plaintext = try await sendEncrypted(Array("{}".utf8), path: "pa/v3/user/info", activationScope: possessionUnlockKey)
        do { return try JSONResponse.decode(JSONText.self, from: plaintext, what: "user info") } catch {
            throw PowerAuthSDKError(.invalidResponse, "the user info is not JSON", protocolError: error)
        }
    }

    private func activationEncryptor(possessionUnlockKey: SymmetricKey, sharedInfo1: PowerAuth.ECIES.SharedInfo1?) async throws(PowerAuthSDKError) -> ECIESEncryptor {
        let activation = try storedActivation()
        let transportKey = try Self.transportKey(of: activation, possessionUnlockKey)
        let key: PowerAuth.EncryptionKey
        if let temporary = try await activationEncryptionKey(activation, transportKey: transportKey) {
            key = temporary
        } else {
            do { key = PowerAuth.EncryptionKey(publicKey: try P256.KeyAgreement.PublicKey(sec1Representation: activation.serverPublicKey)) } catch {
                throw PowerAuthSDKError(.store, "the stored server key is not a P-256 point")
            }
        }
        return ECIESEncryptor(scope: .activation(id: activation.activationID, transportKey: transportKey), sharedInfo1: sharedInfo1,
                              configuration: configuration.core, encryptionKey: key, version: activation.protocolVersion,
                              timestamp: try await serverTime(version: activation.protocolVersion), randomSource: randomSource)
    }
}
