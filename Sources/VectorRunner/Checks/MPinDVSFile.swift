// `mpin/own/mpin_dvs_milagro_generated.json` (Milagro built with MAXPIN 10⁶, PBLEN 20; mpin/
// README.md §C): even cases use the DVS identity mpinId ‖ Pa with the secret multiplied by z,
// odd cases a plain identity. Each case replays issuance, the token, a two-pass
// authentication without permits (with the kangaroo's E, F and answer on a wrong PIN) and a
// one-pass DVS signature with its verification.

import CryptoPrimitives
import MPin
import VectorFormats

enum MPinDVSFile {
    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        for entry in log.array(json, "the top-level array") {
            let id = "case \(entry["case"]?.int ?? -1)"
            do throws(VectorFormatError) {
                let problem = try replay(entry)
                log.expect(problem == nil, id, problem ?? "", expected: "every value as recorded", got: problem ?? "same")
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    private static func replay(_ entry: JSONValue) throws(VectorFormatError) -> String? {
        typealias F = MPinFiles
        guard let dvs = entry["dvs"]?.bool, let registered = entry["PIN_REGISTER"]?.int, let entered = entry["PIN_ENTERED"]?.int else {
            throw .missingField("dvs/PIN_REGISTER/PIN_ENTERED")
        }
        let (shares, serverSecret, problem) = try F.serverSide(entry)
        if let problem { return problem }

        let mpinID = try F.bytes(entry, "MPIN_ID_HEX")
        var privateKey: MPin.DVS.PrivateKey?
        var publicKey: MPin.DVS.PublicKey?
        if dvs {
            guard let z = try? MPin.DVS.PrivateKey(rawRepresentation: try F.bytes(entry, "DVS_Z")) else { return "DVS_Z" }
            guard z.publicKey.rawRepresentation == (try F.bytes(entry, "DVS_PUBLIC_KEY")),
                  let decoded = try? MPin.DVS.PublicKey(rawRepresentation: try F.bytes(entry, "DVS_PUBLIC_KEY")) else { return "DVS_PUBLIC_KEY" }
            (privateKey, publicKey) = (z, decoded)
        }
        let identity = publicKey.map { MPin.Identity(mpinID: mpinID, dvsPublicKey: $0) } ?? MPin.Identity(mpinID)
        guard identity.bytes == (try F.bytes(entry, "ID_USED_FOR_HASH")) else { return "ID_USED_FOR_HASH" }
        guard identity.hash == (try F.bytes(entry, "HASH_ID")) else { return "HASH_ID" }
        let clientShares = shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }
        guard try F.same(clientShares[0], entry, "CS1"), try F.same(clientShares[1], entry, "CS2") else { return "CS1/CS2" }
        guard try F.same(MPin.Issuer.combine(clientShares), entry, "CLIENT_SECRET") else { return "CLIENT_SECRET" }
        let clientSecret = privateKey.map { MPin.DVS.clientSecret(clientShares, privateKey: $0) } ?? MPin.Issuer.combine(clientShares)
        if entry["CLIENT_SECRET_TIMES_Z"] != nil, try !F.same(clientSecret, entry, "CLIENT_SECRET_TIMES_Z") { return "CLIENT_SECRET_TIMES_Z" }
        let token = MPin.Client.extractPIN(MPin.PIN(UInt32(registered)), identity: identity, clientSecret: clientSecret)
        guard try F.same(token, entry, "TOKEN") else { return "TOKEN" }

        // Two-pass authentication without permits.
        let pin = MPin.PIN(UInt32(entered))
        let first = MPin.Client.firstPass(identity: identity, pin: pin, token: token, x: try F.scalar(entry, "X"))
        guard try F.same(first.authenticationSecret, entry, "SEC") else { return "SEC" }
        guard first.u.uncompressedRepresentation == (try F.bytes(entry, "U")) else { return "U" }
        let y = try F.scalar(entry, "Y")
        let v = MPin.Client.secondPass(first, challenge: y)
        guard v.uncompressedRepresentation == (try F.bytes(entry, "V")) else { return "V" }
        let (hid, _) = MPin.Server.firstPass(identity: identity)
        guard hid.uncompressedRepresentation == (try F.bytes(entry, "HID")) else { return "HID" }
        let result = MPin.Server.verify(identity: identity, challenge: y, client: .init(u: first.u, v: v), serverSecret: serverSecret,
                                        clientPublicKey: publicKey)
        switch result {
        case .accepted:
            guard entry["SERVER_RC"]?.int == 0 else { return "SERVER_RC 0" }
        case .rejected(let evidence):
            guard entry["SERVER_RC"]?.int == MPin.badPINCode, let evidence else { return "SERVER_RC −19" }
            guard evidence.e.rawRepresentation == (try F.bytes(entry, "KANGAROO_E")) else { return "KANGAROO_E" }
            guard evidence.f.rawRepresentation == (try F.bytes(entry, "KANGAROO_F")) else { return "KANGAROO_F" }
            let error = MPin.Server.pinError(evidence) ?? 0
            guard error == entry["KANGAROO_PIN_ERROR"]?.int else { return "KANGAROO_PIN_ERROR \(error)" }
        }

        // The one-pass DVS signature over SHA-256(document).
        guard let document = entry["DOCUMENT"]?.string, let time = entry["EPOCH_TIME"]?.int else { throw .missingField("DOCUMENT") }
        let hash = MPin.DVS.documentHash(of: document)
        guard hash == (try F.bytes(entry, "MESSAGE_HASH")), MPin.DVS.verifyDocument(document, hash: hash) else { return "MESSAGE_HASH" }
        let pass = MPin.Client.onePass(identity: identity, pin: pin, token: token, message: hash, time: Int32(truncatingIfNeeded: time),
                                       x: try F.scalar(entry, "SIGN_X"))
        guard pass.first.u.uncompressedRepresentation == (try F.bytes(entry, "SIGN_U")) else { return "SIGN_U" }
        guard pass.challenge == (try F.scalar(entry, "SIGN_Y")) else { return "SIGN_Y" }
        guard pass.v.uncompressedRepresentation == (try F.bytes(entry, "SIGN_V")) else { return "SIGN_V" }
        let signature = MPin.DVS.Signature(u: pass.first.u, v: pass.v)
        let valid: Bool
        if let publicKey {
            valid = MPin.DVS.isValidSignature(signature, for: hash, time: Int32(truncatingIfNeeded: time), identity: identity,
                                              publicKey: publicKey, serverSecret: serverSecret)
        } else {
            let (outcome, _) = MPin.Server.verifyOnePass(identity: identity, client: .init(u: signature.u, v: signature.v), message: hash,
                                                         time: Int32(truncatingIfNeeded: time), serverSecret: serverSecret)
            valid = outcome == .accepted
        }
        return (valid ? 0 : MPin.badPINCode) == entry["VERIFY_RC"]?.int ? nil : "VERIFY_RC"
    }
}
