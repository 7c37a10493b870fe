// mfa-fuzz: one binary, every target.
//   mfa-fuzz list                          the target names
//   mfa-fuzz seed NAME VECTORS FOLDER      write NAME's starting corpus
//   mfa-fuzz NAME [libFuzzer options…]     fuzz NAME (e.g. CORPUS -max_total_time=20)
import CLibFuzzer
import CryptoPrimitives
import Glibc
import ProtocolSupport

/// The target chosen on the command line, read by the callback libFuzzer calls.
nonisolated(unsafe) var chosen: FuzzTarget?

@_cdecl("mfa_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2 else {
        complain("usage: mfa-fuzz list | seed NAME VECTORS FOLDER | NAME [libFuzzer options]")
        return 2
    }
    if arguments[1] == "list" {
        for target in FuzzTarget.all { print(target.name) }
        return 0
    }
    if arguments[1] == "seed" {
        guard arguments.count == 5, let target = FuzzTarget.all.first(where: { $0.name == arguments[2] }) else {
            complain("usage: mfa-fuzz seed NAME VECTORS FOLDER")
            return 2
        }
        do {
            print("\(target.name): \(try target.writeSeeds(vectors: arguments[3], into: arguments[4])) seeds")
            return 0
        } catch {
            complain("mfa-fuzz: \(error)")
            return 1
        }
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == arguments[1] }) else {
        complain("mfa-fuzz: no target \(arguments[1]) (mfa-fuzz list)")
        return 2
    }
    chosen = target
    // libFuzzer sees the program name and the options after the target name.
    var count = argc - 1
    var vector = argv.map { base -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> in
        base[1] = base[0]
        return base + 1
    }
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in
        chosen?.body(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
}

/// One line on standard error.
func complain(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

// One fuzz target: a name, what it feeds the fuzzer's bytes to, and where its seeds come from.
// The body must never trap on any input (that is the finding); round-trip properties trap with
// `FuzzTarget.violated` when the property fails, which libFuzzer reports as a crash.

struct FuzzTarget: Sendable {
    /// The name given on the command line (`mfa-fuzz NAME …`).
    let name: String
    /// Where `mfa-fuzz seed` takes the starting corpus from (paths under the vectors directory).
    let seeds: [SeedSource]
    /// Runs one input.
    let body: @Sendable ([UInt8]) -> Void

    init(_ name: String, seeds: [SeedSource] = [], _ body: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.seeds = seeds
        self.body = body
    }

    /// Stops the process so libFuzzer keeps the input: a property that must hold did not.
    static func violated(_ what: String, _ input: [UInt8]) -> Never {
        fatalError("property violated: \(what) for \(Hex.encode(input.prefix(64)))")
    }

    /// Every target, in the order `mfa-fuzz list` prints them.
    static let all: [FuzzTarget] = encodings + keys + curvePoints + rsaInputs + powerAuth + saltEdge + cm + mpin + commandLine + store + http + tls + vectorFiles + differential

    /// The input as text, invalid UTF-8 repaired (the parsers take `String`).
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The input as an HTTP answer: the first byte picks a status (success and the error codes
    /// the clients branch on), the rest is the body.
    static func response(_ bytes: [UInt8]) -> HTTPResponse {
        let statuses = [200, 200, 200, 201, 204, 400, 401, 403, 404, 409, 410, 412, 500, 503]
        guard let first = bytes.first else { return HTTPResponse(status: 200) }
        return HTTPResponse(status: statuses[Int(first) % statuses.count], headers: [HTTPHeader("Content-Type", "application/json")],
                            body: bytes.dropFirst())
    }
}
