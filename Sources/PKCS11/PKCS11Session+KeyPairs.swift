// RSA key pairs in a token (PKCS #11 v2.40 §5.14 `C_GenerateKeyPair`, §5.9 `C_Decrypt`; current
// mechanisms §2.1): the constants, the key-pair generation call and single-part decryption.

public import CryptoPrimitives

/// `C_GenerateKeyPair(hSession, pMechanism, pPublicKeyTemplate, ulPublicKeyAttributeCount,
/// pPrivateKeyTemplate, ulPrivateKeyAttributeCount, phPublicKey, phPrivateKey)`.
typealias CGenerateKeyPair = @convention(c) (UInt, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt,
                                             UnsafeMutableRawPointer?, UInt, UnsafeMutablePointer<UInt>?, UnsafeMutablePointer<UInt>?) -> UInt

extension PKCS11AttributeType {
    /// `CKA_MODULUS` (current mechanisms §2.1.2).
    public static let modulus = Self(rawValue: 0x120)
    /// `CKA_MODULUS_BITS`: the size of the modulus to generate.
    public static let modulusBits = Self(rawValue: 0x121)
    /// `CKA_PUBLIC_EXPONENT`.
    public static let publicExponent = Self(rawValue: 0x122)
    /// `CKA_ALWAYS_AUTHENTICATE`: each use of the private key needs a context-specific login.
    public static let alwaysAuthenticate = Self(rawValue: 0x202)
}

extension PKCS11KeyType {
    /// `CKK_RSA`.
    public static let rsa = Self(rawValue: 0x0)
}

extension PKCS11Mechanism {
    /// `CKM_RSA_PKCS_KEY_PAIR_GEN` (current mechanisms §2.1.4).
    public static let rsaKeyPairGeneration = Self(rawValue: 0x0)
    /// `CKM_RSA_PKCS`: RSAES-PKCS1-v1_5 for `C_Decrypt` (current mechanisms §2.1.6). Weak: a
    /// module that reports bad padding as an error is a Bleichenbacher oracle; protocols that
    /// mandate it (Salt Edge) are its only users.
    public static let insecureRSAPKCS1v1_5 = Self(rawValue: 0x1)
    /// `CKM_SHA256_RSA_PKCS`: RSASSA-PKCS1-v1_5 with SHA-256 for `C_Sign` (current mechanisms §2.1.11).
    public static let sha256RSAPKCS = Self(rawValue: 0x40)
}

extension CKReturnValue {
    /// `CKR_ENCRYPTED_DATA_INVALID`: the ciphertext does not decrypt (bad padding).
    public static let encryptedDataInvalid = Self(rawValue: 0x40)
    /// `CKR_ENCRYPTED_DATA_LEN_RANGE`: the ciphertext is not one modulus long.
    public static let encryptedDataLengthRange = Self(rawValue: 0x41)
    /// `CKR_ATTRIBUTE_VALUE_INVALID`: a template value the module does not take.
    public static let attributeValueInvalid = Self(rawValue: 0x13)
    /// `CKR_KEY_TYPE_INCONSISTENT`: the key's type does not fit the mechanism.
    public static let keyTypeInconsistent = Self(rawValue: 0x63)
    /// `CKR_TEMPLATE_INCONSISTENT`: the module refuses the combination of attributes.
    public static let templateInconsistent = Self(rawValue: 0xD1)
    /// `CKR_USER_PIN_NOT_INITIALIZED`.
    public static let userPINNotInitialized = Self(rawValue: 0x102)
}

extension PKCS11Session {
    /// Generates a key pair inside the token (`C_GenerateKeyPair`) with a mechanism that takes
    /// no parameter, and returns the public and private key handles.
    public func generateKeyPair(_ mechanism: PKCS11Mechanism, publicTemplate: [PKCS11Attribute],
                                privateTemplate: [PKCS11Attribute]) throws(PKCS11Error) -> (publicKey: UInt, privateKey: UInt) {
        let generate = try functions.function(.generateKeyPair, as: CGenerateKeyPair.self)
        var publicKey: UInt = 0
        var privateKey: UInt = 0
        var ckMechanism = CKMechanism(mechanism: mechanism.rawValue, parameter: nil, parameterLength: 0)
        try withTemplate(publicTemplate) { (publicAttributes, publicCount) throws(PKCS11Error) in
            try withTemplate(privateTemplate) { (privateAttributes, privateCount) throws(PKCS11Error) in
                let rv = withUnsafeMutableBytes(of: &ckMechanism) {
                    generate(handle, $0.baseAddress, publicAttributes, publicCount, privateAttributes, privateCount, &publicKey, &privateKey)
                }
                try check(rv, .generateKeyPair)
            }
        }
        return (publicKey, privateKey)
    }

    /// The decryption of `data` under `key` (`C_DecryptInit` then single-part `C_Decrypt`), in
    /// wiped storage.
    public func decrypt(_ data: some Sequence<UInt8>, key: UInt, mechanism: PKCS11Mechanism) throws(PKCS11Error) -> SecretBytes {
        let decryptInit = try functions.function(.decryptInit, as: COperationInit.self)
        let decrypt = try functions.function(.decrypt, as: COneShot.self)
        return try singlePart(Array(data), key: key, mechanism: mechanism, initialize: (decryptInit, .decryptInit), run: (decrypt, .decrypt))
    }

    /// Whether the `CK_BBOOL` attribute `type` of `object` is true.
    func flag(_ type: PKCS11AttributeType, of object: UInt) throws(PKCS11Error) -> Bool {
        let value = try attribute(type, of: object)
        guard value.count == 1 else { throw PKCS11Error(.unexpectedOutput, "a CK_BBOOL of \(value.count) bytes", function: "C_GetAttributeValue") }
        return value.withUnsafeBytes { $0[0] != 0 }
    }

    /// The `CK_ULONG` attribute `type` of `object` (a key type, a class).
    func ulong(_ type: PKCS11AttributeType, of object: UInt) throws(PKCS11Error) -> UInt {
        let value = try attribute(type, of: object)
        guard value.count == MemoryLayout<UInt>.size else {
            throw PKCS11Error(.unexpectedOutput, "a CK_ULONG of \(value.count) bytes", function: "C_GetAttributeValue")
        }
        return value.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }
    }
}
