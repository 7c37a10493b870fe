// Time permits (docs/protocols/mpin.md §4 "Time permits", §7.1 item 6): when the backend uses them, the first
// D-TA's share comes from `timePermitsURL/{mpinId}`, the second from the storage cache
// `{timePermitsStorageURL}/{appID}/{date}/{storageId}` or, when the cache has none, from the
// second D-TA's `timePermit?hash_mpin_id=…&app_id=…&mobile=1&signature=…`. The sum is cached
// in the user's record for its day. HTTP 410 on a permit request (either D-TA's) means the
// identity is revoked; any other failure keeps its own code.

import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import MPin
import ProtocolSupport
import MPinPlatform

extension MPinClient {
    /// Makes sure `record` holds a permit for today (the platform's `date`), fetching one if not.
    func refreshTimePermit(_ record: inout UserRecord, settings: MPinPlatform.ClientSettings) async throws(MPinError) {
        let today = MPin.day(ofUnixTime: unixSeconds())
        if record.secrets.permitDay == today, record.secrets.permit != nil { return }
        guard let permitsURL = settings.timePermitsURL else { throw MPinError(.flowError, "the backend uses permits but names no timePermitsURL") }
        // Only the platform's verdict (HTTP 410, or Trust's REVOKED_MPINID) is `.revoked`
        // (docs/protocols/mpin.md §7.1 item 6): a network failure or a 5xx says nothing of the
        // identity and keeps its own code, so an offline user is not told they were revoked.
        let response = try await send(.get, permitsURL + "/" + record.mpinID, step: .timePermit)
        let first = try decode(MPinPlatform.TimePermitWire.self, response, "time permit")
        let second = try await secondPermitShare(first, mpinID: record.mpinID, settings: settings)
        let permit: MPin.TimePermit
        do {
            permit = MPin.Issuer.combine([try MPin.TimePermit(rawRepresentation: try Hex.decode(first.timePermit)),
                                          try MPin.TimePermit(rawRepresentation: try Hex.decode(second))])
        } catch {
            throw MPinError(.invalidResponse, "a time-permit share is not a BN254CX point", protocolError: ProtocolError(error, "time permit"))
        }
        guard !permit.isInfinity else { throw MPinError(.invalidResponse, "the time-permit shares cancel out (their sum is the point at infinity)") }
        let permitHex = permit.rawRepresentation.withUnsafeBytes { Hex.encode($0) }
        record.secrets.permitDay = first.date
        record.secrets.permit = permitHex
        // The cache only, under the store's lock on the freshest record.
        try records.update(identity: record.identity, backend: record.backend) { (stored: inout UserRecord?) throws(MPinError) in
            stored?.secrets.permitDay = first.date
            stored?.secrets.permit = permitHex
        }
    }

    /// The cached permit with its day.
    func cachedPermit(_ record: UserRecord) throws(MPinError) -> MPin.Client.DatedPermit {
        guard let day = record.secrets.permitDay, let hex = record.secrets.permit else { throw MPinError(.revoked, "no time permit is cached") }
        do { return MPin.Client.DatedPermit(try MPin.TimePermit(rawRepresentation: try Hex.decode(hex)), day: day) } catch {
            throw MPinError(.store, "the cached time permit is not a point")
        }
    }

    /// The second D-TA's share: from the storage cache when it has it, else from the D-TA.
    private func secondPermitShare(_ first: MPinPlatform.TimePermitWire, mpinID: String,
                                   settings: MPinPlatform.ClientSettings) async throws(MPinError) -> String {
        // The D-TA's hash_mpin_id is SHA-256 of the mpinId bytes (docs/protocols/mpin.md §7.1 item 6); the
        // cache is keyed by the first D-TA's storageId, which is that same hash when it is absent.
        let hashedID: String
        do { hashedID = Hex.encode(SHA256.hash(data: try Hex.decode(mpinID)).bytes) } catch {
            throw MPinError(.store, "the M-Pin ID is not hex")
        }
        if let storage = settings.timePermitsStorageURL {
            let url = storage + "/" + settings.appID + "/" + String(first.date) + "/" + URLText.percentEncoded(first.storageId ?? hashedID)
            do {
                let cached = try await send(.get, url, step: .timePermit)
                let text = String(decoding: cached.body, as: UTF8.self).filter { !$0.isWhitespace }
                if !text.isEmpty { return text }
            } catch where ![.untrustedDomain, .urlRefused, .cancelled].contains(error.code) {
                // Not cached yet (S3 answers 404), or the cache cannot be reached: ask the D-TA
                // below. A URL the rules refuse, or a cancelled call, ends the call here.
            }
        }
        let query = [HTTPHeader("hash_mpin_id", hashedID), HTTPHeader("app_id", settings.appID), HTTPHeader("mobile", "1"),
                     HTTPHeader("signature", first.signature ?? "")]
        let response = try await send(.get, settings.certivoxURL + "timePermit", query: query, step: .timePermit)
        return try decode(MPinPlatform.SecondPermitWire.self, response, "second time permit").timePermit
    }
}
