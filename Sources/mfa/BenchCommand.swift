// `mfa bench` (filled in with the benchmark rows).
enum BenchCommand {
    static func run(_ arguments: [String]) -> Int32 { 2 }
}
