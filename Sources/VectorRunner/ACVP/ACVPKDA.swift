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
            guard group.fields.has("kdfConfiguration") else {
                return log.skip(id, reason: "KDA HKDF multi-expansion groups are not supported by this runner")
            }
            let configuration = try group.fields.object("kdfConfiguration")
            let encoding = try configuration.string("fixedInfoEncoding")
            guard encoding == "concatenation" else {
                return log.skip(id, reason: "fixedInfo encoding \(encoding) is not supported (concatenation only)")
            }
            let hashName = try configuration.string("hmacAlg")
            guard let hash = ACVPHash.choice(hashName) else { return log.skip(id, reason: ACVPHash.unsupported(hashName)) }
            let parameters = try test.fields.object("kdfParameter")
            let bits = try parameters.has("l") ? parameters.integer("l") : configuration.integer("l")
            guard bits % 8 == 0, bits > 0 else { return log.skip(id, reason: "bit-oriented derived length \(bits)") }
            // SP 800-56C rev 2 §2: with a hybrid secret the KDF input is Z' = Z ‖ T.
            var secret = try parameters.hex("z")
            if parameters.has("t") { secret += try parameters.hex("t") }
            let salt = try parameters.hex("salt")
            let info: [UInt8]
            switch try fixedInfo(try configuration.string("fixedInfoPattern"), bits: bits, parameters, test.fields) {
            case .bytes(let bytes): info = bytes
            case .unsupported(let reason): return log.skip(id, reason: reason)
            }
            let derived: [UInt8]
            do {
                derived = try hash.hkdf(ikm: secret, salt: salt, info: info, length: bits / 8)
            } catch {
                return log.fail(id, comment, expected: "\(bits / 8) bytes of keying material", got: "\(error)")
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
