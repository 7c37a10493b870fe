// The issuing authorities (D-TAs) of M-Pin (docs/protocols/mpin.md §4): server secrets, client-secret shares,
// time permits, and the recombination of shares. The platform runs these; our tests and our
// reference server need them too.

import CryptoPrimitives

extension MPin {
    /// What a D-TA computes from its master-secret share s.
    public enum Issuer {
        /// s·Q (`GET_SERVER_SECRET`).
        public static func serverSecret(_ share: MasterSecretShare) -> ServerSecret {
            ServerSecret(BN254CX.G2.generator.multiplied(by: share.scalar))
        }

        /// s·A(ID) (`GET_CLIENT_SECRET`; the authority needs only the identity's hash).
        public static func clientSecretShare(_ share: MasterSecretShare, for identity: Identity) -> ClientSecretShare {
            ClientSecretShare(identity.point.multiplied(by: share.scalar))
        }

        /// s·AT(day, ID) (`GET_CLIENT_PERMIT`).
        public static func timePermit(_ share: MasterSecretShare, for identity: Identity, day: UInt32) -> TimePermit {
            TimePermit(identity.timePermitPoint(day: day).multiplied(by: share.scalar))
        }

        /// The client secret from the authorities' shares (`RECOMBINE_G1`).
        public static func combine(_ shares: [ClientSecretShare]) -> ClientSecret {
            ClientSecret(shares.reduce(BN254CX.G1.infinity) { $0 + $1.point })
        }

        /// The time permit from the authorities' shares (`RECOMBINE_G1`).
        public static func combine(_ shares: [TimePermit]) -> TimePermit {
            TimePermit(shares.reduce(BN254CX.G1.infinity) { $0 + $1.point })
        }

        /// The server secret from the authorities' shares (`RECOMBINE_G2`).
        public static func combine(_ shares: [ServerSecret]) -> ServerSecret {
            ServerSecret(shares.reduce(BN254CX.G2.infinity) { $0 + $1.point })
        }
    }
}
