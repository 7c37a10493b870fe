// Small helpers shared by the test targets.

import Foundation

/// Hex for tests, independent of the engine's encoder.
public enum TestHex {
    /// Bytes from hex; traps on malformed test data (a bug in the test, not in the engine).
    public static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8).filter { $0 != 0x20 && $0 != 0x0A }
        precondition(digits.count % 2 == 0, "odd hex in test data")
        func value(_ c: UInt8) -> UInt8 {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x37
            case 0x61...0x66: c - 0x57
            default: preconditionFailure("bad hex in test data")
            }
        }
        return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// Lower-case hex.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// A SplitMix64 generator for randomized tests. The seed comes from `SWIFTMFA_TEST_SEED` or
/// a fixed default, and is printed, so every failure can be replayed.
public struct TestRandom: RandomNumberGenerator {
    /// The generator's state, from which the next value comes.
    public private(set) var state: UInt64

    /// A generator for the named test, logging its seed.
    public init(_ testName: String) {
        let base = ProcessInfo.processInfo.environment["SWIFTMFA_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_CAFE_F00D_0001
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in testName.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        state = base ^ hash
        print("TestRandom(\(testName)): SWIFTMFA_TEST_SEED=\(base)")
    }

    /// The next value (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// Where the third-party suites live: `../shared/vectors` next to the package.
public enum SharedVectors {
    /// The package root (two levels above this file's folder).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The absolute path of `../shared/vectors`.
    public static let root = URL(fileURLWithPath: packageRoot).deletingLastPathComponent()
        .appendingPathComponent("shared/vectors").path

    /// Whether the suites are present (tests that need them are disabled otherwise, with a reason).
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: root) }

    /// The absolute path of a file under the suites.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The absolute path of a file under our own `Vectors/`.
    public static func ownPath(_ relative: String) -> String { packageRoot + "/Vectors/" + relative }
}

/// How the tests were compiled. Suites that run the engine at scale (RSA key generation, whole
/// vector files, reference-integer sweeps) take minutes unoptimised, so a debug `swift test`
/// reports them as skipped with the reason; `swift test -c release` (the README's command and
/// CI's) runs them all.
public enum TestBuild {
    /// Whether this is an optimised build of the tests.
    public static let isOptimized: Bool = {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }()
}

/// The products of the build this test run belongs to: the executables SwiftPM built beside the
/// test bundle (`.build/<triple>/<debug|release>/`), so a release test run drives the release
/// `mfa`, never a stale debug one.
public enum BuiltProducts {
    /// The folder of the running test bundle.
    public static let directory: String = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().path

    /// The path of the executable `name` of this build.
    public static func executable(_ name: String) -> String { directory + "/" + name }
}
