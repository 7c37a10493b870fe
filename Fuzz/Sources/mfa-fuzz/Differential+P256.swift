// diff-p256: P-256 against BoringSSL through swift-crypto: ECDSA signatures made by each side
// and verified by the other, verification of mutated and arbitrary (r, s) and of mutated public
// keys (both accept or both refuse), ECDH both ways, and every key and signature encoding
// (raw, X9.63, compressed, DER SubjectPublicKeyInfo, PKCS #8, SEC 1, DER and raw signatures)
// parsed by both: the same verdict and the same value.
//   byte 0: the operation; then a private scalar (32 bytes) and the operation's inputs.
// Encodings start valid and take fuzzer-chosen edits (PrimitiveFuzzInput.edited), so the
// parsers are fed near-misses rather than noise.
import BigInt
import Crypto
import CryptoPrimitives
import Foundation

extension FuzzTarget {
    static let differentialP256: [FuzzTarget] = [
        FuzzTarget("diff-p256") { input in
            var reader = PrimitiveFuzzInput(input)
            let operation = reader.byte()
            let scalar = reader.bytes(32)
            // A scalar of 0 or ≥ n: both must refuse it; nothing else to do with it.
            let ours = try? CryptoPrimitives.P256.Signing.PrivateKey(rawRepresentation: scalar)
            let theirs = try? Crypto.P256.Signing.PrivateKey(rawRepresentation: P256Differential.javaScalar(scalar))
            guard let ours, let theirs else {
                guard ours == nil, theirs == nil else { mismatch("P-256 private scalar verdict: engine \(ours != nil), reference \(theirs != nil)", input) }
                return
            }
            guard ours.publicKey.x963Representation == Array(theirs.publicKey.x963Representation) else { mismatch("P-256 public key of a scalar", input) }
            switch operation % 7 {
            case 0: P256Differential.signOurs(ours, theirs, &reader, input)
            case 1: P256Differential.signTheirs(ours, theirs, &reader, input)
            case 2: P256Differential.verifyMutated(theirs, &reader, input)
            case 3: P256Differential.publicEncodings(theirs, &reader, input)
            case 4: P256Differential.privateEncodings(ours, theirs, &reader, input)
            case 5: P256Differential.keyAgreement(scalar, &reader, input)
            default: P256Differential.signatureEncodings(theirs, &reader, input)
            }
        },
    ]
}

enum P256Differential {
    typealias OurKey = CryptoPrimitives.P256.Signing.PrivateKey
    typealias TheirKey = Crypto.P256.Signing.PrivateKey

    /// The engine's raw private scalar also takes, by design (P256+PrivateKey.swift), the Java
    /// `BigInteger.toByteArray()` forms PowerAuth servers store: 1…31 bytes for a small scalar,
    /// 33 bytes with a zero sign byte. BoringSSL takes exactly 32 bytes, so the reference is
    /// given those forms normalised to 32 bytes (anything else unchanged: it must refuse it),
    /// which compares the engine's extension on the value it stands for.
    static func javaScalar(_ bytes: [UInt8]) -> [UInt8] {
        switch bytes.count {
        case 1...31: [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
        case 33 where bytes[0] == 0: Array(bytes.dropFirst())
        default: bytes
        }
    }

    /// The group order n.
    static let order = BigUInt("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", radix: 16) ?? 0

    /// The engine signs (RFC 6979, or hedged with input-chosen randomness) the SHA-256 of the
    /// message or a SHA-384/512 digest of it; BoringSSL verifies the raw and the DER form.
    static func signOurs(_ ours: OurKey, _ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let mode = reader.byte()
        var random = SeededRandomSource(seed: reader.bytes(8))
        let message = reader.rest()
        let signature: CryptoPrimitives.P256.Signing.ECDSASignature
        let verified: (Crypto.P256.Signing.ECDSASignature) -> Bool
        switch mode % 4 {
        case 0:
            signature = ours.deterministicSignature(for: message)
            verified = { theirs.publicKey.isValidSignature($0, for: message) }
        case 1:
            guard let made = try? ours.signature(for: CryptoPrimitives.SHA256.hash(data: message), randomness: &random) else { FuzzTarget.mismatch("P-256 hedged signing failed", input) }
            signature = made
            verified = { theirs.publicKey.isValidSignature($0, for: Crypto.SHA256.hash(data: message)) }
        case 2:
            signature = ours.deterministicSignature(for: CryptoPrimitives.SHA384.hash(data: message))
            verified = { theirs.publicKey.isValidSignature($0, for: Crypto.SHA384.hash(data: message)) }
        default:
            signature = ours.deterministicSignature(for: CryptoPrimitives.SHA512.hash(data: message))
            verified = { theirs.publicKey.isValidSignature($0, for: Crypto.SHA512.hash(data: message)) }
        }
        guard let raw = try? Crypto.P256.Signing.ECDSASignature(rawRepresentation: signature.rawRepresentation), verified(raw) else {
            FuzzTarget.mismatch("BoringSSL refused the engine's P-256 signature (mode \(mode % 4))", input)
        }
        guard let der = try? Crypto.P256.Signing.ECDSASignature(derRepresentation: signature.derRepresentation),
              Array(der.rawRepresentation) == signature.rawRepresentation, Array(raw.derRepresentation) == signature.derRepresentation else {
            FuzzTarget.mismatch("DER form of the engine's P-256 signature", input)
        }
    }

    /// BoringSSL signs; the engine verifies the raw and the DER form.
    static func signTheirs(_ ours: OurKey, _ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let mode = reader.byte()
        let message = reader.rest()
        let made: Crypto.P256.Signing.ECDSASignature?
        let verified: (CryptoPrimitives.P256.Signing.ECDSASignature) -> Bool
        switch mode % 3 {
        case 0:
            made = try? theirs.signature(for: message)
            verified = { ours.publicKey.isValidSignature($0, for: message) }
        case 1:
            made = try? theirs.signature(for: Crypto.SHA384.hash(data: message))
            verified = { ours.publicKey.isValidSignature($0, for: CryptoPrimitives.SHA384.hash(data: message)) }
        default:
            made = try? theirs.signature(for: Crypto.SHA512.hash(data: message))
            verified = { ours.publicKey.isValidSignature($0, for: CryptoPrimitives.SHA512.hash(data: message)) }
        }
        guard let made else { return }
        guard let raw = try? CryptoPrimitives.P256.Signing.ECDSASignature(rawRepresentation: Array(made.rawRepresentation)), verified(raw),
              let der = try? CryptoPrimitives.P256.Signing.ECDSASignature(derRepresentation: Array(made.derRepresentation)), verified(der),
              der.rawRepresentation == Array(made.rawRepresentation) else {
            FuzzTarget.mismatch("the engine refused BoringSSL's P-256 signature (mode \(mode % 3))", input)
        }
    }

    /// A valid BoringSSL signature, then one change: none, s → n − s (the other valid s),
    /// r → r + n and s → s + n (out of range: both refuse), input bytes XORed into r‖s, or an
    /// arbitrary r‖s. Both verify it: the same verdict.
    static func verifyMutated(_ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let mutation = reader.byte()
        let mask = reader.bytes(64)
        let message = reader.rest()
        guard let made = try? theirs.signature(for: message) else { return }
        var raw = Array(made.rawRepresentation)
        let r = BigUInt(Data(raw[0..<32])), s = BigUInt(Data(raw[32...]))
        switch mutation % 6 {
        case 0: break
        case 1: raw = fixed(r) + fixed(order - s)
        case 2: raw = fixed(r + order) + fixed(s)
        case 3: raw = fixed(r) + fixed(s + order)
        case 4: for (index, byte) in mask.enumerated() { raw[index] ^= byte }
        default: raw = mask + [UInt8](repeating: 0, count: 64 - mask.count)
        }
        let ourKey = try? CryptoPrimitives.P256.Signing.PublicKey(x963Representation: Array(theirs.publicKey.x963Representation))
        let ourSignature = try? CryptoPrimitives.P256.Signing.ECDSASignature(rawRepresentation: raw)
        let ours = ourSignature.map { ourKey?.isValidSignature($0, for: message) ?? false } ?? false
        let reference = (try? Crypto.P256.Signing.ECDSASignature(rawRepresentation: raw)).map { theirs.publicKey.isValidSignature($0, for: message) } ?? false
        guard ours == reference else { FuzzTarget.mismatch("P-256 verdict on (r, s) = \(Hex.encode(raw)) (mutation \(mutation % 6)): engine \(ours), reference \(reference)", input) }
    }

    /// `value` as 32 big-endian bytes, or 32 × 0xFF when it does not fit (both must refuse it).
    static func fixed(_ value: BigUInt) -> [UInt8] {
        let bytes = Array(value.serialize())
        guard bytes.count <= 32 else { return [UInt8](repeating: 0xFF, count: 32) }
        return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
    }

    /// One encoding of the public key (raw, X9.63, compressed, DER SPKI), edited, parsed by both:
    /// the same verdict and the same point; then a signature under the original key is checked
    /// with the parsed one by both.
    static func publicEncodings(_ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let form = reader.byte() % 4
        let key = theirs.publicKey
        let valid: [UInt8] = [Array(key.rawRepresentation), Array(key.x963Representation), Array(key.compressedRepresentation), Array(key.derRepresentation)][Int(form)]
        let encoding = reader.edited(valid)
        typealias OurPublic = CryptoPrimitives.P256.Signing.PublicKey
        typealias TheirPublic = Crypto.P256.Signing.PublicKey
        let ours: OurPublic?, reference: TheirPublic?
        switch form {
        case 0: ours = try? OurPublic(rawRepresentation: encoding); reference = try? TheirPublic(rawRepresentation: encoding)
        case 1: ours = try? OurPublic(x963Representation: encoding); reference = try? TheirPublic(x963Representation: encoding)
        case 2: ours = try? OurPublic(compressedRepresentation: encoding); reference = try? TheirPublic(compressedRepresentation: encoding)
        default: ours = try? OurPublic(derRepresentation: encoding); reference = referenceSPKI(encoding)
        }
        guard ours?.x963Representation == reference.map({ Array($0.x963Representation) }) else {
            FuzzTarget.mismatch("P-256 public key form \(form), \(Hex.encode(encoding)): engine \(ours != nil), reference \(reference != nil)", input)
        }
        guard let ours, let reference, let made = try? theirs.signature(for: input),
              let ourSignature = try? CryptoPrimitives.P256.Signing.ECDSASignature(rawRepresentation: Array(made.rawRepresentation)) else { return }
        guard ours.isValidSignature(ourSignature, for: input) == reference.isValidSignature(made, for: input) else {
            FuzzTarget.mismatch("P-256 verdict under the edited public key \(Hex.encode(encoding))", input)
        }
    }

    /// The AlgorithmIdentifier of RFC 5480 §2.1.1 for P-256: id-ecPublicKey, secp256r1.
    static let algorithm: [UInt8] = [0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                     0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// The reference verdict on a DER SubjectPublicKeyInfo. swift-crypto reads only the BIT
    /// STRING and ignores the AlgorithmIdentifier (any algorithm, any curve OID passes), and it
    /// takes only the uncompressed point; the engine checks id-ecPublicKey/secp256r1 (RFC 5480
    /// §2.1.1, a deliberate strictness) and, as RFC 5480 §2.2 allows, a compressed point too.
    /// So: no canonical AlgorithmIdentifier right after the outer header → refuse; else
    /// swift-crypto's verdict, or for `30 39 ‖ algorithm ‖ 03 22 00 ‖ X` its compressed parser.
    static func referenceSPKI(_ der: [UInt8]) -> Crypto.P256.Signing.PublicKey? {
        guard der.count > 2 + algorithm.count, Array(der[2..<(2 + algorithm.count)]) == algorithm else { return nil }
        if let key = try? Crypto.P256.Signing.PublicKey(derRepresentation: der) { return key }
        let compressedHeader: [UInt8] = [0x30, 0x39] + algorithm + [0x03, 0x22, 0x00]
        guard der.count == compressedHeader.count + 33, Array(der.prefix(compressedHeader.count)) == compressedHeader else { return nil }
        return try? Crypto.P256.Signing.PublicKey(compressedRepresentation: der.suffix(33))
    }

    /// One encoding of the private key (raw, PKCS #8, SEC 1 with the curve and the public key
    /// uncompressed or compressed), edited, parsed by
    /// both: the same verdict and the same scalar.
    static func privateEncodings(_ ours: OurKey, _ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let form = reader.byte() % 4
        let sec1 = ours.sec1DERRepresentation.unsafeExposedBytes
        // Form 3: SEC 1 with the embedded public key compressed (RFC 5915 §3 allows either form).
        let compressedSEC1 = [0x30, 0x57] + sec1[2..<51] + [0xA1, 0x24, 0x03, 0x22, 0x00] + Array(theirs.publicKey.compressedRepresentation)
        let valid: [UInt8] = [Array(theirs.rawRepresentation), Array(theirs.derRepresentation), sec1, compressedSEC1][Int(form)]
        let encoding = reader.edited(valid)
        let parsedOurs = form == 0 ? try? OurKey(rawRepresentation: encoding) : try? OurKey(derRepresentation: encoding)
        let parsedTheirs = form == 0 ? try? TheirKey(rawRepresentation: javaScalar(encoding)) : try? TheirKey(derRepresentation: encoding)
        // By design (P256+PrivateKey.swift) the engine refuses a DER key whose embedded public
        // key is not the scalar's; BoringSSL ignores the embedded key. Such refusals are
        // excused, and only those: a matching embedded key in either SEC 1 form must be taken.
        if parsedOurs == nil, let parsedTheirs, form != 0, embedsOtherPublicKey(encoding, parsedTheirs.publicKey) { return }
        // swift-crypto also ignores the PKCS #8 AlgorithmIdentifier and the SEC 1 curve OID,
        // which the engine checks (RFC 5958, RFC 5915 §3): with those edited, the engine must
        // refuse and the reference's acceptance is not a verdict.
        let canonical = form == 1 ? algorithm : Array(algorithm.suffix(10))
        if form != 0, !contains(encoding, canonical) {
            guard parsedOurs == nil else { FuzzTarget.mismatch("P-256 private key with another algorithm or curve accepted: \(Hex.encode(encoding))", input) }
            return
        }
        guard parsedOurs?.rawRepresentation.unsafeExposedBytes == parsedTheirs.map({ Array($0.rawRepresentation) }) else {
            FuzzTarget.mismatch("P-256 private key form \(form), \(Hex.encode(encoding)): engine \(parsedOurs != nil), reference \(parsedTheirs != nil)", input)
        }
    }

    /// Whether `bytes` contains `part` somewhere.
    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard bytes.count >= part.count else { return false }
        return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
    }

    /// Whether `der` holds a BIT STRING shaped like an embedded public key (03 42 00 ‖ 65 bytes
    /// or 03 22 00 ‖ 33 bytes) whose content is not `key` in that form.
    static func embedsOtherPublicKey(_ der: [UInt8], _ key: Crypto.P256.Signing.PublicKey) -> Bool {
        for (header, expected) in [([UInt8]([0x03, 0x42, 0x00]), Array(key.x963Representation)), ([0x03, 0x22, 0x00], Array(key.compressedRepresentation))] {
            var start = 0
            while start + 3 + expected.count <= der.count {
                if Array(der[start..<(start + 3)]) == header, Array(der[(start + 3)..<(start + 3 + expected.count)]) != expected { return true }
                start += 1
            }
        }
        return false
    }

    /// ECDH: our scalar with a peer public key (from a second scalar, X9.63, then edited) on
    /// both sides: the same shared secret, or both refuse the peer key.
    static func keyAgreement(_ scalar: [UInt8], _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let peerScalar = reader.bytes(32)
        guard let peer = try? Crypto.P256.KeyAgreement.PrivateKey(rawRepresentation: peerScalar),
              let ours = try? CryptoPrimitives.P256.KeyAgreement.PrivateKey(rawRepresentation: scalar),
              let theirs = try? Crypto.P256.KeyAgreement.PrivateKey(rawRepresentation: javaScalar(scalar)) else { return }
        let peerX963 = reader.edited(Array(peer.publicKey.x963Representation))
        let ourPeer = try? CryptoPrimitives.P256.KeyAgreement.PublicKey(x963Representation: peerX963)
        let theirPeer = try? Crypto.P256.KeyAgreement.PublicKey(x963Representation: peerX963)
        let ourSecret = ourPeer.flatMap { try? ours.sharedSecretFromKeyAgreement(with: $0) }.map { $0.secret.unsafeExposedBytes }
        let theirSecret = theirPeer.flatMap { try? theirs.sharedSecretFromKeyAgreement(with: $0) }.map { referenceBytes($0) }
        guard ourSecret == theirSecret else { FuzzTarget.mismatch("P-256 ECDH with peer \(Hex.encode(peerX963)): engine \(ourSecret != nil), reference \(theirSecret != nil)", input) }
        // The other way round, for an unedited peer key: the peer's scalar with our public key.
        guard peerX963 == Array(peer.publicKey.x963Representation) else { return }
        guard let ourPeerPrivate = try? CryptoPrimitives.P256.KeyAgreement.PrivateKey(rawRepresentation: peerScalar),
              let back = try? ourPeerPrivate.sharedSecretFromKeyAgreement(with: ours.publicKey),
              let reference = try? peer.sharedSecretFromKeyAgreement(with: theirs.publicKey),
              back.secret.unsafeExposedBytes == referenceBytes(reference), back.secret.unsafeExposedBytes == ourSecret else {
            FuzzTarget.mismatch("P-256 ECDH the other way", input)
        }
    }

    /// A signature's DER (valid, edited) or raw form parsed by both: the same verdict and the
    /// same r‖s.
    static func signatureEncodings(_ theirs: TheirKey, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let useDER = reader.byte() & 1 == 0
        let message = reader.bytes(16)
        guard let made = try? theirs.signature(for: message) else { return }
        let encoding = reader.edited(Array(useDER ? made.derRepresentation : made.rawRepresentation))
        let ours = useDER ? try? CryptoPrimitives.P256.Signing.ECDSASignature(derRepresentation: encoding)
                          : try? CryptoPrimitives.P256.Signing.ECDSASignature(rawRepresentation: encoding)
        let reference = useDER ? try? Crypto.P256.Signing.ECDSASignature(derRepresentation: encoding)
                               : try? Crypto.P256.Signing.ECDSASignature(rawRepresentation: encoding)
        guard ours?.rawRepresentation == reference.map({ Array($0.rawRepresentation) }) else {
            FuzzTarget.mismatch("P-256 signature \(useDER ? "DER" : "raw") \(Hex.encode(encoding)): engine \(ours != nil), reference \(reference != nil)", input)
        }
    }
}
