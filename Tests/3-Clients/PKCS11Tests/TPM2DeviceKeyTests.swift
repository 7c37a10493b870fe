// The clients' factor keys on a TPM-backed token (tpm2-pkcs11 on swtpm), when one is set up
// (SWIFTMFA_TPM2_PKCS11_URI, from HardwareKeys/swtpm-token create): the Salt Edge RSA key pair
// is generated, signs and decrypts in the TPM; an HMAC secret cannot be imported (tpm2-pkcs11
// 1.9 refuses C_CreateObject of a secret key), so the CM secret stays sealed in the store.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import PKCS11

@Suite(.serialized, .enabled(if: TPM2Token.uriText != nil, "SWIFTMFA_TPM2_PKCS11_URI is not set (eval \"$(HardwareKeys/swtpm-token create)\")"))
struct TPM2DeviceKeyTests {
    func store() throws -> PKCS11DeviceKeyStore {
        PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: PKCS11URI(TPM2Token.uriText ?? ""), storeIdentifier: PKCS11StoreIdentifier.random()))
    }

    @Test func theRSAKeyPairLivesInTheTPM() throws {
        let store = try store()
        let key = try store.makeRSAKey(label: "tpm-connection")
        defer { try? store.deleteRSAKey(label: "tpm-connection") }  // a leftover key in a throw-away token is harmless
        let message = Array("eyJhbGciOiJSUzI1NiJ9.e30".utf8)
        #expect(key.publicKey.isValidSignature(try key.signSHA256PKCS1(message), for: message, padding: .pkcs1v1_5))
        let secret = Array(repeating: UInt8(0xA5), count: 32)
        let ciphertext = try RSA.Encryption.PublicKey(sameKeyAs: key.publicKey).encrypt(secret, padding: .insecurePKCS1v1_5)
        #expect(try key.decryptPKCS1v15(ciphertext, messageByteCount: 32).unsafeExposedBytes == secret)
        #expect(try store.rsaKey(label: "tpm-connection").publicKey.modulus == key.publicKey.modulus)
    }

    @Test func anHMACSecretCannotBeImported() throws {
        let store = try store()
        let error = #expect(throws: DeviceKeyError.self) {
            try store.makeHMACKey(label: "tpm-environment", secret: SecretBytes(Array(repeating: 3, count: 32)))
        }
        #expect(error?.code == .unsupported, "\(String(describing: error))")
        // tpm2-pkcs11 1.9: C_CreateObject of a CKK_GENERIC_SECRET is CKR_ATTRIBUTE_VALUE_INVALID.
        #expect((error?.cause as? PKCS11Error)?.returnValue == .attributeValueInvalid, "\(String(describing: error))")
    }
}
