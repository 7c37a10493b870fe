// ACVP KDA HKDF vector sets (SP 800-56C rev 2 §5 two-step KDF with HMAC, i.e. HKDF;
// draft-hammett-acvp-kas-kdf-hkdf): z (‖ t), salt and a fixedInfo built from the group's
// pattern give the derived keying material dkm.

import CryptoPrimitives
import VectorFormats

enum ACVPKDA {
    /// AFT: the derived keying material must equal `dkm`. VAL: it equals the given `dkm`
    /// exactly when `testPassed`.
    static func checkHKDF(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let derived: [UInt8]
            switch try derive(group, test) {
            case .bytes(let bytes): derived = bytes
            case .unsupported(let reason): return log.skip(id, reason: reason)
            case .failed(let bits, let error): return log.fail(id, comment, expected: "\(bits / 8) bytes of keying material", got: error)
            }
            if try group.fields.string("testType") == "VAL" {
                let expected = try test.fields.bool("testPassed", answer: true)
                let given = try test.fields.hex("dkm", answer: true)
                let agrees = derived == given
                log.expect(agrees == expected, id, comment, expected: expected ? "dkm agrees" : "dkm differs",
                           got: agrees ? "dkm agrees" : "dkm differs")
            } else {
                log.expect(derived, equals: try test.fields.hex("dkm", answer: true), id, comment)
            }
        }
    }

    /// The IUT's answer (draft-hammett-acvp-kas-kdf-hkdf, test vector responses): AFT the
    /// derived keying material `dkm`; VAL `testPassed`, whether the prompt's `dkm` is the one
    /// the inputs derive.
    static func respond(_ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> ACVPResponder.Answer {
        switch try derive(group, test) {
        case .bytes(let derived):
            if try group.fields.string("testType") == "VAL" {
                let given = try test.fields.hex("dkm")
                return .fields(["testPassed": .bool(derived == given)])
            }
            return .fields(["dkm": ACVPResponder.hexValue(derived)])
        case .unsupported(let reason):
            return .unanswered(reason)
        case .failed(let bits, let error):
            return .unanswered("the engine derives no \(bits)-bit keying material (\(error))")
        }
    }

    /// Derived keying material, or why there is none.
    enum Derivation { case bytes([UInt8]), unsupported(String), failed(bits: Int, String) }

    /// The keying material a case's inputs derive: Z′ = z ‖ t, the salt, the fixedInfo of the
    /// group's pattern, L = `l` bits (SP 800-56C rev 2 §5.1 with HMAC, RFC 5869).
    static func derive(_ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> Derivation {
        guard group.fields.has("kdfConfiguration") else { return .unsupported("KDA HKDF multi-expansion groups are not supported by this runner") }
        let configuration = try group.fields.object("kdfConfiguration")
        let encoding = try configuration.string("fixedInfoEncoding")
        guard encoding == "concatenation" else { return .unsupported("fixedInfo encoding \(encoding) is not supported (concatenation only)") }
        let hashName = try configuration.string("hmacAlg")
        guard let hash = ACVPHash.choice(hashName) else { return .unsupported(ACVPHash.unsupported(hashName)) }
        let parameters = try test.fields.object("kdfParameter")
        let bits = try parameters.has("l") ? parameters.integer("l") : configuration.integer("l")
        guard bits % 8 == 0, bits > 0 else { return .unsupported("bit-oriented derived length \(bits)") }
        // SP 800-56C rev 2 §2: with a hybrid secret the KDF input is Z' = Z ‖ T.
        var secret = try parameters.hex("z")
        if parameters.has("t") { secret += try parameters.hex("t") }
        let salt = try parameters.hex("salt")
        switch try fixedInfo(try configuration.string("fixedInfoPattern"), bits: bits, parameters, test.fields) {
        case .bytes(let info):
            do {
                return .bytes(try hash.hkdf(ikm: secret, salt: salt, info: info, length: bits / 8))
            } catch {
                return .failed(bits: bits, "\(error)")
            }
        case .unsupported(let reason):
            return .unsupported(reason)
        }
    }

    /// A fixedInfo, or why it cannot be built.
    enum FixedInfo { case bytes([UInt8]), unsupported(String) }

    /// The fixedInfo of a `concatenation` pattern (draft-hammett-acvp-kas-kdf-hkdf, "fixedInfoPattern";
    /// SP 800-56C rev 2 §4.1 fixed info): the pieces joined by `||`, in order. `uPartyInfo`
    /// and `vPartyInfo` are the party's `partyId` ‖ `ephemeralData` (when given), `l` the
    /// output length in bits as a 32-bit big-endian integer, `literal[…]` the hex inside, and
    /// any other name (`t`, `salt`, `label`, `context`, `algorithmId`) that field of the case's
    /// kdfParameter.
    static func fixedInfo(_ pattern: String, bits: Int, _ parameters: ACVPFields, _ fields: ACVPFields) throws(ACVPFormatError) -> FixedInfo {
        var out: [UInt8] = []
        for piece in pattern.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
            switch piece {
            case "uPartyInfo", "vPartyInfo":
                let party = try fields.object(piece == "uPartyInfo" ? "fixedInfoPartyU" : "fixedInfoPartyV")
                out += try party.hex("partyId")
                if party.has("ephemeralData") { out += try party.hex("ephemeralData") }
            case "l":
                out += withUnsafeBytes(of: UInt32(truncatingIfNeeded: bits).bigEndian, Array.init)
            case let literal where literal.hasPrefix("literal[") && literal.hasSuffix("]"):
                do {
                    out += try HexText.bytes(String(literal.dropFirst("literal[".count).dropLast()), field: "fixedInfoPattern")
                } catch {
                    throw .wrongType("fixedInfoPattern", expected: "hex inside literal[…]", at: fields.place)
                }
            case let name where parameters.has(name):
                out += try parameters.hex(name)
            case let name:
                return .unsupported("fixedInfo piece \(name) has no value in the case")
            }
        }
        return .bytes(out)
    }
}
