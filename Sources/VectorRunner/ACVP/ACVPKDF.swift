// ACVP key-derivation vector sets: ANSI X9.63 KDF (kdf-components ansix9.63, SP 800-135 §4.1)
// and PBKDF2 (PBKDF, SP 800-132 §5.3).

import CryptoPrimitives
import VectorFormats

enum ACVPKDF {
    /// X9.63: `z`, `sharedInfo`, group `keyDataLength` (bits) → `keyData`.
    static func checkX963(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let hashName = try group.fields.string("hashAlg")
            guard let hash = ACVPHash.choice(hashName) else { return log.skip(id, reason: ACVPHash.unsupported(hashName)) }
            let bits = try group.fields.integer("keyDataLength")
            guard bits % 8 == 0 else { return log.skip(id, reason: "bit-oriented key data length \(bits)") }
            let secret = try test.fields.hex("z"), info = try test.fields.hex("sharedInfo")
            let expected = try test.fields.hex("keyData", answer: true)
            do {
                log.expect(try hash.x963(secret: secret, info: info, length: bits / 8), equals: expected, id, comment)
            } catch {
                log.fail(id, comment, expected: hex(expected), got: "\(error)")
            }
        }
    }

    /// PBKDF: `password` (text), `salt`, `iterationCount`, `keyLen` (bits), group `hmacAlg` →
    /// `derivedKey`.
    static func checkPBKDF(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let hashName = try group.fields.string("hmacAlg")
            guard let hash = ACVPHash.choice(hashName) else { return log.skip(id, reason: ACVPHash.unsupported(hashName)) }
            let bits = try test.fields.integer("keyLen")
            guard bits % 8 == 0 else { return log.skip(id, reason: "bit-oriented key length \(bits)") }
            let expected = try test.fields.hex("derivedKey", answer: true)
            let password = Array(try test.fields.string("password").utf8), salt = try test.fields.hex("salt")
            let rounds = try test.fields.integer("iterationCount")
            do {
                log.expect(try hash.pbkdf2(password: password, salt: salt, rounds: rounds, length: bits / 8), equals: expected, id, comment)
            } catch {
                log.fail(id, comment, expected: hex(expected), got: "\(error)")
            }
        }
    }
}
