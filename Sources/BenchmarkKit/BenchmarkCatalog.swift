// Every benchmark row of the engine, in one list.

/// The rows `mfa bench` and `Benchmarks/compare` measure, named `layer/algorithm/op[/size]`.
public enum BenchmarkCatalog {
    /// All rows, in reporting order.
    public static var all: [BenchmarkCase] {
        coreRows + symmetricRows + p256Rows + rsaRows + pairingRows + mpinRows + powerAuthRows + powerAuthActivationRows + protocolRows + storeRows
    }

    /// The rows whose name contains `filter`, or one of its `|`-separated alternatives (all rows
    /// for nil or an empty filter).
    public static func rows(matching filter: String?) -> [BenchmarkCase] {
        guard let filter, !filter.isEmpty else { return all }
        // `a|b` selects the rows matching either, so related rows can share one run.
        let alternatives = filter.split(separator: "|").map(String.init)
        return all.filter { row in alternatives.contains { row.name.contains($0) } }
    }
}
