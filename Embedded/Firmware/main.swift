// The engine's known-answer self-test and per-operation timings on an emulated Cortex-M4 (QEMU
// mps2-an386, semihosting output). Built with Embedded
// Swift against CryptoCore and CryptoPrimitives by Embedded/run-qemu; startup.c provides the
// vector table, the reset handler and the clock.

import CryptoPrimitives

@_silgen_name("firmware_centiseconds")
func centiseconds() -> Int32

/// Runs `body` until at least `minimum` centiseconds passed and prints µs per operation.
func time(_ name: String, minimum: Int32 = 200, _ body: () -> Bool) -> Bool {
    var count = 0
    var ok = true
    let start = centiseconds()
    repeat {
        ok = body() && ok
        count += 1
    } while centiseconds() - start < minimum
    let elapsed = Int(centiseconds() - start)
    print("  time \(name): \(count) ops in \(elapsed * 10) ms, \(elapsed * 10_000 / count) us/op")
    return ok
}

@_cdecl("firmware_main")
func firmwareMain() -> Int32 {
    print("SwiftMFA engine on a Cortex-M4 (QEMU mps2-an386, Embedded Swift)")
    var failures = 0
    for (algorithm, passed) in CryptoSelfTest.runKnownAnswerTests() {
        print("  KAT \(algorithm): \(passed ? "pass" : "FAIL")")
        if !passed { failures += 1 }
    }
    do {
        let message = [UInt8](repeating: 0x61, count: 64)
        let block = [UInt8](repeating: 0x5a, count: 1024)
        let macKey = SymmetricKey(data: [UInt8](repeating: 0x0b, count: 32))
        let aesKey = SymmetricKey(data: [UInt8](repeating: 0x2b, count: 16))
        let counter = [UInt8](repeating: 0, count: 16)
        let signingKey = try P256.Signing.PrivateKey(rawRepresentation: try Hex.decode("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
        let agreementKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Hex.decode("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
        let peer = agreementKey.publicKey
        let signature = signingKey.deterministicSignature(for: message)
        var ok = true
        ok = time("SHA-256 (64 B)") { SHA256.hash(data: message).bytes.count == 32 } && ok
        ok = time("HMAC-SHA-256 (64 B)") { HMAC<SHA256>.authenticationCode(for: message, using: macKey).bytes.count == 32 } && ok
        ok = time("AES-128-CTR (1 KiB)") { ((try? AES.UnauthenticatedCTR.encrypt(block, using: aesKey, counterBlock: counter))?.count ?? 0) == 1024 } && ok
        ok = time("P-256 ECDSA sign (RFC 6979)") { signingKey.deterministicSignature(for: message).rawRepresentation.count == 64 } && ok
        ok = time("P-256 ECDSA verify") { signingKey.publicKey.isValidSignature(signature, for: message) } && ok
        ok = time("P-256 ECDH") { (try? agreementKey.sharedSecretFromKeyAgreement(with: peer)) != nil } && ok
        ok = time("BN254CX pairing", minimum: 300) { !BN254CX.pairing(BN254CX.G2.generator, BN254CX.G1.generator).isOne } && ok
        if !ok {
            print("  a timed operation gave a wrong answer")
            failures += 1
        }
    } catch {
        print("  the timing inputs did not decode")
        failures += 1
    }
    print(failures == 0 ? "self-test passed" : "self-test FAILED: \(failures)")
    return failures == 0 ? 0 : 1
}
