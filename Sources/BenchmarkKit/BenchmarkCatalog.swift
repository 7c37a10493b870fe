// Every benchmark row of the engine, in one list.

/// The rows `mfa bench` and `Benchmarks/compare` measure, named `layer/algorithm/op[/size]`.
public enum BenchmarkCatalog {
    /// All rows, in reporting order.
    public static var all: [BenchmarkCase] {
        coreRows + symmetricRows + p256Rows + rsaRows + pairingRows + mpinRows
    }

    /// The rows whose name contains `filter` (all rows for nil or an empty filter).
    public static func rows(matching filter: String?) -> [BenchmarkCase] {
        guard let filter, !filter.isEmpty else { return all }
        return all.filter { $0.name.contains(filter) }
    }
}
