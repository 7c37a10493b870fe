// swift-tools-version: 6.2
// Constant time, checked mechanically: secret inputs are marked undefined with memcheck client
// requests and every operation that handles them runs under valgrind, which reports each branch
// and memory index that depends on a secret (docs/constant-time.md). A nested package:
// the one C header it needs stays out of the root, which has no C targets.
import PackageDescription

/// The root's libraries whose secret-handling code the checks run.
let engineProducts = ["CryptoPrimitives", "PowerAuth", "PowerAuthServer", "ProtocolSupport", "SaltEdge", "MPin", "_BenchmarkKit"]

let package = Package(
    name: "SwiftMFAConstantTime",
    dependencies: [.package(name: "SwiftMFA", path: "..")],
    targets: [
        .target(name: "CMemcheck"),
        .executableTarget(name: "mfa-ctgrind", dependencies: ["CMemcheck"] + engineProducts.map { .product(name: $0, package: "SwiftMFA") }),
    ]
)
