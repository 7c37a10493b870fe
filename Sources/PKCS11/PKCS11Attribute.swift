// Attribute templates (PKCS #11 v2.40 §4.1): typed values on the Swift side, marshalled into a
// `CK_ATTRIBUTE` array whose value buffers live exactly as long as one module call and are
// wiped before they are freed (a template may carry a key's `CKA_VALUE`).

public import CryptoPrimitives
#if canImport(Glibc)
import Glibc
#endif

/// One attribute of a template: a type and its value bytes.
public struct PKCS11Attribute: Sendable {
    /// The attribute type.
    public let type: PKCS11AttributeType
    /// The value, in wiped storage (it may be a key's `CKA_VALUE`).
    public let value: SecretBytes

    /// An attribute with raw value bytes.
    public init(_ type: PKCS11AttributeType, bytes: some Sequence<UInt8>) {
        self.type = type
        value = SecretBytes(bytes)
    }

    /// An attribute whose value is secret (`CKA_VALUE` of a key being imported).
    public init(_ type: PKCS11AttributeType, secret: SecretBytes) {
        self.type = type
        value = secret
    }

    /// A `CK_BBOOL` attribute (`CK_TRUE` is 1).
    public static func bool(_ type: PKCS11AttributeType, _ value: Bool) -> Self {
        Self(type, bytes: [value ? 1 : 0])
    }

    /// A `CK_ULONG` attribute, in the machine's byte order.
    public static func ulong(_ type: PKCS11AttributeType, _ value: UInt) -> Self {
        Self(type, bytes: withUnsafeBytes(of: value) { Array($0) })
    }

    /// `CKA_CLASS`.
    public static func `class`(_ value: PKCS11ObjectClass) -> Self { .ulong(.class, value.rawValue) }
    /// `CKA_KEY_TYPE`.
    public static func keyType(_ value: PKCS11KeyType) -> Self { .ulong(.keyType, value.rawValue) }
    /// `CKA_LABEL`, UTF-8.
    public static func label(_ value: String) -> Self { Self(.label, bytes: Array(value.utf8)) }
    /// `CKA_ID`.
    public static func id(_ value: [UInt8]) -> Self { Self(.id, bytes: value) }
    /// `CKA_VALUE_LEN`.
    public static func valueLength(_ value: Int) -> Self { .ulong(.valueLength, UInt(max(value, 0))) }
}

/// Builds the `CK_ATTRIBUTE` array for one call: the array and every value buffer are freed
/// (values wiped first) when `body` returns.
func withTemplate<R>(_ template: [PKCS11Attribute], _ body: (UnsafeMutableRawPointer?, UInt) throws(PKCS11Error) -> R) throws(PKCS11Error) -> R {
    let attributes = UnsafeMutablePointer<CKAttribute>.allocate(capacity: max(template.count, 1))
    var buffers: [(UnsafeMutableRawPointer, Int)] = []
    defer {
        for (pointer, count) in buffers {
            explicit_bzero(pointer, count)
            pointer.deallocate()
        }
        attributes.deallocate()
    }
    for (index, attribute) in template.enumerated() {
        let count = attribute.value.count
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        buffers.append((buffer, max(count, 1)))
        attribute.value.withUnsafeBytes { source in
            if let base = source.baseAddress, count > 0 { buffer.copyMemory(from: base, byteCount: count) }
        }
        (attributes + index).initialize(to: CKAttribute(type: attribute.type.rawValue, value: buffer, valueLength: UInt(count)))
    }
    return try body(template.isEmpty ? nil : UnsafeMutableRawPointer(attributes), UInt(template.count))
}
