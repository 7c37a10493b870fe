// `mfa bench --key-provider file|passphrase|pkcs11:<URI>` (docs/hardware-keys.md "Measured"):
// what a store key provider costs a PowerAuth client, on a throw-away store in a new temporary
// directory keyed by that provider (recorded as `mfa keys use` records it; removed afterwards):
//
//   keys/<provider>/powerauth-sign-2fa  one two-factor signature on the open store: the
//       possession unlock key (derived in the token — one session and one CKM_SHA256_HMAC — or
//       read from the store for file and passphrase), the knowledge key from the password,
//       the signature, and the advanced counter written and fsynced before the header exists
//       (ActivationStore.sign, docs/protocols/powerauth.md §7.1-§7.5): the work of `mfa powerauth sign` once
//       its store is open, without the network.
//   keys/<provider>/store-open  opening the store with the provider it records (the store key:
//       one token derivation, a passphrase stretch or the key file) and reading one record.
//
// A whole `mfa powerauth sign` process pays about one of each. Every row counts the token
// derivations it makes and prints them per operation (one for a token, none otherwise;
// PKCS11Tests/BenchKeyProviderTests fails on two). No key outlives its operation except the
// open store's own (as in every SecureStore) and the PIN, read once for the run as any `mfa`
// process reads it (the URI's pin-source, else the terminal; never argv).

import BenchmarkKit
import CryptoPrimitives
import FoundationEssentials
import Glibc
import MFACommandLine
import PKCS11
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import SecureStore
import Synchronization

/// The operations a row ran and the token derivations they made.
final class TokenCallCount: Sendable {
    private let state = Mutex<(operations: Int, derivations: Int)>((0, 0))

    func ran(_ operations: Int) { state.withLock { $0.operations += operations } }
    func derived() { state.withLock { $0.derivations += 1 } }

    /// Operations run so far (warm-up and calibration included) and token derivations made.
    var totals: (operations: Int, derivations: Int) { state.withLock { ($0.operations, $0.derivations) } }
    /// Token derivations per operation (0 before any operation).
    var perOperation: Double {
        state.withLock { $0.operations == 0 ? 0 : Double($0.derivations) / Double($0.operations) }
    }
}

/// The possession key derived in the token, each derivation counted.
struct CountingPossessionKeySource: PossessionKeySource {
    let base: PKCS11PossessionKeySource
    let count: TokenCallCount

    func possessionUnlockKey(instanceID: String) throws -> SymmetricKey {
        count.derived()
        return try base.possessionUnlockKey(instanceID: instanceID)
    }
}

/// A store key provider whose every derivation is counted when it is a token's.
struct CountingStoreKeyProvider: StoreKeyProvider {
    let base: any StoreKeyProvider
    let count: TokenCallCount

    func storeKey(directory: String) throws(SecureStoreError) -> StoreKey {
        if base is PKCS11KeyProvider { count.derived() }
        return try base.storeKey(directory: directory)
    }

    /// The base's anchor: a token-keyed store advances it on every write, and the rows measure that.
    func rollbackAnchor(directory: String) throws(SecureStoreError) -> (any StoreRollbackAnchor)? {
        try base.rollbackAnchor(directory: directory)
    }
}

enum BenchKeyProviders {
    static let instance = "bench"
    /// The record `mfa powerauth configure` keeps the possession key in when no token derives it.
    static let possessionRecord = "mfa.powerauth.bench.possession"

    /// Runs the rows for the provider `text` (matching `filter`); the exit status.
    package static func run(_ text: String, filter: String?, minTime: Double, json: Bool) -> Int32 {
        var template = Array("/tmp/swiftmfa-bench-keys-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            return CommandSupport.fail("mfa bench", "cannot make a temporary store directory", .transportOrStore)
        }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a leftover temporary store holds only bench keys
        let rows: [(BenchmarkCase, TokenCallCount)]
        do { rows = try prepare(text, directory: directory) } catch {
            return CommandSupport.fail("mfa bench", "\(error)", CommandErrors.exitStatus(of: error))
        }
        let selected = rows.filter { filter == nil || $0.0.name.contains(filter ?? "") }
        guard !selected.isEmpty else { return CommandSupport.fail("mfa bench", "no row matches \(filter ?? "")", .usage) }
        var documents: [[String: Any]] = []
        for (row, count) in selected {
            let result: BenchmarkResult
            do { result = try BenchmarkHarness.measure(row, minTime: minTime) } catch {
                return CommandSupport.fail("mfa bench", error.description, .transportOrStore)
            }
            if json {
                documents.append(["name": result.name, "ops_per_s": result.operationsPerSecond, "ns_per_op": result.nanosecondsPerOperation,
                                  "token_calls_per_op": count.perOperation, "operations": count.totals.operations,
                                  "token_calls": count.totals.derivations])
            } else {
                print(result.name + String(repeating: " ", count: max(0, 36 - result.name.count))
                      + NumberText.fixed(result.operationsPerSecond, decimals: 1, width: 12) + " ops/s "
                      + NumberText.fixed(result.nanosecondsPerOperation / 1000, decimals: 1, width: 12) + " µs/op "
                      + NumberText.fixed(count.perOperation, decimals: 3, width: 6) + " token calls/op")
            }
        }
        if json { print(JSONOutput.render(["rows": documents])) }
        return 0
    }

    /// Keys a new store at `directory` with `text` (as `mfa keys use`), activates a PowerAuth
    /// instance in it with a possession key from the token (or a random one stored beside it)
    /// and the password "1234", and returns the two rows with their counts.
    static func prepare(_ text: String, directory: String) throws -> [(BenchmarkCase, TokenCallCount)] {
        try KeysCommand.use(text, directory: directory)  // a token URI gets a fresh store identifier
        let choice = try KeysCommand.recorded(directory)
        let secret = try KeysCommand.secret(for: choice, directory: directory)
        let provider: any StoreKeyProvider
        do { provider = try choice.keyProvider(secret: secret) } catch { throw KeysCommand.storeError(error, directory) }
        let store = try SecureStore(directory: directory, keyProvider: provider)  // a new store: a missing token key is generated
        let name: String
        let signCount = TokenCallCount(), openCount = TokenCallCount()
        let source: CountingPossessionKeySource?
        let possession: SymmetricKey
        switch choice {
        case .pkcs11:
            guard let tokenProvider = provider as? PKCS11KeyProvider else { throw UsageError(description: "the token provider did not open the store") }
            name = "pkcs11"
            source = CountingPossessionKeySource(base: PKCS11PossessionKeySource(provider: tokenProvider), count: signCount)
            do { possession = try PKCS11PossessionKeySource(provider: tokenProvider).derive(instanceID: instance) } catch {
                throw KeysCommand.storeError(error, directory)
            }
        case .keyFile, .passphrase:
            name = choice == .keyFile ? "file" : "passphrase"
            source = nil
            var random = SystemRandomSource()
            let stored = SecretBytes(try random.bytes(count: 16))
            try store.write(stored, to: possessionRecord)
            possession = SymmetricKey(secret: stored)
        }
        let password = SecretBytes(Array("1234".utf8))
        let fixture = try PowerAuthBenchmarkActivation.make(possessionUnlockKey: possession, password: password)
        let activations = try ActivationStore(store: store, instanceID: instance)
        try activations.save(fixture.activation)
        let configuration = fixture.configuration
        let body = Array(#"{"amount":"10.00"}"#.utf8)

        let sign = BenchmarkCase("keys/\(name)/powerauth-sign-2fa") { iterations in
            signCount.ran(iterations)
            for _ in 0..<iterations {
                // Only this operation holds the possession key: derived (or read) here, dropped at the end.
                let key: SymmetricKey
                if let source {
                    key = try source.possessionUnlockKey(instanceID: instance)
                } else {
                    guard let stored = try store.read(possessionRecord) else { throw UsageError(description: "the possession record is gone") }
                    key = SymmetricKey(secret: stored)
                }
                let authentication = Authentication(possessionUnlockKey: key, password: password)
                blackHole(try activations.sign(method: "POST", uriID: "/pa/v3/signature/validate", body: body,
                                               factors: .possessionKnowledge, authentication: authentication, configuration: configuration))
            }
        }
        let open = BenchmarkCase("keys/\(name)/store-open") { iterations in
            openCount.ran(iterations)
            for _ in 0..<iterations {
                let fresh: any StoreKeyProvider
                do throws(PKCS11Error) { fresh = try choice.keyProvider(secret: secret) } catch { throw KeysCommand.storeError(error, directory) }
                let opened = try SecureStore(directory: directory, keyProvider: CountingStoreKeyProvider(base: fresh, count: openCount))
                guard try ActivationStore(store: opened, instanceID: instance).activation() != nil else {
                    throw UsageError(description: "the activation record is gone")
                }
            }
        }
        return [(sign, signCount), (open, openCount)]
    }
}
