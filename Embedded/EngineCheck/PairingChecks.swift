// The BN254CX pairing and M-Pin cases of the table: Milagro's pairing values and its two M-Pin
// files replayed from the master-secret shares (mpin/README.md in ../shared/vectors).

import CryptoPrimitives
import MPin

enum PairingChecks {
    /// `pairing ID EXPECT A B P Q GT P-COMPRESSED`: P = a·G1, Q = b·G2, e(Q, P) = GT, and the
    /// compressed P decodes to P.
    static func pairing(_ line: TableCase) throws(TableError) -> Bool {
        let a = try scalar(line, 0), b = try scalar(line, 1)
        let pBytes = try line.bytes(2), qBytes = try line.bytes(3), gt = try line.bytes(4), compressed = try line.bytes(5)
        guard let p = try? BN254CX.G1(encoded: pBytes), let q = try? BN254CX.G2(encoded: qBytes),
              let fromCompressed = try? BN254CX.G1(encoded: compressed) else { return false }
        return BN254CX.G1.generator.multiplied(by: a) == p && BN254CX.G2.generator.multiplied(by: b) == q
            && fromCompressed == p && BN254CX.pairing(q, p).rawRepresentation == gt
    }

    /// `mpin ID EXPECT ONE-PASS MPIN-ID HASH MS1 MS2 SS1 SS2 SERVER-SECRET CS1 CS2 CLIENT-SECRET
    /// DATE TP1 TP2 TIME-PERMIT PIN1 PIN2 TOKEN X U UT SEC Y V SERVER-OUTPUT TIME`: every value of
    /// one Milagro case (V is "-" in the one-pass file, whose SEC holds V; TIME is its TimeValue).
    static func mpin(_ line: TableCase) throws(TableError) -> Bool {
        let onePass = try line.number(0) == 1
        let identity = MPin.Identity(try line.bytes(1))
        guard identity.hash == (try line.bytes(2)) else { return false }
        let shares = [MPin.MasterSecretShare(try scalar(line, 3)), MPin.MasterSecretShare(try scalar(line, 4))]
        let serverShares = shares.map(MPin.Issuer.serverSecret)
        let serverSecret = MPin.Issuer.combine(serverShares)
        guard serverShares[0].rawRepresentation.unsafeExposedBytes == (try line.bytes(5)),
              serverShares[1].rawRepresentation.unsafeExposedBytes == (try line.bytes(6)),
              serverSecret.rawRepresentation.unsafeExposedBytes == (try line.bytes(7)) else { return false }
        let clientShares = shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }
        let clientSecret = MPin.Issuer.combine(clientShares)
        guard try same(clientShares[0], line, 8), try same(clientShares[1], line, 9), try same(clientSecret, line, 10) else { return false }
        let day = try line.number(11), pin1 = try line.number(15), pin2 = try line.number(16)
        guard day >= 0, Int64(day) <= Int64(UInt32.max), pin1 >= 0, pin1 <= 999_999, pin2 >= 0, pin2 <= 999_999 else {
            throw TableError(message: "case \(line.id): DATE or a PIN out of range")
        }
        let permits = shares.map { MPin.Issuer.timePermit($0, for: identity, day: UInt32(day)) }
        let permit = MPin.Issuer.combine(permits)
        guard try same(permits[0], line, 12), try same(permits[1], line, 13), try same(permit, line, 14) else { return false }
        let token = MPin.Client.extractPIN(MPin.PIN(UInt32(pin1)), identity: identity, clientSecret: clientSecret)
        guard try same(token, line, 17) else { return false }

        let x = try scalar(line, 18)
        let dated = MPin.Client.DatedPermit(permit, day: UInt32(day))
        let first: MPin.Client.FirstPass, v: BN254CX.G1, y: BN254CX.Scalar
        if onePass {
            let time = try line.number(25)
            guard time >= 0, Int64(time) <= Int64(Int32.max) else { throw TableError(message: "case \(line.id): TimeValue out of range") }
            let pass = MPin.Client.onePass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated, time: Int32(time), x: x)
            (first, v, y) = (pass.first, pass.v, pass.challenge)
            guard y == (try scalar(line, 22)), v.uncompressedRepresentation == (try line.bytes(21)) else { return false }
        } else {
            first = MPin.Client.firstPass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated, x: x)
            guard try same(first.authenticationSecret, line, 21) else { return false }
            y = try scalar(line, 22)
            v = MPin.Client.secondPass(first, challenge: y)
            guard v.uncompressedRepresentation == (try line.bytes(23)) else { return false }
        }
        guard first.u.uncompressedRepresentation == (try line.bytes(19)), first.ut?.uncompressedRepresentation == (try line.bytes(20)) else {
            return false
        }
        let result = MPin.Server.verify(identity: identity, day: UInt32(day), challenge: y, client: .init(u: first.u, ut: first.ut, v: v),
                                        serverSecret: serverSecret)
        return (result == .accepted ? 0 : MPin.badPINCode) == (try line.number(24))
    }

    /// A scalar given as up to 32 bytes of hex (Milagro drops leading zeros).
    private static func scalar(_ line: TableCase, _ index: Int) throws(TableError) -> BN254CX.Scalar {
        let raw = try line.bytes(index)
        guard raw.count <= 32, let value = try? BN254CX.Scalar(rawRepresentation: [UInt8](repeating: 0, count: 32 - raw.count) + raw) else {
            throw TableError(message: "case \(line.id): field \(index) is not a scalar")
        }
        return value
    }

    private static func same(_ value: some MPinSecretPoint, _ line: TableCase, _ index: Int) throws(TableError) -> Bool {
        value.rawRepresentation.unsafeExposedBytes == (try line.bytes(index))
    }
}
