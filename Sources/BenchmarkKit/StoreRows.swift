// The store step a PowerAuth signature pays: one
// signature through `ActivationStore` — flock, read and open the record, sign, seal and write
// the advanced record with fsync of the file and the directory. On the file system of the
// temporary folder, so the figure is the machine's fsync cost as much as ours.

import CryptoPrimitives
import FoundationEssentials
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import SecureStore
#if canImport(Glibc)
import Glibc
#endif

extension BenchmarkCatalog {
    static func storeRows() throws -> [BenchmarkCase] {
        var random = SeededRandomSource(seed: 13)
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        let (activation, configuration) = try PowerAuthBenchmarkActivation.make(possessionUnlockKey: possession, password: SecretBytes("1234".utf8),
                                                                                using: &random)
        let directory = try storeDirectory.get()
        let store = try ActivationStore(store: SecureStore(directory: directory + "/store"), instanceID: "bench")
        try store.save(activation)
        let authentication = Authentication(possessionUnlockKey: possession)
        let body = Array(#"{"amount":"10.00"}"#.utf8)
        return [
            // What the start-up self-test costs the first SecureStore of a process (run uncached here).
            BenchmarkCase("engine/selftest/all", verifying: { CryptoSelfTest.runKnownAnswerTests().allSatisfy(\.passed) }),
            BenchmarkCase("powerauth/store/sign-and-persist", repeating: {
                try store.sign(method: "POST", uriID: "/pay", body: body, factors: .possession, authentication: authentication,
                                configuration: configuration)
            }),
        ]
    }

    /// A fresh directory (mkdtemp, mode 0700) for the store rows, made once per process and
    /// removed when the process exits, so a run of `mfa bench` leaves nothing in /tmp.
    /// mkdtemp's errno is the failure.
    static let storeDirectory: Result<String, BenchmarkFailure> = {
        var template = Array((FileManager.default.temporaryDirectory.path + "/swiftmfa-bench-store-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            return .failure(BenchmarkFailure(row: "powerauth/store", message: "mkdtemp failed: \(String(cString: strerror(errno)))"))
        }
        atexit { removeStoreDirectory() }
        return .success(String(cString: made))
    }()

    private static func removeStoreDirectory() {
        guard case .success(let storeDirectory) = storeDirectory else { return }
        do { try FileManager.default.removeItem(atPath: storeDirectory) } catch {
            // Already gone, or refused: a leftover holds only the bench activation.
        }
    }
}
