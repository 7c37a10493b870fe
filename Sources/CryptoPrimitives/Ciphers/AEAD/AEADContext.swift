// What the two AEADs (AES-GCM, ChaCha20-Poly1305) share: a key held for many messages that
// seals and opens in place, and the array-level calls the public APIs and TLS's record layer
// make (Array's own buffer closures rethrow untyped errors, so the typed ones pass through a
// Result here, once).

import CryptoCore

/// An AEAD key held for many messages, sealing and opening buffers in place with 16-byte tags.
package protocol AEADContext: AnyObject {
    /// Encrypts `text` in place and writes the tag.
    func seal(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
              authenticating aad: UnsafeRawBufferPointer, tag: UnsafeMutableRawBufferPointer) throws(CryptoError)
    /// Checks the tag, then decrypts `text` in place; every failure is
    /// `CryptoError.authenticationFailure`.
    func open(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
              authenticating aad: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer) throws(CryptoError)
}

extension AEADContext {
    /// Encrypts `text` in place and returns the 16-byte tag.
    package func seal(_ text: inout [UInt8], nonce: [UInt8], authenticating aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: 16)
        let result: Result<Void, CryptoError> = text.withUnsafeMutableBytes { textBuffer in
            nonce.withUnsafeBytes { nonceBuffer in
                aad.withUnsafeBytes { aadBuffer in
                    tag.withUnsafeMutableBytes { tagBuffer in
                        Result { () throws(CryptoError) in
                            try seal(textBuffer, nonce: nonceBuffer, authenticating: aadBuffer, tag: tagBuffer)
                        }
                    }
                }
            }
        }
        try result.get()
        return tag
    }

    /// Checks `tag` and decrypts `text` in place; on failure `text` is unchanged.
    package func open(_ text: inout [UInt8], nonce: [UInt8], authenticating aad: [UInt8], tag: [UInt8]) throws(CryptoError) {
        let result: Result<Void, CryptoError> = text.withUnsafeMutableBytes { textBuffer in
            nonce.withUnsafeBytes { nonceBuffer in
                aad.withUnsafeBytes { aadBuffer in
                    tag.withUnsafeBytes { tagBuffer in
                        Result { () throws(CryptoError) in
                            try open(textBuffer, nonce: nonceBuffer, authenticating: aadBuffer, tag: tagBuffer)
                        }
                    }
                }
            }
        }
        try result.get()
    }
}

extension AESGCMContext: AEADContext {}
extension ChaChaPolyContext: AEADContext {}
