// Recovery codes from the server's side (docs/protocols/powerauth.md §3.3, §13): issuing a code with its PUKs,
// redeeming it in a `RECOVERY` activation (the PUK compared in constant time, failures counted,
// `currentRecoveryPukIndex` in the refusal), confirming a postcard's code, and the §14.2 error
// envelope the refusals travel in.

public import CryptoPrimitives
import PowerAuth
public import ProtocolSupport

extension PowerAuthServer {
    /// One recovery code as the server keeps it. Persist it after every change.
    ///
    /// Our model of the reference server's rules (assumed where the spec is silent): PUKs are
    /// used in order, each once; a right PUK moves to the next and rebinds the code to the new
    /// activation, and the last one revokes it; a wrong PUK counts a failure without moving,
    /// and the code blocks at ``maxFailedAttempts``. The PUKs are kept as `SecretBytes`; a
    /// production server would keep only slow hashes of them.
    public struct RecoveryCode: Sendable {
        /// The lifecycle of a code.
        public enum State: String, Sendable {
            /// Issued on a postcard and not yet confirmed by the user (§13 confirm).
            case created = "CREATED"
            /// Usable for a recovery activation.
            case active = "ACTIVE"
            /// Too many wrong PUKs.
            case blocked = "BLOCKED"
            /// Every PUK used, or withdrawn by the server.
            case revoked = "REVOKED"
        }

        /// What a redemption attempt did.
        public enum Redemption: Sendable, Equatable {
            /// The PUK was right; remove `previousActivationID` (if any) and activate.
            case accepted(previousActivationID: String?)
            /// The PUK was wrong; answer `ERR_RECOVERY` with this `currentRecoveryPukIndex`.
            case refused(currentPukIndex: Int)
            /// The code is not active (never confirmed, blocked or revoked).
            case notActive
        }

        /// The code, without `R:`.
        public let code: String
        /// The activation the code recovers, if it is bound to one.
        public private(set) var activationID: String?
        /// Where the code is in its lifecycle.
        public private(set) var state: State
        /// The 1-based index of the PUK the next redemption must present.
        public private(set) var currentPukIndex = 1
        /// Wrong PUKs since the last right one.
        public private(set) var failedAttempts = 0
        /// Wrong PUKs that block the code.
        public var maxFailedAttempts = 5
        /// The PUKs in order (to print on the postcard; redacted in logs).
        public let puks: [SecretBytes]

        /// A fresh code (10 random bytes ‖ CRC-16/ARC in Base32, the activation-code format,
        /// §3.3) with `pukCount` random ten-digit PUKs: one for the code an activation answer
        /// carries (state `active`), several for a postcard (state `created` until confirmed).
        public static func issue(pukCount: Int = 1, activationID: String?, state: State = .active,
                                 using random: inout some RandomSource) throws(ProtocolError) -> RecoveryCode {
            guard (1...100).contains(pukCount) else { throw ProtocolError(.invalidArgument, "1–100 PUKs") }
            var puks: [SecretBytes] = []
            for _ in 0..<pukCount { puks.append(try randomPUK(using: &random)) }
            return RecoveryCode(code: try PowerAuthServer.randomCode(using: &random), activationID: activationID, state: state, puks: puks)
        }

        /// A code the server already holds (for example read back from its storage). Throws
        /// `ProtocolError.Code.invalidActivationCode` for a malformed code or PUK.
        public init(code: String, puks: [SecretBytes], activationID: String?, state: State, currentPukIndex: Int = 1,
                    failedAttempts: Int = 0) throws(ProtocolError) {
            guard PowerAuth.isValidCode(code), !puks.isEmpty,
                  puks.allSatisfy({ PowerAuth.isValidPUK($0) }),
                  (1...puks.count + 1).contains(currentPukIndex), failedAttempts >= 0 else {
                throw ProtocolError(.invalidActivationCode, "recovery code or PUKs")
            }
            self.init(code: code, activationID: activationID, state: state, puks: puks)
            self.currentPukIndex = currentPukIndex
            self.failedAttempts = failedAttempts
        }

        private init(code: String, activationID: String?, state: State, puks: [SecretBytes]) {
            self.code = code
            self.activationID = activationID
            self.state = state
            self.puks = puks
        }

        /// The PUK the next redemption needs (to print on a postcard or to put in an answer).
        public var currentPUK: SecretBytes? { currentPukIndex <= puks.count ? puks[currentPukIndex - 1] : nil }

        /// The pair `ReceivedActivation.accept(recovery:)` puts in the activation answer.
        public var activationRecovery: (code: String, puk: SecretBytes)? { currentPUK.map { (code, $0) } }

        /// Checks `puk` for a `RECOVERY` activation that will become `newActivationID` (§13).
        public mutating func redeem(puk: SecretBytes, newActivationID: String) -> Redemption {
            guard state == .active, let expected = currentPUK else { return .notActive }
            guard puk == expected else {   // SecretBytes compares in constant time.
                failedAttempts += 1
                if failedAttempts >= maxFailedAttempts { state = .blocked }
                return .refused(currentPukIndex: currentPukIndex)
            }
            let previous = activationID
            failedAttempts = 0
            currentPukIndex += 1
            activationID = newActivationID
            if currentPukIndex > puks.count { state = .revoked }
            return .accepted(previousActivationID: previous)
        }

        /// Confirms the code (§13 `recovery/confirm`): `created` becomes `active`. Returns
        /// `alreadyConfirmed`; `nil` when the code is blocked or revoked.
        public mutating func confirm() -> Bool? {
            switch state {
            case .created: state = .active; return false
            case .active: return true
            case .blocked, .revoked: return nil
            }
        }

        /// Withdraws the code (for example when its activation is removed).
        public mutating func revoke() { state = .revoked }

        /// A uniform ten-digit PUK: 64-bit draws below the largest multiple of 10^10 (rejection
        /// sampling, no modulo bias); the loop depends only on the random bits.
        static func randomPUK(using random: inout some RandomSource) throws(ProtocolError) -> SecretBytes {
            let modulus: UInt64 = 10_000_000_000
            let limit = UInt64.max - UInt64.max % modulus
            while true {
                let bytes = try ProtocolError.converting("bytes") { () throws(CryptoError) in try random.bytes(count: 8) }
                let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard value < limit else { continue }
                var digits = [UInt8](repeating: 0, count: 10)
                var rest = value % modulus
                for i in (0..<10).reversed() {
                    digits[i] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                return SecretBytes(digits)
            }
        }
    }

    /// Answers the decrypted `recovery/confirm` plaintext `{"recoveryCode":…}` (§13) for the
    /// activation that signed it: `{"alreadyConfirmed":bool}` to encrypt, or `nil` when the
    /// code is unknown to `activationID`, blocked or revoked (answer `ERR_RECOVERY`).
    public static func recoveryConfirmAnswer(_ plaintext: [UInt8], activationID: String,
                                             recoveryCode: inout RecoveryCode) throws(ProtocolError) -> [UInt8]? {
        struct Wire: Decodable { let recoveryCode: String }
        let asked = try JSONResponse.decode(Wire.self, from: plaintext, what: "recovery confirm request").recoveryCode
        guard asked == recoveryCode.code, recoveryCode.activationID == activationID, let already = recoveryCode.confirm() else { return nil }
        return JSONText.object([("alreadyConfirmed", .bool(already))]).bytes
    }

    /// The §14.2 error envelope: `{"status":"ERROR","responseObject":{"code":…,"message":…}}`,
    /// with `currentRecoveryPukIndex` for a refused PUK; HTTP 401 for authentication codes.
    public static func errorResponse(_ code: ProtocolError.Code, message: String, currentRecoveryPukIndex: Int? = nil) -> HTTPResponse {
        var body: [(String, JSONText)] = [("code", .string(code.rawValue)), ("message", .string(message))]
        if let currentRecoveryPukIndex { body.append(("currentRecoveryPukIndex", .integer(Int64(currentRecoveryPukIndex)))) }
        let status = code == .powerAuthAuthentication || code == .powerAuthAuthFail ? 401 : 400
        return HTTPResponse(status: status, body: JSONText.object([("status", .string("ERROR")), ("responseObject", .object(body))]).bytes)
    }
}
