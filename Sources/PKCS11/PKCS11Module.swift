// A PKCS #11 module reached with `dlopen` (no C target, docs/design.md §1): load the library, find
// `C_GetFunctionList`, initialise with operating-system locking, list slots and read token
// information. Sessions (PKCS11Session) carry the rest.

#if canImport(Glibc)
import Glibc
#endif

/// The description of a token (`CK_TOKEN_INFO`, PKCS #11 v2.40 §3.2), its space padding trimmed.
public struct PKCS11TokenInfo: Sendable, Equatable {
    /// The label the token was initialised with.
    public let label: String
    /// `manufacturerID` ("SoftHSM project").
    public let manufacturer: String
    /// The model ("SoftHSM v2").
    public let model: String
    /// The serial number.
    public let serialNumber: String
    /// The `CKF_` flags.
    public let flags: UInt
    /// The shortest and longest PIN the token accepts.
    public let pinLengths: ClosedRange<UInt>
    /// The firmware version.
    public let firmwareVersion: CKVersion

    /// `CKF_TOKEN_INITIALIZED`.
    public var isInitialized: Bool { flags & CKConstant.tokenInitialized != 0 }
    /// `CKF_LOGIN_REQUIRED`.
    public var requiresLogin: Bool { flags & CKConstant.loginRequired != 0 }

    init(_ info: CKTokenInfo) {
        label = Self.text(info.label)
        manufacturer = Self.text(info.manufacturerID)
        model = Self.text(info.model)
        serialNumber = Self.text(info.serialNumber)
        flags = info.flags
        pinLengths = min(info.minPINLength, info.maxPINLength)...max(info.minPINLength, info.maxPINLength)
        firmwareVersion = info.firmwareVersion
    }

    /// UTF-8 in a blank-padded fixed array (PKCS #11 v2.40 §3.2: "blank padded", not
    /// NUL-terminated); a NUL also ends it, for modules that pad with zeros.
    package static func text<let count: Int>(_ field: InlineArray<count, UInt8>) -> String {
        var bytes: [UInt8] = []
        for index in field.indices {
            if field[index] == 0 { break }
            bytes.append(field[index])
        }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A loaded, initialised PKCS #11 module.
///
/// ```swift
/// let module = try PKCS11Module(path: "/usr/lib/softhsm/libsofthsm2.so")
/// let slot = try module.slot(matching: uri)
/// let session = try module.openSession(slot: slot)
/// try session.login(pin: pin)
/// ```
///
/// `C_Initialize` is called with `CKF_OS_LOCKING_OK`, once per library per process: every
/// instance on one library shares that initialisation (`ModuleRegistry`), and `C_Finalize` runs
/// when the last instance is finalised or released, so one user finishing never ends another's
/// sessions. A module something else in the process initialised
/// (`CKR_CRYPTOKI_ALREADY_INITIALIZED`) is used as it is and never finalised here. The library
/// is never unloaded: a module may have started threads or registered exit handlers, and
/// `dlclose` under them crashes the process.
public final class PKCS11Module {
    /// The path given to `dlopen`.
    public let path: String
    package let functions: FunctionList
    private let registryKey: UInt
    private var isHeld = true

    /// Loads and initialises the module at `path` (or joins the users of the one already
    /// loaded). Throws ``PKCS11Error/Kind/moduleNotLoaded`` when `dlopen` fails,
    /// ``PKCS11Error/Kind/notAPKCS11Module`` when the library has no `C_GetFunctionList` (libc,
    /// say), and the module's return value when it refuses to start.
    public init(path: String) throws(PKCS11Error) {
        self.path = path
        (registryKey, functions) = try ModuleRegistry.acquire(path: path)
    }

    deinit { finalize() }

    /// Leaves the module (once; later calls do nothing): the last user in the process calls
    /// `C_Finalize`, which closes that user's sessions. Sessions of this instance must not be
    /// used afterwards.
    public func finalize() {
        guard isHeld else { return }
        isHeld = false
        ModuleRegistry.release(registryKey)
    }

    /// The interface version the module reports.
    public var interfaceVersion: CKVersion { functions.version }

    /// The slots (`C_GetSlotList`), by default only those with a token present.
    public func slots(withTokenPresent: Bool = true) throws(PKCS11Error) -> [UInt] {
        let getSlotList = try functions.function(.getSlotList, as: CGetSlotList.self)
        // Two calls: the count, then the list; a slot appearing in between gives
        // CKR_BUFFER_TOO_SMALL, and we ask again (PKCS #11 v2.40 §5.2 "C_GetSlotList").
        for _ in 0..<4 {
            var count: UInt = 0
            try check(getSlotList(withTokenPresent ? 1 : 0, nil, &count), .getSlotList)
            guard count > 0 else { return [] }
            guard count <= 4096 else { throw PKCS11Error(.unexpectedOutput, "the module reports \(count) slots", function: "C_GetSlotList") }
            var slots = [UInt](repeating: 0, count: Int(count))
            let rv = slots.withUnsafeMutableBufferPointer { getSlotList(withTokenPresent ? 1 : 0, $0.baseAddress, &count) }
            if rv == CKReturnValue.bufferTooSmall.rawValue { continue }
            try check(rv, .getSlotList)
            return Array(slots.prefix(Int(min(count, UInt(slots.count)))))
        }
        throw PKCS11Error(.returned(.bufferTooSmall), "the slot list kept growing", function: "C_GetSlotList")
    }

    /// The token in `slot` (`C_GetTokenInfo`); `CKR_TOKEN_NOT_PRESENT` when the slot is empty.
    public func tokenInfo(slot: UInt) throws(PKCS11Error) -> PKCS11TokenInfo {
        let getTokenInfo = try functions.function(.getTokenInfo, as: CGetTokenInfo.self)
        var info = CKTokenInfo()
        let rv = withUnsafeMutableBytes(of: &info) { getTokenInfo(slot, $0.baseAddress) }
        try check(rv, .getTokenInfo, "slot \(slot)")
        return PKCS11TokenInfo(info)
    }

    /// Opens a serial session on `slot` (read-write by default: generating a token key needs it).
    public func openSession(slot: UInt, readWrite: Bool = true) throws(PKCS11Error) -> PKCS11Session {
        let openSession = try functions.function(.openSession, as: COpenSession.self)
        var handle: UInt = 0
        let flags = CKConstant.serialSession | (readWrite ? CKConstant.readWriteSession : 0)
        try check(openSession(slot, flags, nil, nil, &handle), .openSession, "slot \(slot)")
        return PKCS11Session(module: self, handle: handle)
    }
}
