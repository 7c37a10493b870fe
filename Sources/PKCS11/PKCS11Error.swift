// The one error type of the PKCS #11 client: every CK_RV a module returns keeps its value and
// its name, and what goes wrong before a module answers (no file, not a module, no such token
// or object, a malformed URI) has a kind of its own. Nothing here traps on a module's answer.

/// A `CK_RV` return value (PKCS #11 v2.40 §3.6 "Return values"), named when known.
public struct CKReturnValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value the module returned.
    public let rawValue: UInt
    /// Wraps a value.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `CKR_OK`.
    public static let ok = Self(rawValue: 0x0)
    /// `CKR_ATTRIBUTE_SENSITIVE`: the attribute's value may not be revealed.
    public static let attributeSensitive = Self(rawValue: 0x11)
    /// `CKR_ATTRIBUTE_TYPE_INVALID`.
    public static let attributeTypeInvalid = Self(rawValue: 0x12)
    /// `CKR_FUNCTION_NOT_SUPPORTED`.
    public static let functionNotSupported = Self(rawValue: 0x54)
    /// `CKR_MECHANISM_INVALID`: the token does not implement the mechanism.
    public static let mechanismInvalid = Self(rawValue: 0x70)
    /// `CKR_PIN_INCORRECT`.
    public static let pinIncorrect = Self(rawValue: 0xA0)
    /// `CKR_PIN_LOCKED`.
    public static let pinLocked = Self(rawValue: 0xA4)
    /// `CKR_TOKEN_NOT_PRESENT`.
    public static let tokenNotPresent = Self(rawValue: 0xE0)
    /// `CKR_USER_ALREADY_LOGGED_IN`.
    public static let userAlreadyLoggedIn = Self(rawValue: 0x100)
    /// `CKR_USER_NOT_LOGGED_IN`.
    public static let userNotLoggedIn = Self(rawValue: 0x101)
    /// `CKR_BUFFER_TOO_SMALL`.
    public static let bufferTooSmall = Self(rawValue: 0x150)
    /// `CKR_CRYPTOKI_NOT_INITIALIZED`.
    public static let cryptokiNotInitialized = Self(rawValue: 0x190)
    /// `CKR_CRYPTOKI_ALREADY_INITIALIZED`: another user in this process initialised the module.
    public static let cryptokiAlreadyInitialized = Self(rawValue: 0x191)

    /// The `CKR_` name (PKCS #11 v3.0 `pkcs11t.h`), or `CKR_0x…` for a value not in the
    /// table (`CKR_VENDOR_DEFINED+0x…` in the vendor range).
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        if rawValue >= 0x8000_0000 { return "CKR_VENDOR_DEFINED+0x" + String(rawValue - 0x8000_0000, radix: 16, uppercase: true) }
        return "CKR_0x" + String(rawValue, radix: 16, uppercase: true)
    }

    /// The name.
    public var description: String { name }

    /// Copied from the standard's `pkcs11t.h` (v3.0, which keeps every v2.40 value).
    private static let names: [UInt: String] = [
        0x00000000: "CKR_OK",
        0x00000001: "CKR_CANCEL",
        0x00000002: "CKR_HOST_MEMORY",
        0x00000003: "CKR_SLOT_ID_INVALID",
        0x00000005: "CKR_GENERAL_ERROR",
        0x00000006: "CKR_FUNCTION_FAILED",
        0x00000007: "CKR_ARGUMENTS_BAD",
        0x00000008: "CKR_NO_EVENT",
        0x00000009: "CKR_NEED_TO_CREATE_THREADS",
        0x0000000A: "CKR_CANT_LOCK",
        0x00000010: "CKR_ATTRIBUTE_READ_ONLY",
        0x00000011: "CKR_ATTRIBUTE_SENSITIVE",
        0x00000012: "CKR_ATTRIBUTE_TYPE_INVALID",
        0x00000013: "CKR_ATTRIBUTE_VALUE_INVALID",
        0x0000001B: "CKR_ACTION_PROHIBITED",
        0x00000020: "CKR_DATA_INVALID",
        0x00000021: "CKR_DATA_LEN_RANGE",
        0x00000030: "CKR_DEVICE_ERROR",
        0x00000031: "CKR_DEVICE_MEMORY",
        0x00000032: "CKR_DEVICE_REMOVED",
        0x00000040: "CKR_ENCRYPTED_DATA_INVALID",
        0x00000041: "CKR_ENCRYPTED_DATA_LEN_RANGE",
        0x00000050: "CKR_FUNCTION_CANCELED",
        0x00000051: "CKR_FUNCTION_NOT_PARALLEL",
        0x00000054: "CKR_FUNCTION_NOT_SUPPORTED",
        0x00000060: "CKR_KEY_HANDLE_INVALID",
        0x00000062: "CKR_KEY_SIZE_RANGE",
        0x00000063: "CKR_KEY_TYPE_INCONSISTENT",
        0x00000064: "CKR_KEY_NOT_NEEDED",
        0x00000065: "CKR_KEY_CHANGED",
        0x00000066: "CKR_KEY_NEEDED",
        0x00000067: "CKR_KEY_INDIGESTIBLE",
        0x00000068: "CKR_KEY_FUNCTION_NOT_PERMITTED",
        0x00000069: "CKR_KEY_NOT_WRAPPABLE",
        0x0000006A: "CKR_KEY_UNEXTRACTABLE",
        0x00000070: "CKR_MECHANISM_INVALID",
        0x00000071: "CKR_MECHANISM_PARAM_INVALID",
        0x00000082: "CKR_OBJECT_HANDLE_INVALID",
        0x00000090: "CKR_OPERATION_ACTIVE",
        0x00000091: "CKR_OPERATION_NOT_INITIALIZED",
        0x000000A0: "CKR_PIN_INCORRECT",
        0x000000A1: "CKR_PIN_INVALID",
        0x000000A2: "CKR_PIN_LEN_RANGE",
        0x000000A3: "CKR_PIN_EXPIRED",
        0x000000A4: "CKR_PIN_LOCKED",
        0x000000B0: "CKR_SESSION_CLOSED",
        0x000000B1: "CKR_SESSION_COUNT",
        0x000000B3: "CKR_SESSION_HANDLE_INVALID",
        0x000000B4: "CKR_SESSION_PARALLEL_NOT_SUPPORTED",
        0x000000B5: "CKR_SESSION_READ_ONLY",
        0x000000B6: "CKR_SESSION_EXISTS",
        0x000000B7: "CKR_SESSION_READ_ONLY_EXISTS",
        0x000000B8: "CKR_SESSION_READ_WRITE_SO_EXISTS",
        0x000000C0: "CKR_SIGNATURE_INVALID",
        0x000000C1: "CKR_SIGNATURE_LEN_RANGE",
        0x000000D0: "CKR_TEMPLATE_INCOMPLETE",
        0x000000D1: "CKR_TEMPLATE_INCONSISTENT",
        0x000000E0: "CKR_TOKEN_NOT_PRESENT",
        0x000000E1: "CKR_TOKEN_NOT_RECOGNIZED",
        0x000000E2: "CKR_TOKEN_WRITE_PROTECTED",
        0x000000F0: "CKR_UNWRAPPING_KEY_HANDLE_INVALID",
        0x000000F1: "CKR_UNWRAPPING_KEY_SIZE_RANGE",
        0x000000F2: "CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT",
        0x00000100: "CKR_USER_ALREADY_LOGGED_IN",
        0x00000101: "CKR_USER_NOT_LOGGED_IN",
        0x00000102: "CKR_USER_PIN_NOT_INITIALIZED",
        0x00000103: "CKR_USER_TYPE_INVALID",
        0x00000104: "CKR_USER_ANOTHER_ALREADY_LOGGED_IN",
        0x00000105: "CKR_USER_TOO_MANY_TYPES",
        0x00000110: "CKR_WRAPPED_KEY_INVALID",
        0x00000112: "CKR_WRAPPED_KEY_LEN_RANGE",
        0x00000113: "CKR_WRAPPING_KEY_HANDLE_INVALID",
        0x00000114: "CKR_WRAPPING_KEY_SIZE_RANGE",
        0x00000115: "CKR_WRAPPING_KEY_TYPE_INCONSISTENT",
        0x00000120: "CKR_RANDOM_SEED_NOT_SUPPORTED",
        0x00000121: "CKR_RANDOM_NO_RNG",
        0x00000130: "CKR_DOMAIN_PARAMS_INVALID",
        0x00000140: "CKR_CURVE_NOT_SUPPORTED",
        0x00000150: "CKR_BUFFER_TOO_SMALL",
        0x00000160: "CKR_SAVED_STATE_INVALID",
        0x00000170: "CKR_INFORMATION_SENSITIVE",
        0x00000180: "CKR_STATE_UNSAVEABLE",
        0x00000190: "CKR_CRYPTOKI_NOT_INITIALIZED",
        0x00000191: "CKR_CRYPTOKI_ALREADY_INITIALIZED",
        0x000001A0: "CKR_MUTEX_BAD",
        0x000001A1: "CKR_MUTEX_NOT_LOCKED",
        0x000001B0: "CKR_NEW_PIN_MODE",
        0x000001B1: "CKR_NEXT_OTP",
        0x000001B5: "CKR_EXCEEDED_MAX_ITERATIONS",
        0x000001B6: "CKR_FIPS_SELF_TEST_FAILED",
        0x000001B7: "CKR_LIBRARY_LOAD_FAILED",
        0x000001B8: "CKR_PIN_TOO_WEAK",
        0x000001B9: "CKR_PUBLIC_KEY_INVALID",
        0x00000200: "CKR_FUNCTION_REJECTED",
        0x00000201: "CKR_TOKEN_RESOURCE_EXCEEDED",
        0x00000202: "CKR_OPERATION_CANCEL_FAILED",
        0x80000000: "CKR_VENDOR_DEFINED",
    ]
}

/// Why a PKCS #11 operation failed.
public struct PKCS11Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// `dlopen` failed: no such file, or not a loadable library (the message has `dlerror`).
        case moduleNotLoaded
        /// The library loaded but exports no `C_GetFunctionList`, or its list is unusable.
        case notAPKCS11Module
        /// A module function returned something other than `CKR_OK`.
        case returned(CKReturnValue)
        /// No slot holds a token matching the request.
        case tokenNotFound
        /// More than one slot holds a token matching the request: the URI must say which
        /// (`serial`, `slot-id`), not leave it to the slot order.
        case ambiguousToken
        /// The module's file could be replaced by someone other than root or this user: a
        /// relative path, a file or directory writable by group or others, or another owner.
        case untrustedModule
        /// No object matches the request.
        case objectNotFound
        /// A PKCS #11 URI that RFC 7512 does not allow.
        case invalidURI
        /// A request this client refuses before calling the module (an empty PIN, an oversized value).
        case invalidArgument
        /// The module said `CKR_OK` but its output is unusable (an HMAC of the wrong length).
        case unexpectedOutput
        /// The object found for the store key could leave the token or cannot do the job: it is
        /// extractable, not sensitive, not allowed to sign, or not an HMAC-capable secret key.
        case keyNotProtected
        /// The store's provider setting names a token but no store identifier: it was written
        /// by an earlier, unreleased format whose derivations all stores on a token shared.
        case storeIdentifierMissing
    }

    /// What went wrong.
    public let kind: Kind
    /// The module function that failed (`C_Login`), when there was one.
    public let function: String?
    /// A human-readable explanation (never a PIN or key bytes).
    public let message: String
    /// Where the error was thrown.
    public let file: String
    /// Where the error was thrown.
    public let line: Int

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, function: String? = nil, file: String = #fileID, line: Int = #line) {
        self.kind = kind
        self.message = message
        self.function = function
        self.file = file
        self.line = line
    }

    /// The return value when a module function failed.
    public var returnValue: CKReturnValue? {
        if case .returned(let value) = kind { return value }
        return nil
    }

    /// `C_Login: CKR_PIN_INCORRECT (0xa0): message`.
    public var description: String {
        var text = ""
        if let function { text += function + ": " }
        if let value = returnValue { text += "\(value.name) (0x\(String(value.rawValue, radix: 16))): " } else { text += "\(kind): " }
        return text + message
    }

    /// Errors are equal when their kinds are.
    public static func == (a: PKCS11Error, b: PKCS11Error) -> Bool { a.kind == b.kind }
}
