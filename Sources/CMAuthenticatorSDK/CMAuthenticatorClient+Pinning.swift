// Certificate pins (docs/protocols/cm-authenticator.md §6): `GET /certificate` (itself unpinned, as on both
// official clients) returns entries signed with CM's RSA key; the verified ones become the pins
// every other request's transport must enforce. The list is cached in the store and refreshed
// at most hourly; a failed refresh keeps the cached pins, and with no verified pin at all every
// call fails closed (§6 [ASSUME], our choice).

public import AuthNetworking
import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport

extension CMAuthenticatorClient {
    /// The pins in force, fetched and verified now if the cached list is older than an hour
    /// (or `refresh` is set). `nil` when pinning is disabled.
    ///
    /// - Parameter refresh: Whether to fetch the list even when the cached one is less than an hour old.
    /// - Throws: `CMClientError` with code `pinning` when no pin is cached and the signed list cannot be
    ///   fetched or read, or none of its entries verifies, `store` when the device record cannot be read or
    ///   written or a stored pin does not decode.
    public func certificatePins(refresh: Bool = false) async throws(CMClientError) -> CertificatePins? {
        guard case .enforced(let listKey) = pinning else { return nil }
        let record = try records.device()
        let clock = CMAuthenticator.unixSeconds(now())
        let cached = try Self.pins(of: record)
        // §6: fresh for an hour. The stored time is data: a difference that overflows (a record
        // from a broken clock, or tampered) is simply not fresh.
        if !refresh, !cached.isEmpty, let fetched = record.pinsFetchedAt {
            let (age, overflow) = clock.subtractingReportingOverflow(fetched)
            if !overflow, (0..<CMAuthenticator.certificateRefreshInterval).contains(age) { return cached }
        }
        let verified: [CMAuthenticator.CertificatePin]
        do {
            let response = try await pipeline(nil).send(CMAuthenticator.certificateListRequest(client: clientDescription))
            verified = try CMAuthenticator.verifiedPins(from: response, key: listKey)
        } catch let error as TransportError where error.kind == .cancelled || error.kind == .urlRefused {
            throw CMClientError(noAnswer: error, "the certificate list was not fetched")   // the shared mapping
        } catch {
            // A failed refresh keeps the pins that verified before; none at all fails closed.
            guard cached.isEmpty else { return cached }
            throw CMClientError(.pinning, "the signed certificate list could not be fetched or read",
                                protocolError: error as? ProtocolError, transportError: error as? TransportError)
        }
        var fresh = DeviceRecord()
        fresh.pinCertificateHex = verified.compactMap(\.certificateSHA256Hex)
        fresh.pinSPKIBase64 = verified.compactMap(\.spkiSHA256Base64)
        let pins = try Self.pins(of: fresh)
        guard !pins.isEmpty else {
            throw CMClientError(.pinning, "no entry of the certificate list verified under the list key: refusing to connect unpinned")
        }
        // §6, §8: only the pins and their time change, on the freshest stored record.
        try records.updateDevice { stored in
            stored.pinCertificateHex = fresh.pinCertificateHex
            stored.pinSPKIBase64 = fresh.pinSPKIBase64
            stored.pinsFetchedAt = clock
        }
        return pins
    }

    func currentPins() async throws(CMClientError) -> CertificatePins? {
        try await certificatePins()
    }

    /// The stored pins; one that does not decode is a damaged record, not a pin to drop.
    static func pins(of record: DeviceRecord) throws(CMClientError) -> CertificatePins {
        var certificates: [[UInt8]] = [], keys: [[UInt8]] = []
        do {
            for hex in record.pinCertificateHex { certificates.append(try Hex.decode(hex)) }
            for base64 in record.pinSPKIBase64 { keys.append(try Base64.decodeLenient(base64)) }
        } catch {
            throw CMClientError(.store, "a stored certificate pin does not decode")
        }
        return CertificatePins(certificateSHA256: certificates, spkiSHA256: keys)
    }
}
