// ACVP KTS-IFC vector sets (SP 800-56B rev 2 §9, KTS-OAEP; draft-hammett-acvp-kas-ifc): the
// responder decrypts the server's ciphertext to the keying material; the initiator's
// ciphertext is checked with the server's private key when the vector set carries it.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum ACVPKTS {
    /// What a KTS-OAEP-basic case needs: the role, L in bytes, the OAEP padding and label.
    struct Setup {
        let responder: Bool
        let byteCount: Int
        let padding: RSA.Encryption.Padding
        let label: [UInt8]
    }

    enum SetupOutcome { case setup(Setup), unsupported(String) }

    /// The scheme, hash, length and OAEP label of a case, or why the engine cannot run it.
    static func setup(_ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> SetupOutcome {
        let scheme = try group.fields.string("scheme")
        guard scheme == "KTS-OAEP-basic" else {
            return .unsupported("KTS scheme \(scheme): key confirmation is not implemented by this runner (KTS-OAEP-basic only)")
        }
        let configuration = try group.fields.object("ktsConfiguration")
        let hashName = try configuration.string("hashAlg")
        guard let hash = ACVPHash.choice(hashName) else { return .unsupported(ACVPHash.unsupported(hashName)) }
        let bits = try group.fields.integer("l")
        guard bits % 8 == 0, bits > 0 else { return .unsupported("bit-oriented keying material length \(bits)") }
        let responder = try group.fields.string("kasRole") == "responder"
        switch try associatedData(configuration, bits: bits, responder: responder, group, test) {
        case .bytes(let label):
            // SP 800-56B rev 2 §7.2.2: RSA-OAEP with MGF1 on the same hash.
            let padding = RSA.Encryption.Padding.oaep(hash: hash.algorithm, mgf1Hash: hash.algorithm)
            return .setup(Setup(responder: responder, byteCount: bits / 8, padding: padding, label: label))
        case .unsupported(let reason):
            return .unsupported(reason)
        }
    }

    static func check(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let setup: Setup
            switch try self.setup(group, test) {
            case .setup(let made): setup = made
            case .unsupported(let reason): return log.skip(id, reason: reason)
            }
            let (responder, padding, label) = (setup.responder, setup.padding, setup.label)
            // The key pair that decrypts: the IUT's as responder, the server's as initiator.
            let owner = responder ? "iut" : "server"
            guard test.fields.has(owner + "D") else {
                return log.skip(id, reason: "the server's private key is not in the vector set: the lab checks the IUT's ciphertext")
            }
            let key: RSA.Encryption.PrivateKey
            switch try privateKey(owner, test.fields) {
            case .key(let made): key = made
            case .unsupported(let reason): return log.skip(id, reason: reason)
            }
            let ciphertext = try test.fields.hex(responder ? "serverC" : "iutC", answer: !responder)
            let decrypted = try? key.decrypt(RSACheck.leftPadded(ciphertext, to: key.publicKey.byteCount), padding: padding, label: label)
            if try group.fields.string("testType") == "VAL" {
                let expected = try test.fields.bool("testPassed", answer: true)
                let given = try test.fields.hex("dkm", answer: true)
                let agrees = decrypted != nil && decrypted == given
                return log.expect(agrees == expected, id, comment, expected: expected ? "dkm recovered" : "rejected or another dkm",
                                  got: agrees ? "dkm recovered" : "rejected or another dkm")
            }
            let dkm = try test.fields.hex("dkm", answer: true)
            guard dkm.count == setup.byteCount else { throw .wrongType("dkm", expected: "l bits", at: test.fields.place) }
            guard !responder, decrypted == dkm else {
                return log.expect(decrypted, equals: dkm, id, comment + " " + owner + " decrypts")
            }
            // Initiator: the engine also wraps the keying material, and the server key unwraps it.
            var random = SystemRandomSource()
            let wrapped = try? key.publicKey.encrypt(dkm, padding: padding, label: label, using: &random)
            let unwrapped = wrapped.flatMap { try? key.decrypt($0, padding: padding, label: label) }
            log.expect(unwrapped, equals: dkm, id, comment + " engine encrypts, server decrypts")
        }
    }

    /// The IUT's answer (draft-hammett-acvp-kas-ifc, test vector responses). Responder AFT:
    /// the IUT's key from the prompt decrypts `serverC` to `dkm`. Initiator AFT: fresh keying
    /// material of L bits (SP 800-56B rev 2 §9.2.3) encrypted to the server's key: `iutC` and
    /// `dkm`. VAL: `testPassed`, whether the given ciphertext decrypts to the given `dkm`.
    static func respond(_ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> ACVPResponder.Answer {
        let setup: Setup
        switch try self.setup(group, test) {
        case .setup(let made): setup = made
        case .unsupported(let reason): return .unanswered(reason)
        }
        let validation = try group.fields.string("testType") == "VAL"
        if setup.responder || validation {
            let owner = setup.responder ? "iut" : "server"
            guard test.fields.has(owner + "D") else {
                return .unanswered("the \(owner == "iut" ? "IUT's" : "server's") private key is not in the prompt")
            }
            let key: RSA.Encryption.PrivateKey
            switch try privateKey(owner, test.fields) {
            case .key(let made): key = made
            case .unsupported(let reason): return .unanswered(reason)
            }
            let ciphertext = try test.fields.hex(setup.responder ? "serverC" : "iutC")
            let decrypted = try? key.decrypt(RSACheck.leftPadded(ciphertext, to: key.publicKey.byteCount), padding: setup.padding, label: setup.label)
            if validation {
                let given = try test.fields.hex("dkm")
                return .fields(["testPassed": .bool(decrypted != nil && decrypted == given)])
            }
            // KTS-OAEP decryption failure is one error (SP 800-56B rev 2 §7.2.2.4): no dkm to give.
            guard let decrypted, decrypted.count == setup.byteCount else { return .unanswered("serverC does not decrypt to \(setup.byteCount) bytes under the IUT's key") }
            return .fields(["dkm": ACVPResponder.hexValue(decrypted)])
        }
        let modulus = try test.fields.hex("serverN"), exponent = try test.fields.hex("serverE")
        let serverKey: RSA.Encryption.PublicKey
        do {
            serverKey = try RSA.Encryption.PublicKey(modulus: modulus, publicExponent: exponent)
        } catch {
            return .unanswered("the engine does not take the server's \(ACVPRSA.bitLength(modulus))-bit key (\(error))")
        }
        var random = SystemRandomSource()
        do {
            let dkm = try random.bytes(count: setup.byteCount)
            let ciphertext = try serverKey.encrypt(dkm, padding: setup.padding, label: setup.label, using: &random)
            return .fields(["iutC": ACVPResponder.hexValue(ciphertext), "dkm": ACVPResponder.hexValue(dkm)])
        } catch {
            return .unanswered("RSA-OAEP encryption to the server's key failed (\(error))")
        }
    }

    /// The OAEP label A of KTS-OAEP (SP 800-56B rev 2 §9.1, "additional input"), from the
    /// group's `associatedDataPattern` (concatenation): `l` is L in bits as a 32-bit big-endian
    /// integer; `uPartyInfo` the initiator's id, `vPartyInfo` the responder's; `label`,
    /// `context`, `algorithmId` the case's ktsParameter field; `literal[…]` the hex inside.
    static func associatedData(_ configuration: ACVPFields, bits: Int, responder: Bool, _ group: ACVPGroup,
                               _ test: ACVPCase) throws(ACVPFormatError) -> ACVPKDA.FixedInfo {
        let pattern = configuration.has("associatedDataPattern") ? try configuration.string("associatedDataPattern") : ""
        guard !pattern.isEmpty else { return .bytes([]) }
        let encoding = try configuration.string("encoding")
        guard encoding == "concatenation" else {
            return .unsupported("associated data encoding \(encoding) is not supported (concatenation only)")
        }
        let iut = try group.fields.hex("iutId"), server = try group.fields.hex("serverId")
        let parameters = test.fields.has("ktsParameter") ? try test.fields.object("ktsParameter") : ACVPFields([:], at: test.fields.place)
        var out: [UInt8] = []
        for piece in pattern.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
            switch piece {
            case "uPartyInfo": out += responder ? server : iut
            case "vPartyInfo": out += responder ? iut : server
            case "l": out += withUnsafeBytes(of: UInt32(truncatingIfNeeded: bits).bigEndian, Array.init)
            case let literal where literal.hasPrefix("literal[") && literal.hasSuffix("]"):
                do {
                    out += try HexText.bytes(String(literal.dropFirst("literal[".count).dropLast()), field: "associatedDataPattern")
                } catch {
                    throw .wrongType("associatedDataPattern", expected: "hex inside literal[…]", at: group.fields.place)
                }
            case let name where parameters.has(name): out += try parameters.hex(name)
            case let name: return .unsupported("associated data piece \(name) has no value in the case")
            }
        }
        return .bytes(out)
    }

    enum KeyOutcome { case key(RSA.Encryption.PrivateKey), unsupported(String) }

    /// The key pair `prefix`N, E, D, P, Q (and the CRT values `prefix`Dmp1, Dmq1, Iqmp when
    /// given; otherwise computed: d mod (p − 1), d mod (q − 1), q^(p−2) mod p).
    static func privateKey(_ prefix: String, _ fields: ACVPFields) throws(ACVPFormatError) -> KeyOutcome {
        let n = try fields.hex(prefix + "N"), e = try fields.hex(prefix + "E"), d = try fields.hex(prefix + "D")
        let p = try fields.hex(prefix + "P"), q = try fields.hex(prefix + "Q")
        guard ACVPRSA.bitLength(e) <= 32 else {
            return .unsupported("public exponent of \(ACVPRSA.bitLength(e)) bits: the engine takes exponents below 2^32")
        }
        let dP = fields.has(prefix + "Dmp1") ? try fields.hex(prefix + "Dmp1") : BigBytes.remainder(d, BigBytes.minus(p, 1))
        let dQ = fields.has(prefix + "Dmq1") ? try fields.hex(prefix + "Dmq1") : BigBytes.remainder(d, BigBytes.minus(q, 1))
        let qInv = fields.has(prefix + "Iqmp") ? try fields.hex(prefix + "Iqmp")
            : RSA.modularPowerVartime(q, BigBytes.minus(p, 2), modulus: p)
        guard let qInv else { return .unsupported("primes of \(p.count * 8) bits are outside the engine's modular arithmetic") }
        do {
            return .key(try RSA.Encryption.PrivateKey(modulus: n, publicExponent: e, privateExponent: SecretBytes(d),
                                                      prime1: SecretBytes(p), prime2: SecretBytes(q), exponent1: SecretBytes(dP),
                                                      exponent2: SecretBytes(dQ), coefficient: SecretBytes(qInv)))
        } catch {
            return .unsupported("the engine does not take this \(ACVPRSA.bitLength(n))-bit key (\(error))")
        }
    }
}

/// Slow big-endian unsigned arithmetic for deriving CRT values of test keys (never secrets
/// in use): subtraction of a small number and the remainder by shift and subtract.
enum BigBytes {
    /// a − small, for a ≥ small (an odd prime minus 1 or 2).
    static func minus(_ a: [UInt8], _ small: UInt8) -> [UInt8] {
        var out = a, borrow = Int(small)
        for index in out.indices.reversed() where borrow > 0 {
            let value = Int(out[index]) - borrow
            out[index] = UInt8(truncatingIfNeeded: value)
            borrow = value < 0 ? 1 : 0
        }
        return out
    }

    /// a mod m, bit by bit (m > 0).
    static func remainder(_ a: [UInt8], _ m: [UInt8]) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: m.count + 1)
        let modulus = [0] + m
        for byte in a {
            for shift in (0..<8).reversed() {
                var carry = (byte >> UInt8(shift)) & 1
                for index in r.indices.reversed() {
                    let next = r[index] >> 7
                    r[index] = r[index] << 1 | carry
                    carry = next
                }
                if ACVPRSA.compare(r, modulus) >= 0 { r = difference(r, modulus) }
            }
        }
        return Array(r.dropFirst())
    }
}
