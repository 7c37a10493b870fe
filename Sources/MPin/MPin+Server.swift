// The M-Pin verifier (docs/protocols/mpin.md §4): SERVER_1, SERVER_2 with one double pairing, the one-pass
// form, and the evidence for PIN-error recovery.

public import CryptoPrimitives

extension MPin {
    /// The verifier side of M-Pin.
    public enum Server {
        /// HID = A, and HTID = A + AT(day) when a day is given (`SERVER_1`).
        public static func firstPass(identity: Identity, day: UInt32? = nil) -> (hid: BN254CX.G1, htid: BN254CX.G1?) {
            (identity.point, day.map { identity.point + identity.timePermitPoint(day: $0) })
        }

        /// The outcome of a verification.
        public enum Verification: Sendable, Equatable {
            /// e(Q′, V)·e(sQ, P) = 1: the client holds the right token and PIN.
            case accepted
            /// The check failed (Milagro `MPIN_BAD_PIN`); with U available the evidence lets
            /// ``pinError(_:)`` find the PIN error.
            case rejected(PINErrorEvidence?)
        }

        /// E, the failed pairing product, and F = e(Q′, y·HID + U); E = F^(−δ) for a PIN error δ.
        public struct PINErrorEvidence: Sendable, Equatable {
            /// The pairing product that was not 1.
            public let e: BN254CX.GT
            /// The pairing of the PIN-only part.
            public let f: BN254CX.GT
        }

        /// What the client sent in a two-pass authentication.
        public struct ClientValues: Sendable {
            /// U = x·A, or nil when not sent.
            public let u: BN254CX.G1?
            /// UT = x·(A + AT), with time permits.
            public let ut: BN254CX.G1?
            /// V from the second pass.
            public let v: BN254CX.G1

            /// The values as received (decode them with `BN254CX.G1.init(encoded:)`).
            public init(u: BN254CX.G1?, ut: BN254CX.G1? = nil, v: BN254CX.G1) {
                self.u = u
                self.ut = ut
                self.v = v
            }
        }

        /// SERVER_2 (docs/protocols/mpin.md §4): P = y·H′ + U′ with (H′, U′) = (HTID, UT) when `day` is given,
        /// else (HID, U); Q′ = the client's DVS public key Pa when given, else Q; accept iff
        /// e(Q′, V)·e(sQ, P) = 1 (one shared Miller loop). All inputs are public except sQ.
        public static func verify(identity: Identity, day: UInt32? = nil, challenge y: BN254CX.Scalar, client: ClientValues,
                                  serverSecret: ServerSecret, clientPublicKey: DVS.PublicKey? = nil) -> Verification {
            let (hid, htid) = firstPass(identity: identity, day: day)
            let q = clientPublicKey?.point ?? BN254CX.G2.generator
            let sent: BN254CX.G1?
            let base: BN254CX.G1
            if let htid {
                (base, sent) = (htid, client.ut)
            } else {
                (base, sent) = (hid, client.u)
            }
            guard let sent else { return .rejected(nil) }
            let p = base.multipliedVartime(by: y) + sent
            // Both G2 points are fixed across authentications, so their lines were computed
            // once: Q's per process, Pa's with the public key, sQ's with the server secret.
            let qLines = clientPublicKey?.lines ?? BN254CX.generatorLines
            let product = withExtendedLifetime(serverSecret) {
                BN254CX.multiPairing(prepared: [(qLines, client.v), (serverSecret.lines.prepared, p)])
            }
            if product.isOne { return .accepted }
            guard let u = client.u else { return .rejected(nil) }
            // The error is in the PIN, not the permit, so F uses HID and U (docs/protocols/mpin.md §4 KANGAROO).
            let f = BN254CX.pairing(q, hid.multipliedVartime(by: y) + u)
            return .rejected(PINErrorEvidence(e: product, f: f))
        }

        /// One-pass verification (`MPIN_SERVER`): y = GET_Y(time, (UT or U) ‖ message), then
        /// ``verify(identity:day:challenge:client:serverSecret:clientPublicKey:)``.
        public static func verifyOnePass(identity: Identity, day: UInt32? = nil, client: ClientValues,
                                         message: some Sequence<UInt8> = [UInt8](), time: Int32, serverSecret: ServerSecret,
                                         clientPublicKey: DVS.PublicKey? = nil) -> (Verification, challenge: BN254CX.Scalar) {
            let sent = (day != nil ? client.ut : client.u)?.uncompressedRepresentation ?? []
            let y = MPin.challenge(time: time, transcript: sent + Array(message))
            return (verify(identity: identity, day: day, challenge: y, client: client, serverSecret: serverSecret,
                           clientPublicKey: clientPublicKey), y)
        }
    }
}
