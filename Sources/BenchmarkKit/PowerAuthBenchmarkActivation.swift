// A persisted PowerAuth client activation for benchmark rows built outside this target
// (`mfa bench --key-provider`, whose rows reach a PKCS #11 token that BenchmarkKit must not
// depend on) and for the `powerauth/store/sign-and-persist` row: the activation is made against
// an in-process `PowerAuthServer` application, with the possession factor
// locked under a key the caller supplies (one derived in a token, for instance).

public import CryptoPrimitives
public import PowerAuth
import PowerAuthServer

/// A benchmark-only PowerAuth activation and the configuration it signs under.
public enum PowerAuthBenchmarkActivation {
    /// A new v3.2 activation whose possession factor is locked with `possessionUnlockKey` and
    /// whose knowledge factor is locked with `password` (docs/protocols/powerauth.md §5, local key locking),
    /// and the client configuration of the application that activated it. Fresh keys from the
    /// system's random source on every call. Throws the error of the step that failed.
    public static func make(possessionUnlockKey: SymmetricKey, password: SecretBytes,
                            activationID: String = "bench") throws -> (activation: PowerAuth.ActivationData, configuration: PowerAuth.Configuration) {
        var random = SystemRandomSource()
        return try make(possessionUnlockKey: possessionUnlockKey, password: password, activationID: activationID, using: &random)
    }

    /// The same, with every key drawn from `random` (a seeded source makes the rows repeatable).
    public static func make(possessionUnlockKey: SymmetricKey, password: SecretBytes, activationID: String = "bench",
                            using random: inout some RandomSource) throws -> (activation: PowerAuth.ActivationData, configuration: PowerAuth.Configuration) {
        let application = try PowerAuthServer.Application(using: &random)
        let configuration = try application.clientConfiguration(baseURL: "")
        let pending = try PowerAuth.PendingActivation(method: .direct([:]), configuration: configuration,
                                                      encryptionKey: PowerAuth.EncryptionKey(publicKey: application.masterAgreementKey.publicKey),
                                                      version: .v3_2, timestamp: 1, using: &random)
        let answer = try PowerAuthServer.Activation.process(pending.request, application: application, version: .v3_2,
                                                            activationID: activationID, timestamp: 2, using: &random)
        let activation = try pending.process(answer.response).persist(password: password, possessionUnlockKey: possessionUnlockKey,
                                                                      version: .v3_2, using: &random)
        return (activation, configuration)
    }
}
