// swift-tools-version: 6.2
// The yardstick: measures SwiftMFA against apple/swift-crypto (BoringSSL underneath) in one
// process, alternating rounds (docs/design.md §5). The only package allowed a dependency.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, which differs between checkouts
// (a CI clone may not be called "main"), so derive it from where this manifest lives.
let rootIdentity = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "SwiftMFABenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "compare",
            dependencies: [
                .product(name: "_BenchmarkKit", package: rootIdentity),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Full TLS handshakes a second against a local server, for Benchmarks/tls-handshakes,
        // which runs OpenSSL's `s_time` against the same server in the same run.
        .executableTarget(
            name: "handshakes",
            dependencies: [.product(name: "TLS", package: rootIdentity)]
        ),
    ]
)
