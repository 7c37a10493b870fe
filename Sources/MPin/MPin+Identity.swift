// Identities and the hashes of M-Pin (docs/protocols/mpin.md §3): HASH_ID, the map to G1, the time-permit
// point and the challenge GET_Y.

public import CryptoPrimitives

extension MPin {
    /// An identity: the raw mpinId bytes (the platform's hex-decoded JSON text, used exactly as
    /// received; for DVS, mpinId ‖ Pa), with its hash and its point A = map(SHA-256(ID)).
    public struct Identity: Sendable, Equatable {
        /// The identity bytes, or empty when only the hash is known.
        public let bytes: [UInt8]
        /// HASH_ID(ID) = SHA-256(ID) (docs/protocols/mpin.md §3).
        public let hash: [UInt8]
        /// A(ID) = map(HASH_ID(ID)), public.
        public let point: BN254CX.G1

        /// The identity of `bytes`.
        public init(_ bytes: some Sequence<UInt8>) {
            let bytes = Array(bytes)
            self.init(bytes: bytes, hash: SHA256.hash(data: bytes).bytes)
        }

        /// An identity known only by its hash, as the issuing authorities receive it
        /// (`hash_mpin_id`, docs/protocols/mpin.md §7.1). Throws `CryptoError.incorrectLength` unless 32 bytes.
        public init(hash: some Sequence<UInt8>) throws(CryptoError) {
            let hash = Array(hash)
            guard hash.count == 32 else { throw .incorrectLength }
            self.init(bytes: [], hash: hash)
        }

        private init(bytes: [UInt8], hash: [UInt8]) {
            self.bytes = bytes
            self.hash = hash
            point = BN254CX.G1(mappingHashVartime: hash)  // docs/protocols/mpin.md §3 ECP_mapit; identities are public
        }

        /// The DVS signing identity mpinId ‖ Pa (docs/protocols/mpin.md §5.2, trap 3 of §9).
        public init(mpinID: some Sequence<UInt8>, dvsPublicKey: DVS.PublicKey) {
            self.init(Array(mpinID) + dvsPublicKey.rawRepresentation)
        }

        /// AT(date, ID) = map(SHA-256(date_be32 ‖ HASH_ID(ID))), the time-permit point of a day.
        public func timePermitPoint(day: UInt32) -> BN254CX.G1 {
            BN254CX.G1(mappingHashVartime: SHA256.hash(data: MPin.bigEndian(day) + hash).bytes)
        }

        /// Equal when the hashes are equal.
        public static func == (a: Identity, b: Identity) -> Bool { a.hash == b.hash }
    }

    /// The challenge y = SHA-256(T_be32 ‖ O) mod r (`GET_Y`, docs/protocols/mpin.md §3); the time prefix is
    /// omitted when T ≤ 0. The one-pass and DVS flows use O = U (or UT) ‖ message.
    public static func challenge(time: Int32, transcript: some Sequence<UInt8>) -> BN254CX.Scalar {
        let prefix = time > 0 ? bigEndian(UInt32(time)) : []
        return BN254CX.Scalar(reducing: SHA256.hash(data: prefix + Array(transcript)).bytes)
    }

    /// The day number of a Unix time (days since 1970-01-01 UTC, docs/protocols/mpin.md §4 time permits).
    public static func day(ofUnixTime seconds: Int64) -> UInt32 {
        UInt32(clamping: seconds / 86_400)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
