// A session on one token (PKCS #11 v2.40 §5.6–§5.12): log in, find, create, generate and
// destroy objects, read attributes, and the single-part sign and encrypt operations.

public import CryptoPrimitives
#if canImport(Glibc)
import Glibc
#endif

/// An open session. Closed by ``close()`` or when the value is released.
public final class PKCS11Session {
    /// The module the session belongs to (kept alive while the session is).
    public let module: PKCS11Module
    /// The `CK_SESSION_HANDLE`.
    public let handle: UInt
    private var isOpen = true

    init(module: PKCS11Module, handle: UInt) {
        self.module = module
        self.handle = handle
    }

    deinit { close() }

    var functions: FunctionList { module.functions }

    /// Closes the session (`C_CloseSession`); later calls do nothing.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        // A list without C_CloseSession could not have opened the session: nothing to call.
        if let close = try? functions.function(.closeSession, as: CSessionOnly.self) {
            _ = close(handle)  // a failure to close leaves nothing to recover
        }
    }

    /// Logs the normal user in with `pin` (`C_Login`, PKCS #11 v2.40 §5.6). A wrong PIN throws
    /// `.returned(.pinIncorrect)`; a user already logged in on this token is not an error.
    public func login(pin: SecretBytes) throws(PKCS11Error) {
        guard pin.count > 0, pin.count <= 1024 else { throw PKCS11Error(.invalidArgument, "a PIN is 1…1024 bytes", function: "C_Login") }
        let login = try functions.function(.login, as: CLogin.self)
        let rv = pin.withUnsafeBytes { raw -> UInt in
            // The module takes a non-const pointer; it reads the PIN and does not keep it.
            let pointer = UnsafeMutablePointer(mutating: raw.bindMemory(to: UInt8.self).baseAddress)
            return login(handle, CKConstant.user, pointer, UInt(raw.count))
        }
        if rv == CKReturnValue.userAlreadyLoggedIn.rawValue { return }
        try check(rv, .login)
    }

    /// Logs out (`C_Logout`).
    public func logout() throws(PKCS11Error) {
        let logout = try functions.function(.logout, as: CSessionOnly.self)
        try check(logout(handle), .logout)
    }

    /// The handles of the objects matching every attribute of `template` (`C_FindObjectsInit`,
    /// `C_FindObjects`, `C_FindObjectsFinal`), at most `limit`.
    public func findObjects(_ template: [PKCS11Attribute], limit: Int = 64) throws(PKCS11Error) -> [UInt] {
        let findInit = try functions.function(.findObjectsInit, as: CFindObjectsInit.self)
        let find = try functions.function(.findObjects, as: CFindObjects.self)
        let findFinal = try functions.function(.findObjectsFinal, as: CSessionOnly.self)
        try withTemplate(template) { (attributes, count) throws(PKCS11Error) in try check(findInit(handle, attributes, count), .findObjectsInit) }
        defer { _ = findFinal(handle) }  // ends the search whatever happened
        var found: [UInt] = []
        var batch = [UInt](repeating: 0, count: 16)
        while found.count < limit {
            var returned: UInt = 0
            let rv = batch.withUnsafeMutableBufferPointer { find(handle, $0.baseAddress, UInt($0.count), &returned) }
            try check(rv, .findObjects)
            guard returned > 0 else { break }
            found += batch.prefix(Int(min(returned, UInt(batch.count))))
        }
        return Array(found.prefix(limit))
    }

    /// Creates an object from `template` (`C_CreateObject`) and returns its handle.
    public func createObject(_ template: [PKCS11Attribute]) throws(PKCS11Error) -> UInt {
        let create = try functions.function(.createObject, as: CCreateObject.self)
        var object: UInt = 0
        try withTemplate(template) { (attributes, count) throws(PKCS11Error) in try check(create(handle, attributes, count, &object), .createObject) }
        return object
    }

    /// Generates a secret key inside the token (`C_GenerateKey`) with a mechanism that takes no
    /// parameter, and returns its handle.
    public func generateKey(_ mechanism: PKCS11Mechanism, template: [PKCS11Attribute]) throws(PKCS11Error) -> UInt {
        let generate = try functions.function(.generateKey, as: CGenerateKey.self)
        var object: UInt = 0
        var ckMechanism = CKMechanism(mechanism: mechanism.rawValue, parameter: nil, parameterLength: 0)
        try withTemplate(template) { (attributes, count) throws(PKCS11Error) in
            let rv = withUnsafeMutableBytes(of: &ckMechanism) { generate(handle, $0.baseAddress, attributes, count, &object) }
            try check(rv, .generateKey)
        }
        return object
    }

    /// Destroys the object (`C_DestroyObject`).
    public func destroyObject(_ object: UInt) throws(PKCS11Error) {
        let destroy = try functions.function(.destroyObject, as: CDestroyObject.self)
        try check(destroy(handle, object), .destroyObject)
    }

    /// The value of one attribute of `object` (`C_GetAttributeValue`, length first, then the
    /// bytes). A sensitive value throws `.returned(.attributeSensitive)`.
    public func attribute(_ type: PKCS11AttributeType, of object: UInt) throws(PKCS11Error) -> SecretBytes {
        let get = try functions.function(.getAttributeValue, as: CGetAttributeValue.self)
        var query = CKAttribute(type: type.rawValue, value: nil, valueLength: 0)
        let sizeRV = withUnsafeMutableBytes(of: &query) { get(handle, object, $0.baseAddress, 1) }
        try check(sizeRV, .getAttributeValue)
        guard query.valueLength <= 1 << 20 else {  // CK_UNAVAILABLE_INFORMATION is ~0
            throw PKCS11Error(.unexpectedOutput, "the attribute's length \(query.valueLength) is unavailable or too large", function: "C_GetAttributeValue")
        }
        let length = Int(query.valueLength)
        var rv: UInt = 0
        let value = SecretBytes(count: length) { buffer in
            var fetch = CKAttribute(type: type.rawValue, value: buffer.baseAddress, valueLength: UInt(length))
            rv = withUnsafeMutableBytes(of: &fetch) { get(handle, object, $0.baseAddress, 1) }
        }
        try check(rv, .getAttributeValue)
        return value
    }

    /// The HMAC or signature of `data` under `key` (`C_SignInit` then single-part `C_Sign`,
    /// PKCS #11 v2.40 §5.12), in wiped storage: an HMAC output may itself be a key.
    public func sign(_ data: some Sequence<UInt8>, key: UInt, mechanism: PKCS11Mechanism) throws(PKCS11Error) -> SecretBytes {
        let signInit = try functions.function(.signInit, as: COperationInit.self)
        let sign = try functions.function(.sign, as: COneShot.self)
        return try singlePart(Array(data), key: key, mechanism: mechanism, initialize: (signInit, .signInit), run: (sign, .sign))
    }

    /// The encryption of `data` under `key` (`C_EncryptInit` then single-part `C_Encrypt`).
    public func encrypt(_ data: some Sequence<UInt8>, key: UInt, mechanism: PKCS11Mechanism) throws(PKCS11Error) -> [UInt8] {
        let encryptInit = try functions.function(.encryptInit, as: COperationInit.self)
        let encrypt = try functions.function(.encrypt, as: COneShot.self)
        return try singlePart(Array(data), key: key, mechanism: mechanism, initialize: (encryptInit, .encryptInit), run: (encrypt, .encrypt)).unsafeExposedBytes
    }

    /// One single-part operation with the length query of PKCS #11 v2.40 §5.2 ("Conventions
    /// for functions returning output in a variable-length buffer").
    func singlePart(_ input: [UInt8], key: UInt, mechanism: PKCS11Mechanism,
                            initialize: (COperationInit, CryptokiFunction), run: (COneShot, CryptokiFunction)) throws(PKCS11Error) -> SecretBytes {
        var ckMechanism = CKMechanism(mechanism: mechanism.rawValue, parameter: nil, parameterLength: 0)
        let initRV = withUnsafeMutableBytes(of: &ckMechanism) { initialize.0(handle, $0.baseAddress, key) }
        try check(initRV, initialize.1)
        var data = input
        var length: UInt = 0
        let sizeRV = data.withUnsafeMutableBufferPointer { run.0(handle, $0.baseAddress, UInt($0.count), nil, &length) }
        try check(sizeRV, run.1)  // a failure here ends the operation (§5.2)
        guard length <= 1 << 16 else { throw PKCS11Error(.unexpectedOutput, "the module asks for \(length) output bytes", function: run.1.cName) }
        var rv: UInt = 0
        let output = SecretBytes(count: Int(length)) { buffer in
            rv = data.withUnsafeMutableBufferPointer { input in
                run.0(handle, input.baseAddress, UInt(input.count), buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
            }
        }
        try check(rv, run.1)
        guard Int(length) < output.count else { return output }
        return output.withUnsafeBytes { SecretBytes($0.prefix(Int(length))) }
    }
}
