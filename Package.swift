// swift-tools-version: 6.2
// SwiftMFA: a pure-Swift cryptography engine and multi-factor-authentication clients.
// The root package declares no package dependencies and no C targets (docs/design.md §1);
// only the nested `Benchmarks/` package may depend on swift-crypto.
import PackageDescription

let package = Package(
    name: "SwiftMFA",
    products: [
        .library(name: "CryptoPrimitives", targets: ["CryptoPrimitives"]),
        .library(name: "MPin", targets: ["MPin"]),
        .library(name: "MPinPlatform", targets: ["MPinPlatform"]),
        // HTTPRequest, HTTPResponse, ProtocolError and URLPolicy: the values every protocol's
        // public API speaks in.
        .library(name: "ProtocolSupport", targets: ["ProtocolSupport"]),
        .library(name: "PowerAuth", targets: ["PowerAuth"]),
        .library(name: "PowerAuthServer", targets: ["PowerAuthServer"]),
        .library(name: "SaltEdge", targets: ["SaltEdge"]),
        .library(name: "CMAuthenticator", targets: ["CMAuthenticator"]),
        .library(name: "SecureStore", targets: ["SecureStore"]),
        .library(name: "PKCS11", targets: ["PKCS11"]),
        .library(name: "AuthNetworking", targets: ["AuthNetworking"]),
        .library(name: "URLSessionTransport", targets: ["URLSessionTransport"]),
        .library(name: "PlainHTTPTransport", targets: ["PlainHTTPTransport"]),
        .library(name: "TLS", targets: ["TLS"]),
        .library(name: "TLSTransport", targets: ["TLSTransport"]),
        .library(name: "PowerAuthSDK", targets: ["PowerAuthSDK"]),
        .library(name: "PowerAuthNetworking", targets: ["PowerAuthNetworking"]),
        .library(name: "SaltEdgeSDK", targets: ["SaltEdgeSDK"]),
        .library(name: "CMAuthenticatorSDK", targets: ["CMAuthenticatorSDK"]),
        .library(name: "MPinSDK", targets: ["MPinSDK"]),
        // Tool-only products, underscored: not API, products only so the nested packages reach
        // them (Fuzz/ fuzzes the command model and the vector parsers, Benchmarks/ and
        // ConstantTime/ run the benchmark rows).
        .library(name: "_MFACommandLine", targets: ["MFACommandLine"]),
        .library(name: "_BenchmarkKit", targets: ["BenchmarkKit"]),
        .library(name: "_VectorFormats", targets: ["VectorFormats"]),
        .executable(name: "mfa", targets: ["mfa"]),
    ],
    // `mfa` sends with TLSTransport, the package's own HTTPS, and links no FoundationNetworking,
    // no libcurl and no ICU: the build that becomes a static binary needing only glibc
    // (docs/static-and-embedded.md), and a third of the resident memory. The opt-in trait
    // (`--traits URLSession`) also links URLSessionTransport, chosen by MFA_TRANSPORT=urlsession.
    traits: [
        .trait(name: "URLSession", description: "mfa links URLSessionTransport too (MFA_TRANSPORT=urlsession chooses it)"),
        .default(enabledTraits: []),
    ],
    targets: [
        // Layer 0: fixed-width integers, Montgomery arithmetic, constant-time helpers, secrets,
        // randomness and encodings. Standard library and Glibc only.
        .target(name: "CryptoCore"),
        // Layer 1: digests, MACs, KDFs, AES (with GCM), ChaCha20-Poly1305, DER/PEM, P-256, P-384,
        // X25519, RSA, the BN254CX pairing.
        .target(name: "CryptoPrimitives", dependencies: ["CryptoCore"]),
        // Layer 2: the M-Pin / DVS protocol of the MIRACL MFA platform, sans-I/O.
        .target(name: "MPin", dependencies: ["CryptoPrimitives"]),
        // Layer 2: the MIRACL platform's and MIRACL Trust's wire formats (discovery, registration,
        // access, session and signing bodies), sans-I/O, so the vector runner needs no SDK.
        .target(name: "MPinPlatform", dependencies: ["CryptoPrimitives", "ProtocolSupport"]),
        // Layer 2 support: what every sans-I/O protocol target shares — exact JSON bodies,
        // transport-free HTTP request values, URL text, timestamps, the rich error type.
        // It imports CryptoPrimitives only to convert CryptoError into ProtocolError.
        .target(name: "ProtocolSupport", dependencies: ["CryptoPrimitives"]),
        // Layer 2: the PowerAuth 3.x client core: its cryptography and every flow, sans-I/O.
        .target(name: "PowerAuth", dependencies: ["CryptoPrimitives", "ProtocolSupport"]),
        // Layer 2: the server's half of the same protocol (tests, mfa-server, Linux back ends
        // that verify signatures).
        .target(name: "PowerAuthServer", dependencies: ["PowerAuth", "CryptoPrimitives", "ProtocolSupport"]),
        // Layer 2: the Salt Edge Authenticator API v2 client and the CM Authenticator client.
        .target(name: "SaltEdge", dependencies: ["CryptoPrimitives", "ProtocolSupport"]),
        .target(name: "CMAuthenticator", dependencies: ["CryptoPrimitives", "ProtocolSupport"]),
        // Layer 3 support: encrypted, atomically replaced records in a directory (the Keychain
        // stand-in of the SDKs). Glibc and CryptoPrimitives only.
        .target(name: "SecureStore", dependencies: ["CryptoPrimitives"]),
        // Layer 3 support: a PKCS #11 client reached with dlopen (no C target) and the store key
        // provider that derives a SecureStore key inside a hardware or software token.
        .target(name: "PKCS11", dependencies: ["SecureStore", "CryptoPrimitives"]),
        // Layer 3 support: the HTTPTransport protocol, logging with redaction, a replaying
        // transport. No Foundation networking: a device may bring its own HTTP stack.
        .target(name: "AuthNetworking", dependencies: ["ProtocolSupport", "CryptoPrimitives"]),
        // Layer 3 support: URLSession's transport (libcurl), the one target that imports FoundationNetworking.
        .target(name: "URLSessionTransport", dependencies: ["AuthNetworking", "ProtocolSupport", "CryptoPrimitives"]),
        // Layer 3 support: a TLS 1.3 and 1.2 client and X.509 path validation, sans-I/O, on the
        // engine's primitives (docs/design.md §1, "TLS of our own").
        .target(name: "TLS", dependencies: ["CryptoPrimitives"]),
        // Layer 3 support: plain HTTP/1.1 over a Glibc socket, no Foundation, no TLS.
        .target(name: "PlainHTTPTransport", dependencies: ["AuthNetworking", "ProtocolSupport", "CryptoPrimitives"]),
        // Layer 3 support: the default transport, HTTP/1.1 over the TLS target on the plain
        // transport's socket and reader; Glibc only.
        .target(name: "TLSTransport", dependencies: ["TLS", "PlainHTTPTransport", "AuthNetworking", "ProtocolSupport", "CryptoPrimitives"]),
        // Layer 3: the PowerAuth SDK (in progress: the stored activation and crash-safe signing).
        .target(name: "PowerAuthSDK", dependencies: ["PowerAuth", "ProtocolSupport", "CryptoPrimitives", "SecureStore", "AuthNetworking", "TLSTransport"]),
        // The Salt Edge Authenticator v2 client: connections in SecureStore, polling, decisions.
        .target(name: "SaltEdgeSDK", dependencies: ["SaltEdge", "ProtocolSupport", "CryptoPrimitives", "SecureStore", "AuthNetworking", "TLSTransport"]),
        // The CM Authenticator client: device and environments in SecureStore, pinned transports, polling.
        .target(name: "CMAuthenticatorSDK", dependencies: ["CMAuthenticator", "ProtocolSupport", "CryptoPrimitives", "SecureStore", "AuthNetworking", "TLSTransport"]),
        // The MIRACL MFA client: users in SecureStore, discovery, registration, authentication, DVS.
        .target(name: "MPinSDK", dependencies: ["MPin", "MPinPlatform", "ProtocolSupport", "CryptoPrimitives", "SecureStore", "AuthNetworking", "TLSTransport"]),
        // The Wultra networking layer: typed endpoints signed, token-signed and E2EE through PowerAuthSDK.
        .target(name: "PowerAuthNetworking", dependencies: ["PowerAuthSDK", "PowerAuth", "ProtocolSupport", "CryptoPrimitives", "AuthNetworking", "TLSTransport"]),
        // Side layer: parsers for third-party and our own vector files. FoundationEssentials only;
        // it never imports a crypto target, so a parser cannot agree with the code it checks.
        .target(name: "VectorFormats"),
        // Top layer: runs parsed vectors against the engine; shared by `mfa` and the tests.
        // It also reads CryptoCore's integers directly (Milagro's arithmetic dumps, CAVP inputs).
        .target(name: "VectorRunner", dependencies: ["CryptoCore", "CryptoPrimitives", "MPin", "MPinPlatform", "PowerAuth", "ProtocolSupport",
                                                     "SaltEdge", "CMAuthenticator", "TLS", "VectorFormats"]),
        // Top layer: the benchmark rows and their timing harness, shared by `mfa bench` and the
        // nested Benchmarks/ package (which adds swift-crypto beside them).
        // It times CryptoCore's field and Montgomery rows directly.
        .target(name: "BenchmarkKit", dependencies: ["CryptoCore", "CryptoPrimitives", "MPin", "PowerAuth", "PowerAuthServer",
                                                     "ProtocolSupport", "SaltEdge", "CMAuthenticator", "SecureStore", "PowerAuthSDK"]),
        // The argument parser of mfa's command families (a library so Fuzz/ can reach it).
        .target(name: "MFACommandLine"),
        .executableTarget(name: "mfa", dependencies: ["MFACommandLine", "CryptoPrimitives", "VectorRunner", "BenchmarkKit", "PowerAuth", "PowerAuthSDK",
                                                      "PowerAuthNetworking", "SecureStore", "AuthNetworking", "PlainHTTPTransport", "TLS", "TLSTransport",
                                                      .target(name: "URLSessionTransport", condition: .when(traits: ["URLSession"])),
                                                      "ProtocolSupport", "SaltEdge", "SaltEdgeSDK", "CMAuthenticator",
                                                      "CMAuthenticatorSDK", "MPinSDK", "MPin", "PKCS11"]),
        // The engine's vector table runner, the host twin of the Embedded Swift build that
        // Embedded/arm-linux runs on aarch64 and armv7 under qemu-user (the same sources).
        .executableTarget(name: "engine-check", dependencies: ["CryptoPrimitives", "MPin"], path: "Embedded/EngineCheck",
                          exclude: ["Embedded"], swiftSettings: [.enableExperimentalFeature("Extern")]),

        // Test-only helpers: a deliberately simple reference integer, a logged-seed generator,
        // hex without the engine, and where ../shared/vectors lives.
        // Also temporary stores, one check of a thrown error's code, an in-process transport.
        // PowerAuthTestServer (the PowerAuth core and server tests share it) needs the server half.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Test-only helpers of the protocol and client tests: a temporary SecureStore, an
        // in-process transport, `expectError(code:)` and one PowerAuth test server. Apart from
        // TestSupport so the engine's tests link nothing built on the engine.
        .target(name: "ClientTestSupport", dependencies: ["TestSupport", "SecureStore", "AuthNetworking", "ProtocolSupport", "CryptoPrimitives",
                                                          "PowerAuth", "PowerAuthServer"], path: "Tests/ClientTestSupport"),

        .testTarget(name: "CryptoCoreTests", dependencies: ["CryptoCore", "TestSupport"]),
        .testTarget(name: "CryptoPrimitivesTests", dependencies: ["CryptoPrimitives", "CryptoCore", "VectorFormats", "TestSupport"]),
        .testTarget(name: "MPinTests", dependencies: ["MPin", "CryptoPrimitives", "VectorFormats", "TestSupport"]),
        .testTarget(name: "MPinPlatformTests", dependencies: ["ClientTestSupport", "MPinPlatform", "ProtocolSupport", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "ProtocolSupportTests", dependencies: ["ClientTestSupport", "ProtocolSupport", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "PowerAuthTests", dependencies: ["ClientTestSupport", "PowerAuth", "PowerAuthServer", "ProtocolSupport", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "SaltEdgeTests", dependencies: ["ClientTestSupport", "SaltEdge", "ProtocolSupport", "CryptoPrimitives", "VectorFormats", "TestSupport"]),
        .testTarget(name: "PowerAuthServerTests", dependencies: ["ClientTestSupport", "PowerAuthServer", "PowerAuth", "ProtocolSupport", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "CMAuthenticatorTests", dependencies: ["ClientTestSupport", "CMAuthenticator", "ProtocolSupport", "CryptoPrimitives", "VectorFormats", "TestSupport"]),
        .testTarget(name: "CMAuthenticatorSDKTests", dependencies: ["ClientTestSupport", "CMAuthenticatorSDK", "CMAuthenticator", "SecureStore", "CryptoPrimitives",
                                                                 "PKCS11", "TestSupport"]),
        .testTarget(name: "VectorFormatsTests", dependencies: ["VectorFormats"]),
        .testTarget(name: "SecureStoreTests", dependencies: ["ClientTestSupport", "SecureStore", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "PKCS11Tests", dependencies: ["ClientTestSupport", "PKCS11", "SecureStore", "CryptoPrimitives", "TestSupport"]),
        .testTarget(name: "PowerAuthSDKTests", dependencies: ["ClientTestSupport", "PowerAuthSDK", "PowerAuthNetworking", "PowerAuth", "PowerAuthServer", "SecureStore", "AuthNetworking", "CryptoPrimitives",
                                                         "ProtocolSupport", "TestSupport"]),
        .testTarget(name: "PowerAuthNetworkingTests", dependencies: ["ClientTestSupport", "PowerAuthNetworking", "PowerAuthSDK", "PowerAuth", "PowerAuthServer", "SecureStore",
                                                                "AuthNetworking", "PlainHTTPTransport", "CryptoPrimitives", "ProtocolSupport",
                                                                "TestSupport"]),
        .testTarget(name: "AuthNetworkingTests", dependencies: ["ClientTestSupport", "AuthNetworking", "URLSessionTransport", "PlainHTTPTransport", "ProtocolSupport",
                                                          "TestSupport", "SaltEdgeSDK", "SaltEdge", "SecureStore"]),
        .testTarget(name: "PlainHTTPTransportTests", dependencies: ["PlainHTTPTransport", "AuthNetworking", "ProtocolSupport", "TestSupport"]),
        .testTarget(name: "URLSessionTransportTests", dependencies: ["URLSessionTransport", "ClientTestSupport", "AuthNetworking", "ProtocolSupport",
                                                               "TestSupport"]),
        // The Salt Edge client end to end on an in-process provider built from the SaltEdge core.
        .testTarget(name: "SaltEdgeSDKTests", dependencies: ["ClientTestSupport", "SaltEdgeSDK", "SaltEdge", "AuthNetworking", "SecureStore", "ProtocolSupport",
                                                         "CryptoPrimitives", "PKCS11", "TestSupport"]),
        .testTarget(name: "MPinSDKTests", dependencies: ["ClientTestSupport", "MPinSDK", "MPin", "MPinPlatform", "AuthNetworking", "SecureStore", "ProtocolSupport",
                                                       "CryptoPrimitives", "TestSupport"]),
        // The conventions the five clients share, each checked over all five.
        .testTarget(name: "ClientConventionTests", dependencies: ["PowerAuthSDK", "PowerAuthNetworking", "CMAuthenticatorSDK", "SaltEdgeSDK", "MPinSDK",
                                                                "PowerAuth", "PowerAuthServer", "CMAuthenticator", "AuthNetworking", "SecureStore",
                                                                "ProtocolSupport", "CryptoPrimitives", "TestSupport"],
                    path: "Tests/3-Clients/ClientConventionTests"),
        // The TLS client against OpenSSL, GnuTLS, nginx and a hostile server on 127.0.0.1.
        .testTarget(name: "TLSTransportTests", dependencies: ["TLSTransport", "TLS", "AuthNetworking", "ProtocolSupport", "TestSupport",
                                                            "PowerAuth", "PowerAuthServer", "CryptoPrimitives", "mfa"]),
        .testTarget(name: "VectorRunnerTests", dependencies: ["VectorRunner", "TestSupport"]),
        .testTarget(name: "BenchmarkKitTests", dependencies: ["BenchmarkKit", "TestSupport"]),
        // `mfa`'s verbs run in process against loopback servers (PowerAuthServer answers PowerAuth).
        .testTarget(name: "MFACommandLineTests", dependencies: ["MFACommandLine", "mfa", "ClientTestSupport", "TestSupport", "PowerAuth", "PowerAuthServer", "PowerAuthSDK", "SaltEdge", "SaltEdgeSDK",
                                                            "CryptoPrimitives", "ProtocolSupport", "SecureStore"]),
    ]
)

// The layers (docs/design.md §1), bottom up. Sources stay at `Sources/<Target>` (the wall checks read
// a target's imports by that path); the test targets are grouped by their source's layer under
// `Tests/<layer>/`. Naming rule: a layer-2 core is named for its
// protocol (`PowerAuth`, `MPin`, `SaltEdge`, `CMAuthenticator`) and the layer-3 client built on it
// is the core's name plus `SDK` (`PowerAuthSDK`, `MPinSDK`, `SaltEdgeSDK`, `CMAuthenticatorSDK`);
// `PowerAuthNetworking` keeps the name of the Wultra layer it ports, `MPinPlatform` is the MIRACL
// platform's wire formats beside the `MPin` core.
let layers: [(folder: String, targets: [String])] = [
    ("1-Engine", ["CryptoCore", "CryptoPrimitives"]),
    ("2-Protocols", ["ProtocolSupport", "PowerAuth", "PowerAuthServer", "MPin", "MPinPlatform", "SaltEdge", "CMAuthenticator"]),
    ("3-Clients", ["AuthNetworking", "SecureStore", "PKCS11", "URLSessionTransport", "PlainHTTPTransport", "TLS", "TLSTransport",
                   "PowerAuthSDK", "PowerAuthNetworking", "MPinSDK", "SaltEdgeSDK", "CMAuthenticatorSDK"]),
    ("4-Tools", ["VectorFormats", "VectorRunner", "BenchmarkKit", "MFACommandLine", "mfa"]),
]
for target in package.targets where target.path == nil && target.isTest {
    let source = String(target.name.dropLast("Tests".count))
    guard let layer = layers.first(where: { $0.targets.contains(source) }) else { continue }
    target.path = "Tests/" + layer.folder + "/" + target.name
}

// One settings loop for every target (docs/design.md §1).
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
