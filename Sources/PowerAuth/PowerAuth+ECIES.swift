// ECIES end-to-end encryption (docs/protocols/powerauth.md §9): the envelope key from ECDH + X9.63, the
// parameters of each scope and version, and both halves of one request/response exchange.
// Both halves live here because a PowerAuth server is the same protocol seen from the other
// side (the vectors check the request by decrypting it and the response by re-encrypting it).

public import CryptoPrimitives
import ProtocolSupport

extension PowerAuth {
    /// ECIES as PowerAuth uses it (docs/protocols/powerauth.md §9).
    public enum ECIES {
        /// The sharedInfo1 constants of §9.1.
        public enum SharedInfo1: String, Sendable, CaseIterable {
            case applicationScopeGeneric = "/pa/generic/application"
            case activationScopeGeneric = "/pa/generic/activation"
            case activationLayer2 = "/pa/activation"
            case upgrade = "/pa/upgrade"
            case vaultUnlock = "/pa/vault/unlock"
            case createToken = "/pa/token/create"
            case confirmRecoveryCode = "/pa/recovery/confirm"
        }

        /// Everything both sides must agree on for one exchange (docs/protocols/powerauth.md §9.1).
        public struct Parameters: Sendable {
            /// The protocol version; selects IV, nonce, timestamp and KDF-info rules.
            public let version: ProtocolVersion
            /// The KDF info before the ephemeral key: SH1 (3.0, 3.1) or version ‖ SH1 (3.2+).
            public let kdfInfo: [UInt8]
            /// SH2_BASE (3.0, 3.1: the whole SH2).
            public let sharedInfo2Base: [UInt8]
            /// The associated data (3.2+), `nil` before.
            public let associatedData: [UInt8]?
            /// The temporary key id carried in the request (3.3).
            public let temporaryKeyID: String?

            /// Raw parameters, as the low-level vectors state them.
            public init(version: ProtocolVersion, sharedInfo1: [UInt8], sharedInfo2Base: [UInt8], associatedData: [UInt8]?, temporaryKeyID: String?) {
                self.version = version
                kdfInfo = version >= .v3_2 ? Array(version.rawValue.utf8) + sharedInfo1 : sharedInfo1
                self.sharedInfo2Base = sharedInfo2Base
                self.associatedData = version >= .v3_2 ? associatedData : nil
                self.temporaryKeyID = version >= .v3_3 ? temporaryKeyID : nil
            }

            /// Application scope: SH2_BASE = SHA-256(APP_SECRET text); AD = lenPrefixed(version,
            /// APP_KEY[, temporary key id]).
            public static func applicationScope(_ sharedInfo1: SharedInfo1, version: ProtocolVersion, applicationKey: String,
                                                applicationSecret: String, temporaryKeyID: String? = nil) -> Parameters {
                let ad = lengthPrefixed([Array(version.rawValue.utf8), Array(applicationKey.utf8)]
                                        + (version >= .v3_3 ? [Array((temporaryKeyID ?? "").utf8)] : []))
                return Parameters(version: version, sharedInfo1: Array(sharedInfo1.rawValue.utf8),
                                  sharedInfo2Base: SHA256.hash(data: Array(applicationSecret.utf8)).bytes, associatedData: ad, temporaryKeyID: temporaryKeyID)
            }

            /// Activation scope: SH2_BASE = HMAC-SHA256(KEY_TRANSPORT, APP_SECRET text); AD =
            /// lenPrefixed(version, APP_KEY, activation id[, temporary key id]).
            public static func activationScope(_ sharedInfo1: SharedInfo1, version: ProtocolVersion, applicationKey: String, applicationSecret: String,
                                               transportKey: SymmetricKey, activationID: String, temporaryKeyID: String? = nil) -> Parameters {
                let ad = lengthPrefixed([Array(version.rawValue.utf8), Array(applicationKey.utf8), Array(activationID.utf8)]
                                        + (version >= .v3_3 ? [Array((temporaryKeyID ?? "").utf8)] : []))
                let base = HMAC<SHA256>.authenticationCode(for: Array(applicationSecret.utf8), using: transportKey).bytes
                return Parameters(version: version, sharedInfo1: Array(sharedInfo1.rawValue.utf8), sharedInfo2Base: base,
                                  associatedData: ad, temporaryKeyID: temporaryKeyID)
            }

            /// SH2 (§9.2, §9.3): the base alone before 3.2, then lenPrefixed(base, nonce,
            /// BE64(timestamp), ephemeral key or empty, AD).
            func sharedInfo2(nonce: [UInt8]?, timestamp: UInt64?, ephemeralPublicKey: [UInt8]) -> [UInt8] {
                guard version >= .v3_2 else { return sharedInfo2Base }
                let ts = (0..<8).map { UInt8(truncatingIfNeeded: (timestamp ?? 0) >> (56 - 8 * UInt64($0))) }
                return lengthPrefixed([sharedInfo2Base, nonce ?? [], ts, ephemeralPublicKey, associatedData ?? []])
            }
        }

        /// lenPrefixed (docs/protocols/powerauth.md §1): BE32(length) ‖ bytes for each item.
        public static func lengthPrefixed(_ items: [[UInt8]]) -> [UInt8] {
            items.flatMap { item in
                [UInt8(truncatingIfNeeded: item.count >> 24), UInt8(truncatingIfNeeded: item.count >> 16),
                 UInt8(truncatingIfNeeded: item.count >> 8), UInt8(truncatingIfNeeded: item.count)] + item
            }
        }

        /// K = X963KDF-SHA256(Z, info ‖ E, 48) split into the three keys (§9.2).
        public struct EnvelopeKey: Sendable {
            /// K[0..<16].
            public let encryptionKey: SymmetricKey
            /// K[16..<32].
            public let macKey: SymmetricKey
            /// K[32..<48] (unused by 3.0).
            public let ivKey: SymmetricKey
            /// HMAC-SHA256 keyed with ``macKey`` and with ``ivKey``, the key pads absorbed once
            /// (the `HMAC` design: a long-lived keyed value authenticates many messages). A
            /// request and its response each MAC once and derive one IV: keying each key once
            /// instead of twice saves four of the exchange's ~23 SHA-256 compressions. Both
            /// states are key-equivalent and are wiped with the envelope (``KeyedMAC``).
            let macState: KeyedMAC
            let ivState: KeyedMAC

            /// Derives K from the ECDH x-coordinate.
            public init(sharedSecret: SharedSecret, kdfInfo: [UInt8], ephemeralPublicKey: [UInt8]) throws(CryptoError) {
                let k = try sharedSecret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: kdfInfo + ephemeralPublicKey, outputByteCount: 48)
                // Split inside the wiped storage: no copy of K leaves it.
                (encryptionKey, macKey, ivKey) = k.withUnsafeBytes { raw in
                    (SymmetricKey(data: UnsafeRawBufferPointer(rebasing: raw[0..<16])),
                     SymmetricKey(data: UnsafeRawBufferPointer(rebasing: raw[16..<32])),
                     SymmetricKey(data: UnsafeRawBufferPointer(rebasing: raw[32..<48])))
                }
                macState = KeyedMAC(key: macKey)
                ivState = KeyedMAC(key: ivKey)
            }

            /// HMAC-SHA256(macKey, C ‖ SH2) from the keyed state, without joining C and SH2.
            package func tag(_ ciphertext: [UInt8], sharedInfo2: [UInt8]) -> [UInt8] {
                macState.mac(ciphertext, sharedInfo2)
            }

            /// AES-128-CBC-PKCS7 under the encryption key, then MAC = HMAC-SHA256(macKey, C ‖ SH2)
            /// (§9.2): the one sealing rule of requests and responses.
            func seal(_ plaintext: some Sequence<UInt8>, iv: [UInt8], sharedInfo2: [UInt8]) throws(CryptoError) -> (ciphertext: [UInt8], mac: [UInt8]) {
                let ciphertext = try AES.UnauthenticatedCBC.encrypt(plaintext, using: encryptionKey, iv: iv)
                return (ciphertext, tag(ciphertext, sharedInfo2: sharedInfo2))
            }

            /// The MAC checked in constant time before anything is decrypted, then AES-CBC-PKCS7
            /// (§9.3). Every failure is the one ``ProtocolError/decryptionFailure(file:line:)``.
            func open(_ ciphertext: [UInt8], mac: [UInt8], iv: [UInt8], sharedInfo2: [UInt8]) throws(ProtocolError) -> [UInt8] {
                // The full 32-byte tag, compared in constant time (as HMAC.isValidAuthenticationCode).
                guard mac.count == SHA256.byteCount, ConstantTimeComparison.isEqual(tag(ciphertext, sharedInfo2: sharedInfo2), mac) else {
                    throw .decryptionFailure()
                }
                // A CBC failure after a good MAC converts to the same one decryption error.
                return try ProtocolError.converting("ECIES payload") { () throws(CryptoError) in
                    try AES.UnauthenticatedCBC.decrypt(ciphertext, using: encryptionKey, iv: iv)
                }
            }

            /// The IV: zero for 3.0, KDF_INTERNAL(ivKey, nonce) after (§9.2).
            package func iv(nonce: [UInt8]?, version: ProtocolVersion) -> [UInt8] {
                guard version >= .v3_1, let nonce else { return [UInt8](repeating: 0, count: 16) }
                // KDF_INTERNAL(ivKey, nonce) = fold16(HMAC-SHA256(ivKey, nonce)), as
                // KeyDerivation.deriveInternal, from the keyed state (a test compares the two).
                var code = ivState.mac(nonce)
                defer { SecretBytes.wipe(&code) }
                return PowerAuth.fold16(code)
            }
        }

        /// An HMAC-SHA256 state keyed once (its key pads absorbed), held on the heap and wiped when
        /// the last reference goes, as `SecretBytes` wipes its storage: the inner and outer hash
        /// states are key-equivalent (anyone holding them can MAC under the key), so they must not
        /// outlive the envelope in freed memory.
        ///
        /// `HMAC<SHA256>` is a plain value (two fixed-size hash states, no references; `deinit`
        /// checks this with `_isPOD`), so zeroing its bytes in place is a valid end of its life.
        /// The per-message copy that ``mac(_:_:)`` makes (its outer state is the keyed one) is
        /// wiped the same way when the call ends. The copy of the outer state that
        /// `HMAC.finalize()` advances, and the hash's own working copies, are temporaries the
        /// compiler places; Swift gives no handle on them, so they are not wiped.
        package final class KeyedMAC: @unchecked Sendable {
            // Written once by init and zeroed by deinit, never mutated in between: safe to share
            // across threads, hence @unchecked Sendable.
            private var state: HMAC<SHA256>

            /// Keys the state with `key` (RFC 2104 §2: the pads are absorbed once, here).
            package init(key: SymmetricKey) {
                state = HMAC(key: key)
            }

            deinit {
                // A value with references inside could not be zeroed in place; SHA256 holds none.
                if _isPOD(HMAC<SHA256>.self) {
                    withUnsafeMutableBytes(of: &state) { SecretBytes.wipe($0) }
                }
            }

            /// HMAC-SHA256 of `first ‖ second` under the key, from a copy of the keyed state
            /// (the two parts are absorbed in turn, never joined).
            package func mac(_ first: [UInt8], _ second: [UInt8] = []) -> [UInt8] {
                var mac = state
                defer {
                    if _isPOD(HMAC<SHA256>.self) { withUnsafeMutableBytes(of: &mac) { SecretBytes.wipe($0) } }
                }
                mac.update(data: first)
                mac.update(data: second)
                return mac.finalize().bytes
            }
        }
    }
}
