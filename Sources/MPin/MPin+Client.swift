// The M-Pin client (docs/protocols/mpin.md §4): the token from the client secret and the PIN, extra factors,
// and the authentication passes, two-pass and one-pass.

public import CryptoPrimitives

extension MPin {
    /// The client side of M-Pin.
    public enum Client {
        /// TOKEN = CS − (PIN mod 10⁶)·A (`EXTRACT_PIN`, docs/protocols/mpin.md §4); the PIN ladder runs over
        /// 20 bits in constant time.
        public static func extractPIN(_ pin: PIN, identity: Identity, clientSecret: ClientSecret) -> Token {
            Token(clientSecret.point - identity.point.multiplied(bySmall: pin.value, bitCount: MPin.pinBitCount))
        }

        /// T − factor·A over `bitCount` bits (`EXTRACT_FACTOR`): takes another secret factor out
        /// of a token. Constant time for a given bit count (at most 32).
        public static func extractFactor(_ factor: UInt32, bitCount: Int, identity: Identity, token: Token) -> Token {
            Token(token.point - identity.point.multiplied(bySmall: factor, bitCount: min(bitCount, 32)))
        }

        /// T + factor·A over `bitCount` bits (`RESTORE_FACTOR`, Milagro #217): puts a factor back.
        public static func restoreFactor(_ factor: UInt32, bitCount: Int, identity: Identity, token: Token) -> Token {
            Token(token.point + identity.point.multiplied(bySmall: factor, bitCount: min(bitCount, 32)))
        }

        /// The client's state after the first pass and the values it sends.
        public struct FirstPass: Sendable {
            /// The random x (secret; needed for the second pass).
            public let x: BN254CX.Scalar
            /// SEC = TOKEN + PIN·A (+ the time permit).
            public let authenticationSecret: AuthenticationSecret
            /// U = x·A (sent; with time permits it lets the verifier measure a PIN error).
            public let u: BN254CX.G1
            /// UT = x·(A + AT(day)) when a time permit is used, else nil.
            public let ut: BN254CX.G1?
        }

        /// A time permit with the day it was issued for.
        public struct DatedPermit: Sendable {
            /// The permit (the sum of the authorities' shares).
            public let permit: TimePermit
            /// Days since 1970-01-01 UTC.
            public let day: UInt32

            /// Pairs a permit with its day.
            public init(_ permit: TimePermit, day: UInt32) {
                self.permit = permit
                self.day = day
            }
        }

        /// The first pass (`CLIENT_1`, docs/protocols/mpin.md §4) with x drawn from `random`.
        public static func firstPass(identity: Identity, pin: PIN, token: Token, permit: DatedPermit? = nil,
                                     using random: inout some RandomSource) throws(CryptoError) -> FirstPass {
            firstPass(identity: identity, pin: pin, token: token, permit: permit, x: try BN254CX.Scalar.random(using: &random))
        }

        /// The first pass with a given x, for known-answer tests only: x must be uniform and
        /// never reused — two challenges answered with one x reveal the whole credential — so
        /// this is `package`, out of a user's reach. SEC = TOKEN + PIN·A (+ TP); U = x·A;
        /// UT = x·(A + AT(day)) with a permit.
        package static func firstPass(identity: Identity, pin: PIN, token: Token, permit: DatedPermit? = nil,
                                     x: BN254CX.Scalar) -> FirstPass {
            var sec = token.point + identity.point.multiplied(bySmall: pin.value, bitCount: MPin.pinBitCount)
            var ut: BN254CX.G1?
            if let permit {
                sec = sec + permit.permit.point
                ut = (identity.point + identity.timePermitPoint(day: permit.day)).multiplied(by: x)
            }
            return FirstPass(x: x, authenticationSecret: AuthenticationSecret(sec), u: identity.point.multiplied(by: x), ut: ut)
        }

        /// V = −((x + y) mod r)·SEC (`CLIENT_2`, docs/protocols/mpin.md §4 and trap 5 of §9).
        public static func secondPass(_ first: FirstPass, challenge y: BN254CX.Scalar) -> BN254CX.G1 {
            -first.authenticationSecret.point.multiplied(by: first.x + y)
        }

        /// The values of a one-pass authentication or a DVS signature.
        public struct OnePass: Sendable {
            /// The first pass (x, SEC, U, UT).
            public let first: FirstPass
            /// y = GET_Y(time, (UT or U) ‖ message).
            public let challenge: BN254CX.Scalar
            /// V = −(x + y)·SEC.
            public let v: BN254CX.G1
        }

        /// One-pass M-Pin (`MPIN_CLIENT`): the first pass, y from the time and the transcript
        /// (UT when a permit is used, else U) followed by `message`, then the second pass.
        public static func onePass(identity: Identity, pin: PIN, token: Token, permit: DatedPermit? = nil,
                                   message: some Sequence<UInt8> = [UInt8](), time: Int32,
                                   using random: inout some RandomSource) throws(CryptoError) -> OnePass {
            onePass(identity: identity, pin: pin, token: token, permit: permit, message: message, time: time,
                    x: try BN254CX.Scalar.random(using: &random))
        }

        /// One-pass M-Pin with a given x (known-answer tests only, so `package`; see
        /// ``firstPass(identity:pin:token:permit:x:)``).
        package static func onePass(identity: Identity, pin: PIN, token: Token, permit: DatedPermit? = nil,
                                   message: some Sequence<UInt8> = [UInt8](), time: Int32, x: BN254CX.Scalar) -> OnePass {
            let first = firstPass(identity: identity, pin: pin, token: token, permit: permit, x: x)
            let sent = (first.ut ?? first.u).uncompressedRepresentation
            let y = MPin.challenge(time: time, transcript: sent + Array(message))
            return OnePass(first: first, challenge: y, v: secondPass(first, challenge: y))
        }
    }
}
