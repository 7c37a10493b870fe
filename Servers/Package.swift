// swift-tools-version: 6.2
// Servers: stand-in back ends (`mfa-server`) and the tests that drive SwiftMFA from outside the
// root package. It depends on the root package by path (docs/design.md §1); the root never depends
// on it. Being another package, it sees only `public` symbols: a `package` symbol on a user's
// path fails this package's build, which is the point of `PublicAPITests`.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, which differs between checkouts (a CI clone
// may not be called "main"), so derive it from where this manifest lives.
let rootIdentity = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().lastPathComponent.lowercased()

/// Products of the root package, each named once per target.
func root(_ names: String...) -> [Target.Dependency] { names.map { .product(name: $0, package: rootIdentity) } }
/// Hummingbird's server, its TLS and its lifecycle (the servers the tests and benchmarks start).
let hummingbird: [Target.Dependency] = [.product(name: "Hummingbird", package: "hummingbird"),
                                        .product(name: "HummingbirdTLS", package: "hummingbird")]
let lifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

let package = Package(
    name: "SwiftMFAServers",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        // Hummingbird's own lifecycle package: the tests stop each server gracefully.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // TLS on loopback for the certificate-pinning tests: a transport that can pin (NIO SSL)
        // and a self-signed certificate made at start-up (swift-certificates, swift-crypto).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
    ],
    targets: [
        // The stand-in services and their Hummingbird wiring (a library, so tests start it in process).
        .target(name: "MFAServerCore", dependencies: hummingbird + [
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ] + root("CMAuthenticator", "MPin", "PowerAuth", "PowerAuthServer", "SaltEdge", "ProtocolSupport", "CryptoPrimitives")),
        .executableTarget(name: "mfa-server", dependencies: ["MFAServerCore"]),
        // Signs in a loop until killed: the child process of the kill -9 test.
        .executableTarget(name: "pa-sign-loop", dependencies: root("PowerAuthSDK", "PowerAuth", "SecureStore", "CryptoPrimitives")),
        // The smallest programs that activate and sign: with their own socket transport (no
        // Foundation), and with URLSessionTransport. Their stripped static sizes are in docs/static-and-embedded.md.
        .executableTarget(name: "pa-minimal",
                          dependencies: root("PowerAuthSDK", "PowerAuth", "SecureStore", "AuthNetworking", "ProtocolSupport", "CryptoPrimitives")),
        .executableTarget(name: "pa-minimal-urlsession",
                          dependencies: root("PowerAuthSDK", "PowerAuth", "SecureStore", "URLSessionTransport", "ProtocolSupport", "CryptoPrimitives")),
        // A signed request end to end over loopback, timed (a benchmark, not a test).
        .executableTarget(name: "pa-loopback-bench", dependencies: ["MFAServerCore", lifecycle] + hummingbird
                          + root("PowerAuthSDK", "PowerAuth", "SecureStore", "URLSessionTransport", "ProtocolSupport", "CryptoPrimitives")),
        // One M-Pin authentication round trip over loopback and the platform's verifications per second.
        .executableTarget(name: "mpin-loopback-bench", dependencies: ["MFAServerCore", lifecycle]
                          + root("MPinSDK", "MPin", "SecureStore", "URLSessionTransport", "ProtocolSupport", "CryptoPrimitives")),
        // The SDKs over real HTTP on 127.0.0.1 against mfa-server.
        .testTarget(name: "EndToEndTests", dependencies: ["MFAServerCore", lifecycle, .product(name: "NIOSSL", package: "swift-nio-ssl")] + hummingbird
                    + root("PowerAuthSDK", "PowerAuthServer", "PowerAuthNetworking", "TLS", "TLSTransport", "PlainHTTPTransport",
                           "SaltEdgeSDK", "SaltEdge", "CMAuthenticatorSDK", "CMAuthenticator", "MPinSDK", "MPinPlatform", "MPin", "PowerAuth",
                           "SecureStore", "AuthNetworking", "URLSessionTransport", "ProtocolSupport", "CryptoPrimitives")),
        // The README's Swift snippets, generated by .ci/readme-snippets: compiled, never run.
        .testTarget(name: "ReadmeSnippetTests",
                    dependencies: root("AuthNetworking", "CMAuthenticator", "CMAuthenticatorSDK", "CryptoPrimitives", "MPinSDK", "MPin",
                                       "PowerAuth", "PowerAuthNetworking", "PowerAuthSDK", "ProtocolSupport", "SaltEdge",
                                       "SaltEdgeSDK", "SecureStore", "URLSessionTransport")),
        // Every library product's main flow through its public API only (no @testable).
        .testTarget(name: "PublicAPITests",
                    dependencies: root("CryptoPrimitives", "PowerAuth", "PowerAuthServer", "MPin", "SaltEdge", "CMAuthenticator", "ProtocolSupport")),
    ]
)
