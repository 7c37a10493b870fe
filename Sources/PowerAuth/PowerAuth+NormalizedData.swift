// The data a signature covers (docs/protocols/powerauth.md §7.2): METHOD & b64(uriId) & nonce & b64(body) &
// APP_SECRET text; GET parameters canonicalised; offline signatures use the literal `offline`.

import CryptoPrimitives

extension PowerAuth {
    /// Normalised request data (docs/protocols/powerauth.md §7.2).
    public enum NormalizedData {
        /// `METHOD&B64(uriId)&NONCE_B64&B64(body)&secret`, UTF-8. `secret` is APP_SECRET's Base64
        /// text for online signatures and `offline` for offline ones (§7.6).
        public static func make(method: String, uriID: String, nonce: String, body: some Sequence<UInt8>, secret: String) -> [UInt8] {
            // The body is read through a buffer where it is contiguous: a shared body array is
            // then borrowed, not retained (threads signing at once do not contend on its reference count).
            let encodedBody = body.withContiguousStorageIfAvailable { Base64.encode($0) } ?? Base64.encode(Array(body))
            let parts = [method.uppercased(), Base64.encode(Array(uriID.utf8)), nonce, encodedBody, secret]
            return Array(parts.joined(separator: "&").utf8)
        }

        /// The canonical query of GET parameters: the decoded pairs sorted by key, then by value
        /// (by their UTF-8 bytes), then each written `urlenc(k)=urlenc(v)`, joined by `&` (§7.2).
        ///
        /// The sort comes first, on the logical keys and values, as the PowerAuth mobile SDK's
        /// core and the Java server do: sorting the encoded text instead puts `a+b` (encoded
        /// `a%2Bb`) before `a b` (encoded `a+b`) and `%C3%A9…` before `z`, and every such signed
        /// GET would fail.
        public static func canonicalQuery(_ parameters: [(String, String)]) -> String {
            parameters
                .sorted { a, b in
                    if !a.0.utf8.elementsEqual(b.0.utf8) { return a.0.utf8.lexicographicallyPrecedes(b.0.utf8) }
                    return a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
                }
                .map { formEncoded($0.0) + "=" + formEncoded($0.1) }
                .joined(separator: "&")
        }

        /// Form encoding (§7.2): keeps `0-9 A-Z a-z - _ . *`, space → `+`, every other UTF-8
        /// byte → `%XX` upper case.
        public static func formEncoded(_ text: String) -> String {
            formEncoded(bytes: text.utf8)
        }

        /// Form encoding of raw bytes (which need not be UTF-8).
        public static func formEncoded(bytes: some Sequence<UInt8>) -> String {
            let digits = Array("0123456789ABCDEF".utf8)
            var out = [UInt8]()
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                    out.append(byte)
                case UInt8(ascii: " "):
                    out.append(UInt8(ascii: "+"))
                default:
                    out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
