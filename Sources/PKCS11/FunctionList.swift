// `CK_FUNCTION_LIST` (PKCS #11 v2.40 §5.2, `pkcs11f.h`): a `CK_VERSION` followed by 68 function
// pointers in the header's order. The order is the ABI: reading slot 42 for `C_Sign` only works
// because every module lays the table out exactly as `pkcs11f.h` lists the functions. The
// layout is declared here as an index per function; `CryptokiLayoutTests` checks it against a
// real module (slot 3 must be the `C_GetFunctionList` that `dlsym` found).

/// The 68 entries of `CK_FUNCTION_LIST`, in `pkcs11f.h` order (v2.40).
package enum CryptokiFunction: Int, CaseIterable {
    case initialize, finalize, getInfo, getFunctionList, getSlotList, getSlotInfo, getTokenInfo,
         getMechanismList, getMechanismInfo, initToken, initPIN, setPIN, openSession, closeSession,
         closeAllSessions, getSessionInfo, getOperationState, setOperationState, login, logout,
         createObject, copyObject, destroyObject, getObjectSize, getAttributeValue,
         setAttributeValue, findObjectsInit, findObjects, findObjectsFinal, encryptInit, encrypt,
         encryptUpdate, encryptFinal, decryptInit, decrypt, decryptUpdate, decryptFinal,
         digestInit, digest, digestUpdate, digestKey, digestFinal, signInit, sign, signUpdate,
         signFinal, signRecoverInit, signRecover, verifyInit, verify, verifyUpdate, verifyFinal,
         verifyRecoverInit, verifyRecover, digestEncryptUpdate, decryptDigestUpdate,
         signEncryptUpdate, decryptVerifyUpdate, generateKey, generateKeyPair, wrapKey, unwrapKey,
         deriveKey, seedRandom, generateRandom, getFunctionStatus, cancelFunction, waitForSlotEvent

    /// The C name, for error messages.
    package var cName: String {
        let name = String(describing: self)
        return "C_" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The byte offset of this entry: the version (2 bytes) padded to a pointer's alignment,
    /// then one pointer per entry before it.
    package var byteOffset: Int {
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        let versionEnd = (MemoryLayout<CKVersion>.size + pointer - 1) / pointer * pointer
        return versionEnd + rawValue * pointer
    }
}

// The C signatures of the functions this client calls. Struct pointers travel as raw pointers
// (a Swift struct pointer is not representable in a C function type); the structs above give
// the memory its layout.
typealias CGetFunctionList = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> UInt
typealias CInitialize = @convention(c) (UnsafeMutableRawPointer?) -> UInt
typealias CFinalize = @convention(c) (UnsafeMutableRawPointer?) -> UInt
typealias CGetSlotList = @convention(c) (UInt8, UnsafeMutablePointer<UInt>?, UnsafeMutablePointer<UInt>?) -> UInt
typealias CGetTokenInfo = @convention(c) (UInt, UnsafeMutableRawPointer?) -> UInt
typealias CGetSlotInfo = @convention(c) (UInt, UnsafeMutableRawPointer?) -> UInt
typealias CGetInfo = @convention(c) (UnsafeMutableRawPointer?) -> UInt
typealias COpenSession = @convention(c) (UInt, UInt, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt>?) -> UInt
typealias CSessionOnly = @convention(c) (UInt) -> UInt
typealias CLogin = @convention(c) (UInt, UInt, UnsafeMutablePointer<UInt8>?, UInt) -> UInt
typealias CCreateObject = @convention(c) (UInt, UnsafeMutableRawPointer?, UInt, UnsafeMutablePointer<UInt>?) -> UInt
typealias CDestroyObject = @convention(c) (UInt, UInt) -> UInt
typealias CGetAttributeValue = @convention(c) (UInt, UInt, UnsafeMutableRawPointer?, UInt) -> UInt
typealias CFindObjectsInit = @convention(c) (UInt, UnsafeMutableRawPointer?, UInt) -> UInt
typealias CFindObjects = @convention(c) (UInt, UnsafeMutablePointer<UInt>?, UInt, UnsafeMutablePointer<UInt>?) -> UInt
typealias COperationInit = @convention(c) (UInt, UnsafeMutableRawPointer?, UInt) -> UInt
typealias COneShot = @convention(c) (UInt, UnsafeMutablePointer<UInt8>?, UInt, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?) -> UInt
typealias CGenerateKey = @convention(c) (UInt, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt, UnsafeMutablePointer<UInt>?) -> UInt

/// A module's function list: reads an entry and casts it to its C type.
package struct FunctionList: @unchecked Sendable {  // a table of C function pointers the module never changes
    let base: UnsafeRawPointer

    /// The raw entry (nil when the module left it empty).
    package func entry(_ function: CryptokiFunction) -> UnsafeRawPointer? {
        base.load(fromByteOffset: function.byteOffset, as: UnsafeRawPointer?.self)
    }

    /// The entry as `type`; a module with a null entry for a function we call is refused.
    func function<F>(_ function: CryptokiFunction, as type: F.Type) throws(PKCS11Error) -> F {
        guard let pointer = entry(function) else {
            throw PKCS11Error(.notAPKCS11Module, "the module's function list has no \(function.cName)", function: function.cName)
        }
        return unsafeBitCast(pointer, to: type)
    }

    /// The module's version of the interface.
    var version: CKVersion { base.load(as: CKVersion.self) }
}

/// Throws the typed error for a return value other than `CKR_OK`.
@inline(__always)
func check(_ rv: UInt, _ function: CryptokiFunction, _ reason: @autoclosure () -> String = "") throws(PKCS11Error) {
    guard rv == CKReturnValue.ok.rawValue else {
        throw PKCS11Error(.returned(CKReturnValue(rawValue: rv)), reason().isEmpty ? "the module refused" : reason(), function: function.cName)
    }
}
