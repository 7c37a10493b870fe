// Document signing with DVS (docs/protocols/sdk-surfaces.md §3.7; docs/protocols/mpin.md §5 and §7.2): a separate signing
// registration — authenticate with the login PIN for a DVS registration token, make a key pair,
// register Pa, combine the two DVS shares multiplied by z, extract the signing PIN from the
// signing identity mpinId ‖ Pa — then signatures: an authentication of the signing identity
// (the platform checks the signing PIN and can block), and the one-pass signature computed here.

import CryptoPrimitives
import FoundationEssentials
public import MPin
import ProtocolSupport
import MPinPlatform

/// A DVS signature and what the relying party needs to verify it (`BridgeSignature`,
/// docs/protocols/sdk-surfaces.md §3.9; docs/protocols/mpin.md §5.4 and §7.4).
public struct MPinDVSSignature: Sendable, Equatable {
    /// The signed document hash (equals the input).
    public let hash: [UInt8]
    /// The signing identity's M-Pin ID (hex, as issued).
    public let mpinID: String
    /// U = x·A (65 bytes).
    public let u: [UInt8]
    /// V = −(x + y)·SEC (65 bytes).
    public let v: [UInt8]
    /// Pa (128 bytes).
    public let publicKey: [UInt8]
    /// The D-TAs that issued the signing secret.
    public let dtas: String
    /// The signing time, Unix seconds (part of the transcript).
    public let timestamp: Int32
}

extension MPinClient {
    /// Step one of the signing registration (`StartRegistrationDVS:`): authenticates with the
    /// login PIN for a DVS registration token (assumed purpose `dvs`, see docs/architecture.md).
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's login PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    /// - Throws: `MPinError` with code `flowError` also on MIRACL Trust (every identity signs already) or
    ///   when the user changed state meanwhile; `invalidInput` when `pin` does not fit the user's PIN length,
    ///   `flowError` when the user is not registered, no backend is set or `secondFactor` does not match the
    ///   registration, `incorrectPIN` on a wrong PIN (`userBlocked` set once the platform blocked the
    ///   identity), `revoked` when the identity is revoked, `crypto` when the random source fails,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when an answer is not valid, `store` when the secure store fails or holds an unusable record
    ///   (`invalidResponse` also when it holds no DVS registration token).
    public func startSigningRegistration(for user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil) async throws(MPinError) {
        guard trustProjectID == nil else { throw MPinError(.flowError, "every MIRACL Trust identity can sign already") }
        let (answer, _) = try await authenticate(user, pin: pin, secondFactor: secondFactor, Request(purpose: "dvs"))
        guard let token = answer.dvsRegisterToken, !token.isEmpty else { throw MPinError(.invalidResponse, "the platform sent no DVS registration token") }
        // Only the token changes, on the freshest record (the authentication awaited).
        try records.update(identity: user.identity, backend: user.backend) { (stored: inout UserRecord?) throws(MPinError) in
            guard var fresh = stored, fresh.state == .registered else {
                throw MPinError(.flowError, "\(user.identity) changed state during the signing registration")
            }
            fresh.secrets.dvsRegisterToken = token
            stored = fresh
        }
    }

    /// Step two (`FinishRegistrationDVS:`): a fresh key pair (z, Pa = z⁻¹·Q), Pa registered,
    /// the shares combined and multiplied by z, the signing PIN (which may differ from the login
    /// PIN) extracted from the signing identity. z is discarded; only Pa and the token stay.
    ///
    /// - Parameters:
    ///   - user: The registered user who started the signing registration.
    ///   - signingPIN: The signing PIN, which may differ from the login PIN.
    ///   - secondFactor: An optional second factor for the signing identity.
    /// - Returns: The user, now able to sign.
    /// - Throws: `MPinError` with code `flowError` when the user is not registered, did not start the signing
    ///   registration or changed state meanwhile, or no backend is set, `crypto` when the random source
    ///   fails, `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means,
    ///   such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when a DVS share or the M-Pin ID is malformed, `store` when the secure store fails
    ///   or holds an unusable record.
    public func finishSigningRegistration(for user: MPinUser, signingPIN: MPin.PIN, secondFactor: MPin.PIN? = nil) async throws(MPinError) -> MPinUser {
        var record = try storedRecord(user, allowed: [.registered])
        guard let registerToken = record.secrets.dvsRegisterToken else { throw MPinError(.flowError, "start the signing registration first") }
        let settings = try activeSettings()
        var random = randomSource
        let privateKey: MPin.DVS.PrivateKey
        do { privateKey = try MPin.DVS.PrivateKey(using: &random) } catch {
            throw MPinError(.crypto, "no randomness for the DVS key", protocolError: ProtocolError(error, "DVS key"))
        }
        let publicKey = privateKey.publicKey
        let body = MPinPlatform.dvsRegisterBody(token: registerToken, publicKey: publicKey.rawRepresentation, deviceName: user.deviceName)
        let registered = try read(try await send(.post, settings.dvsRegisterURL, body: body, step: .dvsRegister), "DVS registration answer",
                                  MPinPlatform.DVSRegisterWire.init(body:))
        let second = try read(try await send(.get, registered.cs2URL, step: .clientSecret), "DVS client secret", MPinPlatform.ClientSecretWire.init(body:))
        let identity: MPin.Identity
        let clientSecret: MPin.ClientSecret
        do {
            identity = MPin.Identity(mpinID: try Hex.decode(registered.mpinID), dvsPublicKey: publicKey)   // docs/protocols/mpin.md §9 trap 3
            let shares = [try MPin.ClientSecretShare(rawRepresentation: registered.dvsCS1),
                          try MPin.ClientSecretShare(rawRepresentation: try requiredShare(second.dvsClientSecret ?? second.clientSecret))]
            clientSecret = MPin.DVS.clientSecret(shares, privateKey: privateKey)   // docs/protocols/mpin.md §5.3: z·(share₁ + share₂)
        } catch {
            throw MPinError(.invalidResponse, "a DVS share or the M-Pin ID is malformed", protocolError: ProtocolError(error, "DVS registration"))
        }
        guard !clientSecret.isInfinity else { throw MPinError(.invalidResponse, "the client-secret shares cancel out (their sum is the point at infinity)") }
        var token = MPin.Client.extractPIN(signingPIN, identity: identity, clientSecret: clientSecret)
        if let secondFactor {
            token = MPin.Client.extractFactor(secondFactor.value, bitCount: MPin.pinBitCount, identity: identity, token: token)
        }
        let signingToken = token.rawRepresentation
        // Only the signing fields change, under the store's lock on the freshest record (the
        // awaits above may have let another process count a failure or cache a permit).
        record = try records.update(identity: record.identity, backend: record.backend) { (stored: inout UserRecord?) throws(MPinError) in
            guard var fresh = stored, fresh.state == .registered else {
                throw MPinError(.flowError, "\(record.identity) changed state during the signing registration")
            }
            fresh.secrets.signingMPinID = registered.mpinID
            fresh.secrets.signingPublicKey = Hex.encode(publicKey.rawRepresentation)
            fresh.secrets.signingDTAs = registered.dtas ?? ""
            fresh.secrets.signingToken = signingToken
            fresh.secrets.signingHasSecondFactor = secondFactor != nil
            fresh.secrets.dvsRegisterToken = nil
            stored = fresh
            return fresh
        }
        return record.user
    }

    /// Whether `hash` is SHA-256 of `document` (`VerifyDocument`; docs/protocols/mpin.md §5.6), in constant time.
    ///
    /// - Parameters:
    ///   - hash: The hash to check.
    ///   - document: The document it should be the SHA-256 of.
    public nonisolated func isValidDocumentHash(_ hash: [UInt8], for document: String) -> Bool {
        MPin.DVS.verifyDocument(document, hash: hash)
    }

    /// Signs `documentHash` at `timestamp` (Unix seconds, from the customer backend) with the
    /// signing PIN (`Sign:`): the platform authenticates the signing identity first (a wrong PIN
    /// is `MPinError.Code.incorrectPIN` and counts toward a block), then the one-pass DVS
    /// signature of docs/protocols/mpin.md §5.4 is computed here. `MPinError.Code.flowError` when the user
    /// cannot sign (check ``MPinUser/canSign``).
    ///
    /// - Parameters:
    ///   - documentHash: SHA-256 of the document: 32 bytes.
    ///   - timestamp: The signing time in Unix seconds, from the customer backend.
    ///   - user: The user whose signing identity signs.
    ///   - pin: The signing PIN.
    ///   - secondFactor: The signing identity's second factor, when it has one.
    /// - Returns: The signature with what the relying party needs to verify it.
    /// - Throws: `MPinError` with code `flowError` when the user is not registered or cannot sign (no signing
    ///   registration), no backend is set or `secondFactor` does not match the signing identity,
    ///   `invalidInput` when `documentHash` is not 32 bytes (or, on MIRACL Trust, `pin` does not fit the
    ///   PIN length), `incorrectPIN` on a wrong PIN (`userBlocked` set once the platform blocked the
    ///   identity), `revoked` on MIRACL Trust when the identity is revoked, `crypto`
    ///   when the signature cannot be made, `invalidInput` when a URL is not absolute, `untrustedDomain` when
    ///   the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or
    ///   the code its status means, such as `notAuthorized` or `requestExpired`) when the platform answers
    ///   with an error, `invalidResponse` when an answer is not valid, `store` when the secure store fails or
    ///   holds an unusable record.
    public func sign(documentHash: [UInt8], timestamp: Int32, for user: MPinUser, pin: MPin.PIN,
                     secondFactor: MPin.PIN? = nil) async throws(MPinError) -> MPinDVSSignature {
        let record = try storedRecord(user, allowed: [.registered])
        guard let signingToken = record.secrets.signingToken, let signingID = record.secrets.signingMPinID,
              let keyHex = record.secrets.signingPublicKey else { throw MPinError(.flowError, "\(user.identity) cannot sign: no signing registration") }
        guard documentHash.count == 32 else { throw MPinError(.invalidInput, "a document hash is 32 bytes (SHA-256)") }
        if trustProjectID != nil {
            _ = try await trustAuthenticate(user, pin: pin, secondFactor: secondFactor, scope: "dvs-auth", accessCode: nil)
        } else {
            _ = try await authenticate(user, pin: pin, secondFactor: secondFactor, Request(purpose: "dvs-auth", signing: true))
        }
        var random = randomSource
        do {
            let publicKey = try MPin.DVS.PublicKey(rawRepresentation: try Hex.decode(keyHex))
            let identity = MPin.Identity(mpinID: try Hex.decode(signingID), dvsPublicKey: publicKey)
            var token = try signingToken.withUnsafeBytes { bytes throws(CryptoError) in try MPin.Token(rawRepresentation: bytes) }
            if let secondFactor { token = MPin.Client.restoreFactor(secondFactor.value, bitCount: MPin.pinBitCount, identity: identity, token: token) }
            let signature = try MPin.DVS.signature(for: documentHash, time: timestamp, identity: identity, pin: pin, token: token, using: &random)
            return MPinDVSSignature(hash: documentHash, mpinID: signingID, u: signature.u.uncompressedRepresentation,
                                    v: signature.v.uncompressedRepresentation, publicKey: publicKey.rawRepresentation,
                                    dtas: record.secrets.signingDTAs ?? "", timestamp: timestamp)
        } catch {
            throw MPinError(.crypto, "the signature could not be made", protocolError: ProtocolError(error, "DVS signature"))
        }
    }
}
