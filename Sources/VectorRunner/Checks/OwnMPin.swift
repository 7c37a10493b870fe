// Our recorded BN254CX pairing, M-Pin and DVS vectors (Vectors/protocols/bn254cx-pairing.json,
// mpin-passes.json, mpin-dvs.json), written by Vectors/generate_protocols_mpin.py with its own
// Fp12 tower, Miller loop and final exponentiation on plain Python integers (docs/protocols/mpin.md §2–§5).
// Every case replays the whole flow through our engine; all recorded values and the
// verifier's verdict are compared as one byte string, so any difference fails the case.

import CryptoPrimitives
import MPin
import VectorFormats

enum OwnMPin {
    typealias Outcome = OwnSymmetric.Outcome

    /// The checker for a pairing or M-Pin algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch algorithm {
        case "BN254CX-PAIRING": pairing
        case "MPIN-PASSES": passes
        case "MPIN-DVS": dvs
        default: nil
        }
    }

    // MARK: - Field readers

    private static func g1(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> BN254CX.G1 {
        let bytes = try c.input(name)
        guard let point = try? BN254CX.G1(encoded: bytes) else { throw .malformed("\(name) is not a G1 point") }
        return point
    }

    private static func g2(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> BN254CX.G2 {
        let bytes = try c.input(name)
        guard let point = try? BN254CX.G2(encoded: bytes) else { throw .malformed("\(name) is not a G2 point") }
        return point
    }

    private static func scalar(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> BN254CX.Scalar {
        let bytes = try c.input(name)
        guard let value = try? BN254CX.Scalar(rawRepresentation: bytes) else { throw .malformed("\(name) is not a scalar below r") }
        return value
    }

    private static func pin(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> MPin.PIN {
        guard let value = UInt32(exactly: try c.integer(name)) else { throw .malformed("\(name) is not a PIN") }
        return MPin.PIN(value)
    }

    private static func time(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> Int32 {
        guard let value = Int32(exactly: try c.integer(name)) else { throw .malformed("\(name) is not a 32-bit time") }
        return value
    }

    /// The day of a time permit; 0 means none (docs/protocols/mpin.md §4 CLIENT_1).
    private static func day(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> UInt32? {
        guard let value = UInt32(exactly: try c.integer(name)) else { throw .malformed("\(name) is not a day number") }
        return value == 0 ? nil : value
    }

    /// The server secret sQ from the two D-TA master shares (docs/protocols/mpin.md §4 GET_SERVER_SECRET).
    private static func shares(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> [MPin.MasterSecretShare] {
        var shares: [MPin.MasterSecretShare] = []
        for name in ["masterShare1", "masterShare2"] {
            let bytes = try c.input(name)
            guard let share = try? MPin.MasterSecretShare(rawRepresentation: bytes) else { throw .malformed("\(name) is not a scalar") }
            shares.append(share)
        }
        return shares
    }

    /// The verdict as one byte (1 accepted, 0 refused), appended to what is compared.
    private static func verdict(_ accepted: Bool) -> [UInt8] { [accepted ? 1 : 0] }

    // MARK: - Checks

    /// e(Q, P), or e(Q, P)·e(Q′, P′) when a second pair is given (docs/protocols/mpin.md §2.4); the expected
    /// value must also decode as an element of GT and re-encode to the same bytes.
    private static func pairing(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        var pairs = [(try g2(c, "g2"), try g1(c, "g1"))]
        if c.inputs["g1b"] != nil { pairs.append((try g2(c, "g2b"), try g1(c, "g1b"))) }
        let value = pairs.count == 1 ? BN254CX.pairing(pairs[0].0, pairs[0].1) : BN254CX.multiPairing(pairs)
        let expected = try c.output("gt")
        let decoded = (try? BN254CX.GT(rawRepresentation: expected))?.rawRepresentation ?? []
        return .compare(value.rawRepresentation + decoded, expected + expected)
    }

    /// Issuance, EXTRACT_PIN, CLIENT_1/CLIENT_2, SERVER_1/SERVER_2 with the kangaroo's evidence
    /// on a refusal, then the one-pass variant with its GET_Y (docs/protocols/mpin.md §4). A case recorded
    /// `invalid` must be refused by both verifications; its client values must still match.
    private static func passes(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let identity = MPin.Identity(try c.input("mpinId"))
        let shares = try shares(c)
        let serverSecret = MPin.Issuer.combine(shares.map(MPin.Issuer.serverSecret))
        let clientSecret = MPin.Issuer.combine(shares.map { MPin.Issuer.clientSecretShare($0, for: identity) })
        let clientDay = try day(c, "day"), serverDay = try day(c, "serverDay")
        let permit = clientDay.map { d in MPin.Client.DatedPermit(MPin.Issuer.combine(shares.map { MPin.Issuer.timePermit($0, for: identity, day: d) }), day: d) }
        let token = MPin.Client.extractPIN(try pin(c, "pinRegistered"), identity: identity, clientSecret: clientSecret)
        let entered = try pin(c, "pinEntered"), x = try scalar(c, "x"), y = try scalar(c, "y")
        let first = MPin.Client.firstPass(identity: identity, pin: entered, token: token, permit: permit, x: x)
        let v = MPin.Client.secondPass(first, challenge: y)
        let result = MPin.Server.verify(identity: identity, day: serverDay, challenge: y, client: .init(u: first.u, ut: first.ut, v: v),
                                        serverSecret: serverSecret)
        let message = try c.input("message"), t = try time(c, "time")
        let one = MPin.Client.onePass(identity: identity, pin: entered, token: token, permit: permit, message: message, time: t, x: x)
        let (oneResult, serverY) = MPin.Server.verifyOnePass(identity: identity, day: serverDay, client: .init(u: one.first.u, ut: one.first.ut, v: one.v),
                                                             message: message, time: t, serverSecret: serverSecret)

        var got = serverSecret.rawRepresentation.unsafeExposedBytes + identity.hash + clientSecret.rawRepresentation.unsafeExposedBytes
        got += (permit?.permit.rawRepresentation.unsafeExposedBytes ?? []) + token.rawRepresentation.unsafeExposedBytes
        got += first.authenticationSecret.rawRepresentation.unsafeExposedBytes + first.u.uncompressedRepresentation
        got += (first.ut?.uncompressedRepresentation ?? []) + v.uncompressedRepresentation
        got += one.challenge.rawRepresentation.unsafeExposedBytes + serverY.rawRepresentation.unsafeExposedBytes + one.v.uncompressedRepresentation
        var expected = try c.output("serverSecret") + c.output("hashId") + c.output("clientSecret") + c.output("timePermit") + c.output("token")
        expected += try c.output("sec") + c.output("u") + c.output("ut") + c.output("v")
        expected += try c.output("onePassY") + c.output("onePassY") + c.output("onePassV")
        got += verdict(result == .accepted) + verdict(oneResult == .accepted)
        expected += verdict(c.isValid) + verdict(c.isValid)

        if c.outputs["kangarooE"] != nil {
            // SERVER_2's evidence on a refusal: E the failing value, F = e(Q, y·HID + U).
            expected += try c.output("kangarooE") + c.output("kangarooF")
            guard case .rejected(let evidence?) = result else { return .compare(got, expected) }
            got += evidence.e.rawRepresentation + evidence.f.rawRepresentation
            if let recorded = c.outputs["pinError"]?.int {
                // The kangaroos may give up (nil, as Milagro's do); an answer must be δ.
                let found = MPin.Server.pinError(evidence) ?? recorded
                got += bigEndian(found)
                expected += bigEndian(recorded)
            }
        }
        return .compare(got, expected)
    }

    /// DVS (docs/protocols/mpin.md §5): Pa = z⁻¹·Q, the identity mpinId ‖ Pa, CS = z·(CS1 + CS2), TOKEN, the
    /// one-pass signature over SHA-256(document), then the platform's verification with the
    /// recorded hash, time and public key (changed in the refused cases).
    private static func dvs(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let keyBytes = try c.input("privateKey")
        guard let privateKey = try? MPin.DVS.PrivateKey(rawRepresentation: keyBytes) else { throw .malformed("privateKey is not a scalar") }
        let publicKey = privateKey.publicKey
        let mpinID = try c.input("mpinId")
        let identity = MPin.Identity(mpinID: mpinID, dvsPublicKey: publicKey)
        let shares = try shares(c)
        let serverSecret = MPin.Issuer.combine(shares.map(MPin.Issuer.serverSecret))
        let clientSecret = MPin.DVS.clientSecret(shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }, privateKey: privateKey)
        let token = MPin.Client.extractPIN(try pin(c, "pinRegistered"), identity: identity, clientSecret: clientSecret)
        let hash = MPin.DVS.documentHash(of: try c.string("document"))
        let pass = MPin.Client.onePass(identity: identity, pin: try pin(c, "pinEntered"), token: token, message: hash, time: try time(c, "time"),
                                       x: try scalar(c, "x"))
        let signature = MPin.DVS.Signature(u: pass.first.u, v: pass.v)

        let verifyKeyBytes = try c.input("verifyPublicKey")
        guard let verifyKey = try? MPin.DVS.PublicKey(rawRepresentation: verifyKeyBytes) else { throw .malformed("verifyPublicKey is not in G2") }
        let valid = MPin.DVS.isValidSignature(signature, for: try c.input("verifyHash"), time: try time(c, "verifyTime"),
                                              identity: MPin.Identity(mpinID: mpinID, dvsPublicKey: verifyKey), publicKey: verifyKey,
                                              serverSecret: serverSecret)
        var got = publicKey.rawRepresentation + identity.bytes + clientSecret.rawRepresentation.unsafeExposedBytes
        got += token.rawRepresentation.unsafeExposedBytes + hash + signature.u.uncompressedRepresentation
        got += pass.challenge.rawRepresentation.unsafeExposedBytes + signature.v.uncompressedRepresentation + verdict(valid)
        var expected = try c.output("publicKey") + c.output("identity") + c.output("clientSecret") + c.output("token") + c.output("hash")
        expected += try c.output("u") + c.output("y") + c.output("v") + verdict(c.isValid)
        return .compare(got, expected)
    }

    /// A signed integer as 8 bytes, big-endian (two's complement).
    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: Int64(value) >> ($0 * 8)) }
    }
}
