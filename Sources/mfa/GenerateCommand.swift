// `mfa generate p256-tables | bn254cx-constants`: writes the generated tables of the engine to
// standard output.

import CryptoPrimitives
import FoundationEssentials

enum GenerateCommand {
    /// Runs the command; returns the exit status (0, or 2 on a usage error).
    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "p256-tables":
            print(P256.generatorTablesSource(), terminator: "")
            return 0
        case "bn254cx-constants":
            print(BN254CX.constantsSource(), terminator: "")
            return 0
        default:
            StandardStreams.writeError("usage: mfa generate p256-tables > Sources/CryptoPrimitives/EC/P256/P256GeneratorTables.swift\n       mfa generate bn254cx-constants > Sources/CryptoPrimitives/Pairing/BN254CX/BN254CXConstants.swift\n")
            return 2
        }
    }
}
