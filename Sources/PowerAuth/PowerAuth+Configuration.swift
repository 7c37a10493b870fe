// Client configuration (docs/protocols/powerauth.md §2): APP_KEY, APP_SECRET (used as Base64 text in some
// places and as 16 raw bytes in others), the master server public key, and the SDK 1.8+
// configuration string.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// What a client is configured with (docs/protocols/powerauth.md §2).
    public struct Configuration: Sendable {
        /// APP_KEY as Base64 text (sent in clear).
        public let applicationKey: String
        /// APP_SECRET as Base64 text: the form that enters normalised data and sharedInfo2.
        public let applicationSecret: String
        /// KEY_SERVER_MASTER_PUBLIC.
        public let masterServerPublicKey: P256.Signing.PublicKey
        /// The enrollment server's base URL.
        public let baseURL: String

        /// APP_SECRET's 16 decoded bytes: the form for the keystore JWT key (§2). Decoded once,
        /// when the configuration is made.
        public let applicationSecretBytes: [UInt8]
        /// APP_KEY's 16 decoded bytes.
        public let applicationKeyBytes: [UInt8]

        /// Creates a configuration. Throws `ProtocolError.Code.invalidArgument` unless APP_KEY
        /// and APP_SECRET are Base64 of 16 bytes.
        public init(applicationKey: String, applicationSecret: String, masterServerPublicKey: P256.Signing.PublicKey, baseURL: String) throws(ProtocolError) {
            let invalid = ProtocolError(.invalidArgument, "APP_KEY and APP_SECRET must be Base64 of 16 bytes")
            let keyBytes: [UInt8], secretBytes: [UInt8]
            do {
                keyBytes = try Base64.decode(applicationKey)
                secretBytes = try Base64.decode(applicationSecret)
            } catch {
                throw ProtocolError(.invalidArgument, invalid.message, cause: error)
            }
            guard keyBytes.count == 16, secretBytes.count == 16 else { throw invalid }
            self.applicationKey = applicationKey
            self.applicationSecret = applicationSecret
            applicationSecretBytes = secretBytes
            applicationKeyBytes = keyBytes
            self.masterServerPublicKey = masterServerPublicKey
            self.baseURL = baseURL
        }

        /// The SDK configuration string of this configuration (§2): Base64 of `0x01 ‖ 16 ‖ appKey
        /// ‖ 16 ‖ appSecret ‖ 1 ‖ 0x01 ‖ 65 ‖ the uncompressed master key` (every count below 0x80,
        /// so one byte each). ``init(configurationString:baseURL:)`` reads it back.
        public var configurationString: String {
            let key = masterServerPublicKey.x963Representation
            let bytes: [UInt8] = [0x01, 16] + applicationKeyBytes + [16] + applicationSecretBytes
                + [1, 0x01, UInt8(key.count)] + key
            return Base64.encode(bytes)
        }

        /// Reads the SDK configuration string (§2): Base64 of `0x01 ‖ cnt ‖ appKey ‖ cnt ‖
        /// appSecret ‖ cnt(keys) ‖ {keyId ‖ cnt ‖ key}…`, keyId 1 = the P-256 master key.
        /// Throws `ProtocolError.Code.malformedInput` for anything else.
        public init(configurationString: String, baseURL: String) throws(ProtocolError) {
            let bytes = try ProtocolError.converting("configuration string") { () throws(CryptoError) in try Base64.decode(configurationString) }
            var reader = VarintReader(bytes: bytes)
            guard reader.byte() == 0x01, let key = reader.counted(), key.count == 16, let secret = reader.counted(), secret.count == 16,
                  let keyCount = reader.count(), keyCount >= 1 else { throw ProtocolError(.malformedInput, "configuration layout") }
            var master: P256.Signing.PublicKey?
            for _ in 0..<keyCount {
                guard let id = reader.byte(), let keyBytes = reader.counted() else { throw ProtocolError(.malformedInput, "configuration key list") }
                if id == 0x01 {
                    master = try ProtocolError.converting("master server key") { () throws(CryptoError) in
                        try P256.Signing.PublicKey(sec1Representation: keyBytes)
                    }
                }
            }
            guard reader.isAtEnd, let master else { throw ProtocolError(.malformedInput, "no usable master server key") }
            try self.init(applicationKey: Base64.encode(key), applicationSecret: Base64.encode(secret), masterServerPublicKey: master, baseURL: baseURL)
        }
    }

    /// The SDK's byte reader: counts are 1 byte (≤ 0x7F), `10xxxxxx` + 1 byte, or `11xxxxxx` + 3 bytes.
    struct VarintReader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func count() -> Int? {
            guard let first = byte() else { return nil }
            switch first >> 6 {
            case 0, 1: return Int(first)
            case 2: return byte().map { Int(first & 0x3F) << 8 | Int($0) }
            default:
                guard let b1 = byte(), let b2 = byte(), let b3 = byte() else { return nil }
                return Int(first & 0x3F) << 24 | Int(b1) << 16 | Int(b2) << 8 | Int(b3)
            }
        }

        mutating func counted() -> [UInt8]? {
            guard let n = count(), n <= bytes.count - offset else { return nil }
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }
    }
}

