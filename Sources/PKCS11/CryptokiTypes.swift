// The C structures and constants of PKCS #11 v2.40 (`pkcs11t.h`) that this client passes
// across `dlopen`, declared in Swift with the C layout of Linux x86-64 / arm64: `CK_ULONG` is
// `unsigned long` (8 bytes, `UInt`), `CK_BBOOL` and `CK_UTF8CHAR` are one byte, and a struct's
// fields keep their order and natural alignment (Swift lays out a plain struct the same way,
// which `CryptokiLayoutTests` checks against the real module).

/// `CK_VERSION` (PKCS #11 v2.40 §3.1): a major and a minor byte.
public struct CKVersion: Sendable, Equatable {
    /// The major version.
    public var major: UInt8
    /// The minor version.
    public var minor: UInt8

    /// A version.
    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }
}

/// `CK_ATTRIBUTE` (PKCS #11 v2.40 §3.4): `{ CK_ULONG type; void *pValue; CK_ULONG ulValueLen; }`.
package struct CKAttribute {
    var type: UInt
    package var value: UnsafeMutableRawPointer?
    package var valueLength: UInt
}

/// `CK_MECHANISM` (PKCS #11 v2.40 §3.6): `{ CK_ULONG mechanism; void *pParameter; CK_ULONG ulParameterLen; }`.
package struct CKMechanism {
    var mechanism: UInt
    package var parameter: UnsafeMutableRawPointer?
    package var parameterLength: UInt
}

/// `CK_C_INITIALIZE_ARGS` (PKCS #11 v2.40 §3.7): four mutex callbacks (left null: the module
/// uses the operating system's locks), flags, and a reserved pointer.
package struct CKInitializeArgs {
    var createMutex: UnsafeMutableRawPointer? = nil
    var destroyMutex: UnsafeMutableRawPointer? = nil
    var lockMutex: UnsafeMutableRawPointer? = nil
    var unlockMutex: UnsafeMutableRawPointer? = nil
    package var flags: UInt = 0
    package var reserved: UnsafeMutableRawPointer? = nil
}

/// `CK_TOKEN_INFO` (PKCS #11 v2.40 §3.2): space-padded character arrays, flags, ten counters,
/// two versions and a 16-character time. 208 bytes on LP64.
package struct CKTokenInfo {
    package var label = InlineArray<32, UInt8>(repeating: 0)
    package var manufacturerID = InlineArray<32, UInt8>(repeating: 0)
    package var model = InlineArray<16, UInt8>(repeating: 0)
    package var serialNumber = InlineArray<16, UInt8>(repeating: 0)
    package var flags: UInt = 0
    package var maxSessionCount: UInt = 0
    package var sessionCount: UInt = 0
    package var maxReadWriteSessionCount: UInt = 0
    package var readWriteSessionCount: UInt = 0
    package var maxPINLength: UInt = 0
    package var minPINLength: UInt = 0
    package var totalPublicMemory: UInt = 0
    package var freePublicMemory: UInt = 0
    package var totalPrivateMemory: UInt = 0
    package var freePrivateMemory: UInt = 0
    package var hardwareVersion = CKVersion(major: 0, minor: 0)
    package var firmwareVersion = CKVersion(major: 0, minor: 0)
    package var utcTime = InlineArray<16, UInt8>(repeating: 0)
}

/// `CK_SLOT_INFO` (PKCS #11 v2.40 §3.2): blank-padded description and manufacturer, flags, two
/// versions. 112 bytes on LP64.
package struct CKSlotInfo {
    var slotDescription = InlineArray<64, UInt8>(repeating: 0)
    package var manufacturerID = InlineArray<32, UInt8>(repeating: 0)
    package var flags: UInt = 0
    package var hardwareVersion = CKVersion(major: 0, minor: 0)
    package var firmwareVersion = CKVersion(major: 0, minor: 0)
}

/// `CK_INFO` (PKCS #11 v2.40 §3.1): the interface version, the library's manufacturer, flags,
/// description and version. 88 bytes on LP64.
package struct CKInfo {
    var cryptokiVersion = CKVersion(major: 0, minor: 0)
    package var manufacturerID = InlineArray<32, UInt8>(repeating: 0)
    package var flags: UInt = 0
    package var libraryDescription = InlineArray<32, UInt8>(repeating: 0)
    package var libraryVersion = CKVersion(major: 0, minor: 0)
}

/// Flag and user-type constants (PKCS #11 v2.40 §3.2, §3.5, §5.4).
enum CKConstant {
    /// `CKF_OS_LOCKING_OK` in `CK_C_INITIALIZE_ARGS.flags`.
    static let osLockingOK: UInt = 0x2
    /// `CKF_RW_SESSION` and `CKF_SERIAL_SESSION` for `C_OpenSession`.
    static let readWriteSession: UInt = 0x2
    static let serialSession: UInt = 0x4
    /// `CKF_TOKEN_INITIALIZED`, `CKF_LOGIN_REQUIRED`, `CKF_USER_PIN_INITIALIZED` in token flags.
    static let tokenInitialized: UInt = 0x400
    static let loginRequired: UInt = 0x4
    static let userPINInitialized: UInt = 0x8
    /// `CKU_SO` and `CKU_USER`.
    static let securityOfficer: UInt = 0
    static let user: UInt = 1
}

/// A `CK_ATTRIBUTE_TYPE` (PKCS #11 v2.40 §4.1).
public struct PKCS11AttributeType: RawRepresentable, Hashable, Sendable {
    /// The `CKA_` value.
    public let rawValue: UInt
    /// Wraps a `CKA_` value.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `CKA_CLASS`.
    public static let `class` = Self(rawValue: 0x0)
    /// `CKA_TOKEN`: the object outlives the session.
    public static let token = Self(rawValue: 0x1)
    /// `CKA_PRIVATE`: only a logged-in user sees the object.
    public static let `private` = Self(rawValue: 0x2)
    /// `CKA_LABEL`.
    public static let label = Self(rawValue: 0x3)
    /// `CKA_VALUE`.
    public static let value = Self(rawValue: 0x11)
    /// `CKA_KEY_TYPE`.
    public static let keyType = Self(rawValue: 0x100)
    /// `CKA_ID`.
    public static let id = Self(rawValue: 0x102)
    /// `CKA_SENSITIVE`: the value never leaves the token in the clear.
    public static let sensitive = Self(rawValue: 0x103)
    /// `CKA_ENCRYPT`.
    public static let encrypt = Self(rawValue: 0x104)
    /// `CKA_DECRYPT`.
    public static let decrypt = Self(rawValue: 0x105)
    /// `CKA_SIGN`.
    public static let sign = Self(rawValue: 0x108)
    /// `CKA_VERIFY`.
    public static let verify = Self(rawValue: 0x10A)
    /// `CKA_VALUE_LEN`.
    public static let valueLength = Self(rawValue: 0x161)
    /// `CKA_EXTRACTABLE`: false means the value cannot be wrapped out either.
    public static let extractable = Self(rawValue: 0x162)
    /// `CKA_LOCAL`: the key was generated on the token, not imported.
    public static let local = Self(rawValue: 0x163)
    /// `CKA_NEVER_EXTRACTABLE`: the key has never been extractable.
    public static let neverExtractable = Self(rawValue: 0x164)
    /// `CKA_ALWAYS_SENSITIVE`: the key has always been sensitive.
    public static let alwaysSensitive = Self(rawValue: 0x165)
}

/// A `CK_OBJECT_CLASS` (PKCS #11 v2.40 §4.3).
public struct PKCS11ObjectClass: RawRepresentable, Hashable, Sendable {
    /// The `CKO_` value.
    public let rawValue: UInt
    /// Wraps a `CKO_` value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// `CKO_DATA`.
    public static let data = Self(rawValue: 0)
    /// `CKO_CERTIFICATE`.
    public static let certificate = Self(rawValue: 1)
    /// `CKO_PUBLIC_KEY`.
    public static let publicKey = Self(rawValue: 2)
    /// `CKO_PRIVATE_KEY`.
    public static let privateKey = Self(rawValue: 3)
    /// `CKO_SECRET_KEY`.
    public static let secretKey = Self(rawValue: 4)
}

/// A `CK_KEY_TYPE` (PKCS #11 v2.40 §4.6; current mechanisms §2).
public struct PKCS11KeyType: RawRepresentable, Hashable, Sendable {
    /// The `CKK_` value.
    public let rawValue: UInt
    /// Wraps a `CKK_` value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// `CKK_GENERIC_SECRET`: usable with the HMAC mechanisms.
    public static let genericSecret = Self(rawValue: 0x10)
    /// `CKK_AES`.
    public static let aes = Self(rawValue: 0x1F)
    /// `CKK_SHA256_HMAC`.
    public static let sha256HMAC = Self(rawValue: 0x2B)
}

/// A `CK_MECHANISM_TYPE` without parameters (PKCS #11 v2.40 current mechanisms).
public struct PKCS11Mechanism: RawRepresentable, Hashable, Sendable {
    /// The `CKM_` value.
    public let rawValue: UInt
    /// Wraps a `CKM_` value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// `CKM_SHA256_HMAC`: a full 32-byte HMAC-SHA256 (current mechanisms §2.21).
    public static let sha256HMAC = Self(rawValue: 0x251)
    /// `CKM_GENERIC_SECRET_KEY_GEN`: a random `CKK_GENERIC_SECRET` of `CKA_VALUE_LEN` bytes.
    public static let genericSecretKeyGeneration = Self(rawValue: 0x350)
    /// `CKM_AES_KEY_GEN`.
    public static let aesKeyGeneration = Self(rawValue: 0x1080)
    /// `CKM_AES_ECB`: single blocks, no padding. Unauthenticated; for building blocks only.
    public static let insecureAESECB = Self(rawValue: 0x1081)
}
