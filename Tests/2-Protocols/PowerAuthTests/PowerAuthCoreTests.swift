// The PowerAuth cryptography beyond the official vectors: the status blob built by a test
// server (AES from the primitives) and fed malformed, factor parsing, argument checks, the
// counter chain and redaction.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import Testing
import TestSupport

@Suite struct PowerAuthCoreTests {
    let transportKey = SymmetricKey(data: Array(0..<16))
    let challenge = [UInt8](repeating: 0xC1, count: 16)
    let nonce = [UInt8](repeating: 0x0E, count: 16)

    /// The server half: a 3.1+ blob (§6.3) encrypted under the transport key.
    func serverBlob(_ mutate: (inout [UInt8]) -> Void = { _ in }) throws -> [UInt8] {
        var blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, 3, 3, 3, 1, 2, 3, 4, 5, 0x2A, 1, 5, 20] + [UInt8](repeating: 0x77, count: 16)
        mutate(&blob)
        let iv = PowerAuth.StatusBlob.iv(transportKey: transportKey, challenge: challenge, nonce: nonce)
        return try AES.UnauthenticatedCBC.encrypt(blob, using: transportKey, iv: iv, padding: .none)
    }

    @Test func statusBlobFieldsRoundTrip() throws {
        let status = try PowerAuth.StatusBlob.decrypt(try serverBlob(), transportKey: transportKey, challenge: challenge, nonce: nonce)
        #expect(status.state == .active && status.counterByte == 0x2A && status.remainingAttempts == 4 && status.lookAheadWindow == 20)
        #expect(status.counterDataHash == [UInt8](repeating: 0x77, count: 16))
    }

    @Test func malformedStatusBlobsAreTypedErrors() throws {
        let mutations: [(inout [UInt8]) -> Void] = [
            { $0[0] = 0xDF }, { $0[3] = 0xD0 }, { $0[3] = 0xE1 }, { $0[4] = 0 }, { $0[4] = 6 }, { $0[4] = 128 }, { $0[15] = 0 }, { $0[15] = 65 },
        ]
        for mutate in mutations {
            #expect(throws: ProtocolError(.malformedInput, "")) {
                try PowerAuth.StatusBlob.decrypt(try serverBlob(mutate), transportKey: transportKey, challenge: challenge, nonce: nonce)
            }
        }
        let good = try serverBlob()
        for bad in [[], Array(good.prefix(31)), good + [0], good + good, [UInt8](repeating: 0, count: 32)] {
            #expect(throws: ProtocolError(.malformedInput, "")) {
                try PowerAuth.StatusBlob.decrypt(bad, transportKey: transportKey, challenge: challenge, nonce: nonce)
            }
        }
        #expect(throws: ProtocolError(.malformedInput, "")) {
            try PowerAuth.StatusBlob.decrypt(good, transportKey: transportKey, challenge: Array(challenge.prefix(15)), nonce: nonce)
        }
    }

    @Test func counterDistanceFollowsTheHashChain() throws {
        let local = try PowerAuth.CounterData(rawRepresentation: Array(repeating: 0x11, count: 16))
        // The server is three steps ahead: its hash is of next³(local).
        let ahead = local.next.next.next
        let counterKey = PowerAuth.KeyDerivation.derive(transportKey, index: 4000)
        let hash = PowerAuth.KeyDerivation.deriveInternal(counterKey, index: ahead.rawRepresentation.unsafeExposedBytes).withUnsafeBytes { Array($0) }
        #expect(PowerAuth.StatusBlob.counterDistance(from: local, serverHash: hash, transportKey: transportKey, window: 20) == 3)
        #expect(PowerAuth.StatusBlob.counterDistance(from: local, serverHash: hash, transportKey: transportKey, window: 3) == nil)
        // next = fold16(SHA-256(c)), computed here with Foundation-free plain code.
        let digest = SHA256.hash(data: [UInt8](repeating: 0x11, count: 16)).bytes
        #expect(local.next.rawRepresentation.unsafeExposedBytes == (0..<16).map { digest[$0] ^ digest[$0 + 16] })
        #expect(!"\(local)".contains("11") && !String(reflecting: local).contains("0x11"))
        #expect(throws: CryptoError.incorrectLength) { try PowerAuth.CounterData(rawRepresentation: [1, 2, 3]) }
    }

    @Test func factorsAndArguments() throws {
        #expect(PowerAuth.SignatureFactors(rawValue: "possession_knowledge") == .possessionKnowledge)
        for bad in ["knowledge_biometry", "", "POSSESSION", "possession_possession", "biometry_possession"] {
            #expect(PowerAuth.SignatureFactors(rawValue: bad) == nil)
        }
        let counter = try PowerAuth.CounterData(rawRepresentation: Array(repeating: 0, count: 16))
        let keys = PowerAuth.SignatureKeys(possession: SymmetricKey(data: Array(repeating: 1, count: 16)))
        #expect(throws: ProtocolError(.invalidArgument, "")) {
            try PowerAuth.Signature.compute(data: [], counter: counter, factors: .possessionKnowledge, keys: keys, format: .base64)
        }
        for digits in [3, 9] {
            #expect(throws: ProtocolError(.invalidArgument, "")) {
                try PowerAuth.Signature.compute(data: [], counter: counter, factors: .possession, keys: keys, format: .decimal(digits: digits))
            }
        }
        #expect(try PowerAuth.Signature.compute(data: [], counter: counter, factors: .possession, keys: keys, format: .base64).count == 24)
        // decimalize: 0xFFFFFFFF → top bit cleared → 2147483647.
        #expect(PowerAuth.Signature.decimalize([UInt8](repeating: 0xFF, count: 32), digits: 8) == "47483647")
        #expect(PowerAuth.Signature.decimalize([UInt8](repeating: 0, count: 28) + [0, 0, 0, 7], digits: 5) == "00007")
    }

    @Test func keyDerivationPutsTheIndexInTheLastEightBytes() throws {
        let master = SymmetricKey(data: Array(0..<16))
        let expected = try AES.encryptBlock([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03, 0xE8], using: master)
        #expect(PowerAuth.KeyDerivation.derive(master, index: 1000) == SymmetricKey(data: expected))
    }
}

@Suite struct PowerAuthLocalKeyTests {
    @Test func knowledgeKeyLockingHasNoVerifier() throws {
        var random = SeededRandomSource(seed: 21)
        let salt = try random.bytes(count: 16)
        let knowledge = SymmetricKey(data: try random.bytes(count: 16))
        let right = try PowerAuth.KeyLocking.passwordUnlockKey(password: SecretBytes("1234".utf8), salt: salt)
        let locked = try PowerAuth.KeyLocking.lock(knowledge, with: right)
        #expect(try PowerAuth.KeyLocking.unlock(locked, with: right) == knowledge)
        // A wrong password unlocks *a* key, silently; only the server can tell.
        let wrong = try PowerAuth.KeyLocking.passwordUnlockKey(password: SecretBytes("1235".utf8), salt: salt)
        #expect(try PowerAuth.KeyLocking.unlock(locked, with: wrong) != knowledge)
        // PBKDF2-HMAC-SHA1, 10 000 rounds, 16 bytes (RFC 6070's construction, checked against the primitive).
        let direct = try PBKDF2<Insecure.SHA1>.deriveKey(from: Array("1234".utf8), salt: salt, rounds: 10_000, outputByteCount: 16)
        #expect(right == direct)
        #expect(throws: ProtocolError(.invalidArgument, "")) { try PowerAuth.KeyLocking.passwordUnlockKey(password: SecretBytes("123".utf8), salt: salt) }
        #expect(throws: ProtocolError(.invalidArgument, "")) { try PowerAuth.KeyLocking.lock(knowledge, with: SymmetricKey(data: [UInt8](repeating: 0, count: 16))) }
        #expect(throws: ProtocolError(.invalidArgument, "")) { try PowerAuth.KeyLocking.unlock(Array(locked.prefix(15)), with: right) }
    }

    @Test func vaultUnwrapsTheKeyAndTheDevicePrivateKey() throws {
        var random = SeededRandomSource(seed: 22)
        let keys = PowerAuth.ActivationKeys(masterSecret: SymmetricKey(data: try random.bytes(count: 16)))
        let zero = [UInt8](repeating: 0, count: 16)
        // The server half: the vault key under the transport key, the private key under the vault key.
        let wrapped = try keys.vault.withUnsafeBytes { raw throws(CryptoError) in try AES.UnauthenticatedCBC.encrypt(raw, using: keys.transport, iv: zero) }
        let vaultKey = try PowerAuth.Vault.vaultKey(encryptedVaultEncryptionKey: wrapped, transportKey: keys.transport)
        #expect(vaultKey == keys.vault)
        let device = try P256.Signing.PrivateKey(using: &random)
        let minimal = Array(device.rawRepresentation.unsafeExposedBytes.drop(while: { $0 == 0 }))
        let sealed = try AES.UnauthenticatedCBC.encrypt(minimal, using: vaultKey, iv: zero)
        #expect(try PowerAuth.Vault.devicePrivateKey(sealed, vaultKey: vaultKey).publicKey == device.publicKey)
        #expect(throws: ProtocolError.decryptionFailure()) { try PowerAuth.Vault.devicePrivateKey(sealed, vaultKey: keys.transport) }
        #expect(throws: ProtocolError.decryptionFailure()) { try PowerAuth.Vault.vaultKey(encryptedVaultEncryptionKey: Array(wrapped.prefix(16)), transportKey: keys.transport) }
        #expect(PowerAuth.Vault.encryptionKey(vaultKey: vaultKey, index: 7) == PowerAuth.KeyDerivation.derive(keys.vault, index: 7))
        let header = PowerAuth.authorizationHeader(version: .v3_3, activationID: "a", applicationKey: "k", nonce: "n", factors: .possessionKnowledge, signature: "s")
        #expect(header == #"PowerAuth pa_version="3.3", pa_activation_id="a", pa_application_key="k", pa_nonce="n", pa_signature_type="possession_knowledge", pa_signature="s""#)
    }
}
