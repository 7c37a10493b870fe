// Milagro's M-Pin vector files `BN254_CX.json` (two-pass with time permits) and
// `BN254_CXOnePass.json` (one-pass; its SEC field holds the final V), mpin/README.md §A.
// Each test replays the whole flow from the master-secret shares and x: every intermediate
// value and the verifier's result must match.

import CryptoPrimitives
import MPin
import VectorFormats

enum MPinMilagroFiles {
    static func checkTwoPass(_ json: JSONValue, _ log: inout CaseLog) { check(json, onePass: false, &log) }
    static func checkOnePass(_ json: JSONValue, _ log: inout CaseLog) { check(json, onePass: true, &log) }

    private static func check(_ json: JSONValue, onePass: Bool, _ log: inout CaseLog) {
        for entry in log.array(json, "the top-level array") {
            let id = "test \(entry["test_no"]?.int ?? -1)"
            do throws(VectorFormatError) {
                let problem = try replay(entry, onePass: onePass)
                log.expect(problem == nil, id, problem ?? "", expected: "every value as recorded", got: problem ?? "same")
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    /// The first value that differs, or nil.
    private static func replay(_ entry: JSONValue, onePass: Bool) throws(VectorFormatError) -> String? {
        typealias F = MPinFiles
        let identity = MPin.Identity(try F.bytes(entry, "MPIN_ID_HEX"))
        guard identity.hash == (try F.bytes(entry, "HASH_MPIN_ID_HEX")) else { return "HASH_MPIN_ID" }
        guard let day = entry["DATE"]?.int.map(UInt32.init), let pin1 = entry["PIN1"]?.int, let pin2 = entry["PIN2"]?.int else {
            throw .missingField("DATE/PIN1/PIN2")
        }
        let (shares, serverSecret, problem) = try F.serverSide(entry)
        if let problem { return problem }
        let clientShares = shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }
        guard try F.same(clientShares[0], entry, "CS1"), try F.same(clientShares[1], entry, "CS2") else { return "CS1/CS2" }
        let clientSecret = MPin.Issuer.combine(clientShares)
        guard try F.same(clientSecret, entry, "CLIENT_SECRET") else { return "CLIENT_SECRET" }
        let permits = shares.map { MPin.Issuer.timePermit($0, for: identity, day: day) }
        guard try F.same(permits[0], entry, "TP1"), try F.same(permits[1], entry, "TP2") else { return "TP1/TP2" }
        let permit = MPin.Issuer.combine(permits)
        guard try F.same(permit, entry, "TIME_PERMIT") else { return "TIME_PERMIT" }
        let token = MPin.Client.extractPIN(MPin.PIN(UInt32(pin1)), identity: identity, clientSecret: clientSecret)
        guard try F.same(token, entry, "TOKEN") else { return "TOKEN" }

        let x = try F.scalar(entry, "X")
        let dated = MPin.Client.DatedPermit(permit, day: day)
        let first: MPin.Client.FirstPass
        let v: BN254CX.G1
        let y: BN254CX.Scalar
        if onePass {
            guard let time = entry["TimeValue"]?.int else { throw .missingField("TimeValue") }
            let pass = MPin.Client.onePass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated,
                                           time: Int32(truncatingIfNeeded: time), x: x)
            (first, v, y) = (pass.first, pass.v, pass.challenge)
            guard y == (try F.scalar(entry, "Y")) else { return "Y" }
            guard v.uncompressedRepresentation == (try F.bytes(entry, "SEC")) else { return "V (SEC)" }
        } else {
            first = MPin.Client.firstPass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated, x: x)
            guard try F.same(first.authenticationSecret, entry, "SEC") else { return "SEC" }
            y = try F.scalar(entry, "Y")
            v = MPin.Client.secondPass(first, challenge: y)
            guard v.uncompressedRepresentation == (try F.bytes(entry, "V")) else { return "V" }
        }
        guard first.u.uncompressedRepresentation == (try F.bytes(entry, "U")) else { return "U" }
        guard first.ut?.uncompressedRepresentation == (try F.bytes(entry, "UT")) else { return "UT" }
        let result = MPin.Server.verify(identity: identity, day: day, challenge: y, client: .init(u: first.u, ut: first.ut, v: v),
                                        serverSecret: serverSecret)
        let code = result == .accepted ? 0 : MPin.badPINCode
        return code == entry["SERVER_OUTPUT"]?.int ? nil : "SERVER_OUTPUT \(code)"
    }
}
