// The PKCS #11 modules loaded in this process, one entry per library. PKCS #11 v2.40 §5.4:
// `C_Initialize` and `C_Finalize` act on the whole module for the whole process, so two users of
// one module (two key providers, a provider and a status query) must share one initialisation:
// the first user initialises, later ones count themselves in, and `C_Finalize` runs when the
// last one leaves. Without this, the first user's finalisation ends every other user's sessions.

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process-wide table of loaded modules, keyed by the `dlopen` handle (two paths that name
/// one library — a symbolic link, a relative path — reach one entry).
package enum ModuleRegistry {
    /// One loaded module: its function list (as an address), how many users hold it, and
    /// whether this registry initialised it (else someone outside it did, and finalises it).
    private struct Entry {
        let functions: UInt
        var users: Int
        let ownsInitialization: Bool
    }

    private static let entries = Mutex<[UInt: Entry]>([:])

    /// Loads (once) and initialises (once) the module at `path`, counting one more user. Returns
    /// the key to give back to ``release(_:)`` and the function list.
    static func acquire(path: String) throws(PKCS11Error) -> (key: UInt, functions: FunctionList) {
        // Loaded by the path that was checked, so no link can be swapped in between.
        let resolved = try ModuleFile.resolve(path)
        guard let handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw PKCS11Error(.moduleNotLoaded, reason)
        }
        // The library is never unloaded (see PKCS11Module); an extra dlopen count is harmless.
        let key = UInt(bitPattern: handle)
        return try entries.withLock { (entries) throws(PKCS11Error) -> (key: UInt, functions: FunctionList) in
            if var entry = entries[key], let base = UnsafeRawPointer(bitPattern: entry.functions) {
                entry.users += 1
                entries[key] = entry
                return (key, FunctionList(base: base))
            }
            let functions = try initialize(handle: handle, path: path)
            entries[key] = Entry(functions: UInt(bitPattern: functions.list.base), users: 1, ownsInitialization: functions.owns)
            return (key, functions.list)
        }
    }

    /// One user leaves; the last one calls `C_Finalize` when the registry initialised the module.
    static func release(_ key: UInt) {
        entries.withLock { entries in
            guard var entry = entries[key] else { return }
            entry.users -= 1
            guard entry.users <= 0 else {
                entries[key] = entry
                return
            }
            entries[key] = nil
            guard entry.ownsInitialization, let base = UnsafeRawPointer(bitPattern: entry.functions) else { return }
            // No C_Finalize in a list that answered C_Initialize means there is nothing to call.
            if let finalize = try? FunctionList(base: base).function(.finalize, as: CFinalize.self) {
                _ = finalize(nil)  // nothing useful to do with a failure while tearing down
            }
        }
    }

    /// How many users hold the module at `path` now (0 when it is not loaded by this registry).
    package static func users(path: String) -> Int {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) else { return 0 }
        return entries.withLock { $0[UInt(bitPattern: handle)]?.users ?? 0 }
    }

    /// `C_GetFunctionList` and `C_Initialize` with `CKF_OS_LOCKING_OK`. A module something
    /// else in the process already initialised (`CKR_CRYPTOKI_ALREADY_INITIALIZED`) is used as
    /// it is and never finalised by us.
    private static func initialize(handle: UnsafeMutableRawPointer, path: String) throws(PKCS11Error) -> (list: FunctionList, owns: Bool) {
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            throw PKCS11Error(.notAPKCS11Module, "\(path) exports no C_GetFunctionList")
        }
        let getFunctionList = unsafeBitCast(symbol, to: CGetFunctionList.self)
        var list: UnsafeMutableRawPointer?
        try check(getFunctionList(&list), .getFunctionList)
        guard let list else { throw PKCS11Error(.notAPKCS11Module, "C_GetFunctionList returned no list", function: "C_GetFunctionList") }
        let functions = FunctionList(base: UnsafeRawPointer(list))
        guard functions.version.major >= 2 else {
            throw PKCS11Error(.notAPKCS11Module, "interface version \(functions.version.major).\(functions.version.minor) is older than 2.x")
        }
        var arguments = CKInitializeArgs(flags: CKConstant.osLockingOK)
        let initialize = try functions.function(.initialize, as: CInitialize.self)
        let rv = withUnsafeMutableBytes(of: &arguments) { initialize($0.baseAddress) }
        if rv == CKReturnValue.cryptokiAlreadyInitialized.rawValue { return (functions, false) }
        try check(rv, .initialize)
        return (functions, true)
    }
}
