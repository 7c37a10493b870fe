// Every benchmark row of the engine, in one list.

/// The rows `mfa bench` and `Benchmarks/compare` measure, named `layer/algorithm/op[/size]`.
public enum BenchmarkCatalog {
    /// All rows, in reporting order. Throws the first family whose set-up failed (a fixture key
    /// refused, an activation not made): its rows cannot be measured, and silently leaving
    /// them out would read as a smaller catalog.
    public static func all() throws(BenchmarkFailure) -> [BenchmarkCase] {
        try family("core", coreRows) + family("symmetric", symmetricRows) + family("p256", p256Rows) + family("curves", curveRows)
            + family("rsa", rsaRows) + family("bn254cx", pairingRows) + family("mpin", mpinRows)
            + family("powerauth", powerAuthRows) + family("powerauth/activation", powerAuthActivationRows)
            + family("saltedge+cm", protocolRows) + family("powerauth/store", storeRows)
    }

    /// The rows whose name contains `filter`, or one of its `|`-separated alternatives (all rows
    /// for nil or an empty filter).
    public static func rows(matching filter: String?) throws(BenchmarkFailure) -> [BenchmarkCase] {
        let all = try all()
        guard let filter, !filter.isEmpty else { return all }
        // `a|b` selects the rows matching either, so related rows can share one run.
        let alternatives = filter.split(separator: "|").map(String.init)
        return all.filter { row in alternatives.contains { row.name.contains($0) } }
    }

    /// The rows `make` builds, its error as the set-up failure of the family `name`.
    package static func family(_ name: String, _ make: () throws -> [BenchmarkCase]) throws(BenchmarkFailure) -> [BenchmarkCase] {
        do {
            return try make()
        } catch let failure as BenchmarkFailure {
            throw failure
        } catch {
            throw BenchmarkFailure(row: name, message: "set-up failed: \(error)")
        }
    }
}
