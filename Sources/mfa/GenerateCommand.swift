// `mfa generate p256-tables | bn254cx-constants`: writes the generated tables of the engine to
// standard output.

import CryptoPrimitives
import MFACommandLine
import FoundationEssentials

enum GenerateCommand {
    /// Runs the command with the TABLE the command model read; returns the exit status (0, or
    /// 2 on a usage error).
    static func run(_ options: CommandOptions) -> Int32 {
        switch options.positional.first {
        case "p256-tables":
            print(P256.generatorTablesSource(), terminator: "")
            return 0
        case "bn254cx-constants":
            print(BN254CX.constantsSource(), terminator: "")
            return 0
        case let table:
            // Redirected into Sources/CryptoPrimitives/EC/P256/P256GeneratorTables.swift and
            // Sources/CryptoPrimitives/Pairing/BN254CX/BN254CXConstants.swift.
            return CommandSupport.fail("mfa generate", "unknown table \(table ?? "")" + ": p256-tables or bn254cx-constants", .usage)
        }
    }
}
