// Activation status (docs/protocols/powerauth.md §6): the blob's IV, its decryption and layout (3.1+), and the
// counter comparison that drives synchronisation.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// The activation state of the status blob (docs/protocols/powerauth.md §6.3), plus the client-only
    /// `deadlock` of §6.4.
    public enum ActivationState: UInt8, Sendable {
        case created = 1, pendingCommit = 2, active = 3, blocked = 4, removed = 5
        /// Never sent by the server: the counters cannot be reconciled (§6.4).
        case deadlock = 128
    }

    /// A decrypted status blob (docs/protocols/powerauth.md §6.3).
    public struct ActivationStatus: Sendable, Equatable {
        /// The state.
        public let state: ActivationState
        /// The activation's protocol version (2 or 3).
        public let currentVersion: UInt8
        /// The highest version the server supports; an upgrade is available when greater.
        public let upgradeVersion: UInt8
        /// CTR_BYTE: the server counter's low byte.
        public let counterByte: UInt8
        /// Failed attempts so far.
        public let failedAttempts: UInt8
        /// Failed attempts allowed.
        public let maxFailedAttempts: UInt8
        /// The server's look-ahead window (1…64).
        public let lookAheadWindow: UInt8
        /// CTR_DATA_HASH = KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), server CTR_DATA).
        public let counterDataHash: [UInt8]

        /// Attempts left before the activation blocks.
        public var remainingAttempts: Int { max(0, Int(maxFailedAttempts) - Int(failedAttempts)) }
    }

    /// Status-blob handling (docs/protocols/powerauth.md §6.2–§6.4).
    public enum StatusBlob {
        /// The one message every unreadable status blob gives.
        public static let invalidBlobMessage = "status blob does not decrypt to a valid status"

        /// STATUS_IV = KDF_INTERNAL(KDF(KEY_TRANSPORT, 3000), challenge ‖ nonce) (§6.2).
        public static func iv(transportKey: SymmetricKey, challenge: [UInt8], nonce: [UInt8]) -> [UInt8] {
            let ivKey = KeyDerivation.derive(transportKey, index: 3000)
            return KeyDerivation.deriveInternal(ivKey, index: challenge + nonce).withUnsafeBytes { Array($0) }
        }

        /// Decrypts and parses the 32-byte blob (§6.2, §6.3). Any failure — a wrong length, a
        /// bad magic, an unknown state, a look-ahead of 0 or above 64 — is
        /// `ProtocolError.Code.malformedInput` with one fixed message: no decrypted byte is
        /// quoted, so the error text never carries plaintext.
        public static func decrypt(_ encrypted: [UInt8], transportKey: SymmetricKey, challenge: [UInt8],
                                   nonce: [UInt8]) throws(ProtocolError) -> ActivationStatus {
            guard encrypted.count == 32, challenge.count == 16, nonce.count == 16 else {
                throw ProtocolError(.malformedInput, Self.invalidBlobMessage)
            }
            let blob: [UInt8]
            do {
                blob = try AES.UnauthenticatedCBC.decrypt(encrypted, using: transportKey,
                                                          iv: iv(transportKey: transportKey, challenge: challenge, nonce: nonce), padding: .none)
            } catch {
                throw ProtocolError(.malformedInput, Self.invalidBlobMessage, cause: error)
            }
            // §6.3: DE C0 DE, then D with a non-zero low nibble; a known state; a window of 1…64.
            guard blob[0] == 0xDE, blob[1] == 0xC0, blob[2] == 0xDE, blob[3] & 0xF0 == 0xD0, blob[3] & 0x0F >= 1,
                  let state = ActivationState(rawValue: blob[4]), state != .deadlock, (1...64).contains(blob[15]) else {
                throw ProtocolError(.malformedInput, Self.invalidBlobMessage)
            }
            return ActivationStatus(state: state, currentVersion: blob[5], upgradeVersion: blob[6], counterByte: blob[12],
                                    failedAttempts: blob[13], maxFailedAttempts: blob[14], lookAheadWindow: blob[15],
                                    counterDataHash: Array(blob[16..<32]))
        }

        /// How many `next` steps from `local` reach the server's counter, within `window` tries;
        /// `nil` when none does (§6.4 step 1). Compares hashes of public-to-the-server values only.
        public static func counterDistance(from local: CounterData, serverHash: [UInt8], transportKey: SymmetricKey,
                                           window: Int) -> Int? {
            let counterKey = KeyDerivation.derive(transportKey, index: 4000)
            var candidate = local
            for distance in 0..<max(window, 1) {
                let hash = candidate.rawRepresentation.withUnsafeBytes { KeyDerivation.deriveInternal(counterKey, index: $0) }
                if hash == SymmetricKey(data: serverHash) { return distance }
                candidate = candidate.next
            }
            return nil
        }
    }
}
