// Benchmark rows of M-Pin and DVS, on the current platform's
// flow: a DVS identity mpinId ‖ Pa, no time permits, the verifier checking with Pa.

import CryptoPrimitives
import MPin

extension BenchmarkCatalog {
    static func mpinRows() throws -> [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 6)
        let s1 = try MPin.MasterSecretShare.random(using: &seeded), s2 = try MPin.MasterSecretShare.random(using: &seeded)
        let z = try MPin.DVS.PrivateKey(using: &seeded)
        let publicKey = z.publicKey
        let identity = MPin.Identity(mpinID: Array(#"{"userID":"alice@example.com","v":1}"#.utf8), dvsPublicKey: publicKey)
        let pin = MPin.PIN(123_456)
        let shares = [MPin.Issuer.clientSecretShare(s1, for: identity), MPin.Issuer.clientSecretShare(s2, for: identity)]
        let clientSecret = MPin.DVS.clientSecret(shares, privateKey: z)
        let token = MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret)
        let serverSecret = MPin.Issuer.combine([MPin.Issuer.serverSecret(s1), MPin.Issuer.serverSecret(s2)])
        let y = BN254CX.Scalar(reducing: Array(repeating: 0x5A, count: 32))
        let first = try MPin.Client.firstPass(identity: identity, pin: pin, token: token, using: &seeded)
        let v = MPin.Client.secondPass(first, challenge: y)
        let hash = MPin.DVS.documentHash(of: "sample document")
        let signature = try MPin.DVS.signature(for: hash, time: 1_700_000_000, identity: identity, pin: pin, token: token, using: &seeded)
        return [
            BenchmarkCase("mpin/extract-pin", repeating: { MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret) }),
            BenchmarkCase("mpin/client/pass1+pass2", repeating: {
                var random = SystemRandomSource()
                return MPin.Client.secondPass(try MPin.Client.firstPass(identity: identity, pin: pin, token: token, using: &random), challenge: y)
            }),
            BenchmarkCase("mpin/server/verify", verifying: {
                MPin.Server.verify(identity: identity, challenge: y, client: .init(u: first.u, v: v), serverSecret: serverSecret,
                                   clientPublicKey: publicKey) == .accepted
            }),
            BenchmarkCase("mpin/dvs/sign", repeating: {
                var random = SystemRandomSource()
                return try MPin.DVS.signature(for: hash, time: 1_700_000_000, identity: identity, pin: pin, token: token, using: &random)
            }),
            BenchmarkCase("mpin/dvs/verify", verifying: {
                MPin.DVS.isValidSignature(signature, for: hash, time: 1_700_000_000, identity: identity, publicKey: publicKey,
                                          serverSecret: serverSecret)
            }),
        ]
    }
}
