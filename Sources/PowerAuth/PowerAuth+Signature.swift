// The symmetric multi-factor signature (docs/protocols/powerauth.md §7): the hash-chain counter, the
// normalised data, the factor cascade, and the decimal and Base64 formats.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// CTR_DATA, the 16-byte hash-chain counter (docs/protocols/powerauth.md §7.1). A secret value: wiped,
    /// redacted, compared in constant time.
    public struct CounterData: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The 16 bytes.
        public let rawRepresentation: SecretBytes

        /// Wraps 16 bytes; throws `CryptoError.incorrectLength` otherwise.
        public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
            let secret = SecretBytes(bytes)
            guard secret.count == 16 else { throw .incorrectLength }
            rawRepresentation = secret
        }

        /// `next(c) = fold16(SHA-256(c))`: the value after one signature (§7.1, §6.4).
        public var next: CounterData {
            var hasher = SHA256()
            rawRepresentation.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            var digest = hasher.finalize().bytes
            defer { SecretBytes.wipe(&digest) }
            var folded = PowerAuth.fold16(digest)
            defer { SecretBytes.wipe(&folded) }
            // fold16 of 32 bytes is always 16 bytes; anything else is a broken invariant, never
            // a reason to hand back the unadvanced counter.
            guard folded.count == 16 else { preconditionFailure("internal error: fold16 gave \(folded.count) bytes") }
            return CounterData(checked: SecretBytes(folded))
        }

        /// Wraps 16 bytes already known to be 16.
        private init(checked secret: SecretBytes) {
            rawRepresentation = secret
        }

        /// `CounterData(redacted)`.
        public var description: String { "PowerAuth.CounterData(redacted)" }
        /// No children.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// A combination of signature factors (docs/protocols/powerauth.md §7.4): the six strings the server accepts.
    public struct SignatureFactors: Sendable, Hashable, CustomStringConvertible {
        /// The wire value, e.g. `possession_knowledge`.
        public let rawValue: String
        let usesPossession: Bool, usesKnowledge: Bool, usesBiometry: Bool

        private init(_ possession: Bool, _ knowledge: Bool, _ biometry: Bool) {
            usesPossession = possession
            usesKnowledge = knowledge
            usesBiometry = biometry
            rawValue = [possession ? "possession" : nil, knowledge ? "knowledge" : nil, biometry ? "biometry" : nil]
                .compactMap { $0 }.joined(separator: "_")
        }

        /// Reads one of the six accepted strings; `nil` for anything else (e.g. `knowledge_biometry`).
        public init?(rawValue: String) {
            guard let match = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = match
        }

        /// `possession`.
        public static let possession = SignatureFactors(true, false, false)
        /// `knowledge` (valid in the header, §7.4; rarely used alone).
        public static let knowledge = SignatureFactors(false, true, false)
        /// `biometry` (valid in the header, §7.4; rarely used alone).
        public static let biometry = SignatureFactors(false, false, true)
        /// `possession_knowledge`, the usual two-factor signature.
        public static let possessionKnowledge = SignatureFactors(true, true, false)
        /// `possession_biometry`.
        public static let possessionBiometry = SignatureFactors(true, false, true)
        /// `possession_knowledge_biometry`.
        public static let possessionKnowledgeBiometry = SignatureFactors(true, true, true)
        static let all: [SignatureFactors] = [.possession, .knowledge, .biometry, .possessionKnowledge, .possessionBiometry, .possessionKnowledgeBiometry]

        /// The wire value.
        public var description: String { rawValue }
    }

    /// The unlocked factor keys a signature uses.
    public struct SignatureKeys: Sendable {
        /// KEY_SIGNATURE_POSSESSION, if unlocked.
        public var possession: SymmetricKey?
        /// KEY_SIGNATURE_KNOWLEDGE, if unlocked.
        public var knowledge: SymmetricKey?
        /// KEY_SIGNATURE_BIOMETRY, if unlocked.
        public var biometry: SymmetricKey?

        /// Collects unlocked keys.
        public init(possession: SymmetricKey? = nil, knowledge: SymmetricKey? = nil, biometry: SymmetricKey? = nil) {
            self.possession = possession
            self.knowledge = knowledge
            self.biometry = biometry
        }

        /// H_i = HMAC(K_i, CTR) (docs/protocols/powerauth.md §7.3) for the keys `factors` asks for, in the
        /// order possession, knowledge, biometry; `nil` when one of them is not unlocked.
        ///
        /// Each key is read in place, never copied into an array: threads signing with the same
        /// keys would otherwise meet on the key objects' reference counts (and a loop over an
        /// array of (wanted, key) tuples asked the runtime for the tuple's metadata on every
        /// signature).
        func counterMACs(for factors: SignatureFactors, counter: UnsafeRawBufferPointer) -> [HashDigest<SHA256>]? {
            var chain: [HashDigest<SHA256>] = []
            chain.reserveCapacity(3)
            if factors.usesPossession {
                guard let mac = Self.mac(possession, counter) else { return nil }
                chain.append(mac)
            }
            if factors.usesKnowledge {
                guard let mac = Self.mac(knowledge, counter) else { return nil }
                chain.append(mac)
            }
            if factors.usesBiometry {
                guard let mac = Self.mac(biometry, counter) else { return nil }
                chain.append(mac)
            }
            return chain
        }

        private static func mac(_ key: borrowing SymmetricKey?, _ counter: UnsafeRawBufferPointer) -> HashDigest<SHA256>? {
            switch key {
            case .some(let key):
                return key.withUnsafeBytes { bytes in
                    var mac = HMAC<SHA256>(keyBytes: bytes)
                    mac.update(bufferPointer: counter)
                    return mac.finalize()
                }
            case .none:
                return nil
            }
        }
    }

    /// How the signature components are written (docs/protocols/powerauth.md §7.3).
    public enum SignatureFormat: Sendable, Hashable {
        /// Base64 of the last 16 bytes of each component, concatenated (online, 3.1+).
        case base64
        /// `decimalize(S_i, digits)` joined with `-` (online 3.0 with 8 digits; offline 4…8).
        case decimal(digits: Int)
    }

    /// Signature computation (docs/protocols/powerauth.md §7.3).
    public enum Signature {
        /// The signature of `data` under `keys` with `counter`.
        ///
        /// Throws `ProtocolError.Code.invalidArgument` when a factor's key is missing or the
        /// decimal length is outside 4…8.
        public static func compute(data: some Sequence<UInt8>, counter: CounterData, factors: SignatureFactors,
                                   keys: SignatureKeys, format: SignatureFormat) throws(ProtocolError) -> String {
            if case .decimal(let digits) = format, !(4...8).contains(digits) {
                throw ProtocolError(.invalidArgument, "decimal components have 4 to 8 digits")
            }
            // H_i = HMAC(K_i, CTR), computed once: D_i starts as H_i and, for j < i, becomes
            // HMAC(H_{j+1}, D_i); S_i = HMAC(D_i, DATA). Intermediate MACs stay in stack values
            // (as HMAC states do, docs/engine-choices.md, "Not wiped").
            guard let chain = counter.rawRepresentation.withUnsafeBytes({ keys.counterMACs(for: factors, counter: $0) }),
                  !chain.isEmpty else {
                throw ProtocolError(.invalidArgument, "a key of \(factors) is not unlocked")
            }
            let message = Array(data)
            let components: [[UInt8]] = message.withUnsafeBytes { dataBytes in
                    (0..<chain.count).map { i in
                        var d = chain[i]
                        for j in 0..<i {
                            d = chain[j + 1].withUnsafeBytes { key in
                                d.withUnsafeBytes { previous in
                                    var mac = HMAC<SHA256>(keyBytes: key)
                                    mac.update(bufferPointer: previous)
                                    return mac.finalize()
                                }
                            }
                        }
                        return d.withUnsafeBytes { key in
                            var mac = HMAC<SHA256>(keyBytes: key)
                            mac.update(bufferPointer: dataBytes)
                            return mac.finalize().bytes
                        }
                    }
            }
            switch format {
            case .base64:
                return Base64.encode(components.flatMap { $0[16..<32] })
            case .decimal(let digits):
                return components.map { decimalize($0, digits: digits) }.joined(separator: "-")
            }
        }

        /// decimalize (docs/protocols/powerauth.md §1): the last 4 bytes as a big-endian UInt32, top bit cleared,
        /// mod 10^digits, zero-padded.
        package static func decimalize(_ hash: [UInt8], digits: Int) -> String {
            let tail = hash.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            var modulus: UInt32 = 1
            for _ in 0..<digits { modulus *= 10 }
            let text = String(tail % modulus)
            return String(repeating: "0", count: digits - text.count) + text
        }
    }
}
