// swift-tools-version: 6.2
// Coverage-guided fuzzing of every parser of external data (libFuzzer + AddressSanitizer).
// A nested package so the root stays free of sanitizer flags; it depends on the root by path.
// Build and run with ./run (docs/fuzzing.md); the flags come from the command line so the root's
// modules are instrumented too, not just this harness.
import PackageDescription

/// The root's libraries whose parsers the targets reach.
let engineProducts = ["CryptoPrimitives", "PowerAuth", "PowerAuthServer", "ProtocolSupport", "SaltEdge", "CMAuthenticator", "MPin",
                      "SecureStore", "_BenchmarkKit", "_VectorFormats", "PlainHTTPTransport", "MPinSDK", "MPinPlatform", "_MFACommandLine", "TLS"]

let package = Package(
    name: "SwiftMFAFuzz",
    dependencies: [
        .package(name: "SwiftMFA", path: ".."),
        // The references of the differential targets (docs/fuzzing.md): BoringSSL through
        // swift-crypto for every primitive, arbitrary-precision integers for the arithmetic.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/attaswift/BigInt.git", from: "6.0.1"),
    ],
    targets: [
        // The prototype of LLVMFuzzerRunDriver, so the harness calls the runtime's driver from
        // its own entry point (SwiftPM renames an executable's main).
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "mfa-fuzz", dependencies: [
            "CLibFuzzer",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "BigInt", package: "BigInt"),
        ] + engineProducts.map { .product(name: $0, package: "SwiftMFA") }, swiftSettings: [.unsafeFlags(["-parse-as-library"])],
        // gold stops with an internal error on the sanitizer runtime; lld links it.
        linkerSettings: [.unsafeFlags(["-use-ld=lld"])]),
    ]
)
