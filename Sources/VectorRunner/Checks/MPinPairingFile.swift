// `mpin/own/pairing_bn254cx_milagro_generated.json`: Milagro's PAIR_ate + PAIR_fexp on
// Q = b·G2 and P = a·G1 (mpin/README.md §C). Each case checks both multiples, both G1
// encodings and the 384-byte GT value.

import CryptoPrimitives
import MPin
import VectorFormats

enum MPinPairingFile {
    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        for entry in log.array(json, "the top-level array") {
            let id = "case \(entry["case"]?.int ?? -1)"
            do throws(VectorFormatError) {
                let a = try MPinFiles.scalar(entry, "a"), b = try MPinFiles.scalar(entry, "b")
                let pBytes = try MPinFiles.bytes(entry, "P_eq_a_times_G1"), qBytes = try MPinFiles.bytes(entry, "Q_eq_b_times_G2")
                let expected = try MPinFiles.bytes(entry, "e_Q_P_after_fexp")
                guard let p = try? BN254CX.G1(encoded: pBytes), let q = try? BN254CX.G2(encoded: qBytes),
                      let compressed = try? BN254CX.G1(encoded: try MPinFiles.bytes(entry, "P_compressed")) else {
                    log.fail(id, "", expected: "decodable points", got: "refused")
                    continue
                }
                let compressedBytes = try MPinFiles.bytes(entry, "P_compressed")
                let multiples = BN254CX.G1.generator.multiplied(by: a) == p && BN254CX.G2.generator.multiplied(by: b) == q
                    && compressed == p && p.compressedRepresentation == compressedBytes
                guard multiples else {
                    log.fail(id, "", expected: "P = a·G1, Q = b·G2", got: "different points")
                    continue
                }
                log.expect(BN254CX.pairing(q, p).rawRepresentation, equals: expected, id, "e(Q, P)")
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }
}

/// Shared field readers and the dispatch of the M-Pin files.
enum MPinFiles {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "pairing_bn254cx_milagro_generated.json" where json.array != nil: MPinPairingFile.check
        case "BN254_CX.json" where json.array?.first?["V"] != nil: MPinMilagroFiles.checkTwoPass
        case "BN254_CXOnePass.json" where json.array?.first?["TimeValue"] != nil: MPinMilagroFiles.checkOnePass
        case "mpin_dvs_milagro_generated.json" where json.array?.first?["DVS_PUBLIC_KEY"] != nil: MPinDVSFile.check
        case "bn254cx_params.json" where json["curves"]?["BN254CX"] != nil: MPinParamsFile.check
        default: nil
        }
    }

    static func bytes(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let text = entry[name]?.string else { throw .missingField(name) }
        return try HexText.bytes(text, field: name)
    }

    static func masterShare(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> MPin.MasterSecretShare {
        MPin.MasterSecretShare(try scalar(entry, name))
    }

    /// The master shares MS1 and MS2 and the server secret issued from them, each server share
    /// and the combination checked against SS1, SS2 and SERVER_SECRET; `problem` names the first
    /// field that differs.
    static func serverSide(_ entry: JSONValue) throws(VectorFormatError)
        -> (shares: [MPin.MasterSecretShare], serverSecret: MPin.ServerSecret, problem: String?) {
        let shares = [try masterShare(entry, "MS1"), try masterShare(entry, "MS2")]
        let serverShares = shares.map(MPin.Issuer.serverSecret)
        let serverSecret = MPin.Issuer.combine(serverShares)
        let (ss1, ss2, combined) = (try bytes(entry, "SS1"), try bytes(entry, "SS2"), try bytes(entry, "SERVER_SECRET"))
        var problem: String?
        if serverShares[0].rawRepresentation.unsafeExposedBytes != ss1 || serverShares[1].rawRepresentation.unsafeExposedBytes != ss2 {
            problem = "SS1/SS2"
        } else if serverSecret.rawRepresentation.unsafeExposedBytes != combined {
            problem = "SERVER_SECRET"
        }
        return (shares, serverSecret, problem)
    }

    /// Whether a secret point's encoding equals the field.
    static func same(_ value: some MPinSecretPoint, _ entry: JSONValue, _ name: String) throws(VectorFormatError) -> Bool {
        value.rawRepresentation.unsafeExposedBytes == (try bytes(entry, name))
    }

    static func scalar(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> BN254CX.Scalar {
        let raw = try bytes(entry, name)
        guard let value = try? BN254CX.Scalar(rawRepresentation: [UInt8](repeating: 0, count: max(0, 32 - raw.count)) + raw) else {
            throw .badHex(name)
        }
        return value
    }
}
