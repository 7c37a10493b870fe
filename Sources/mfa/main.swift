// mfa: the SwiftMFA command-line tool (DESIGN.md §3).

import Glibc
import FoundationEssentials

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: mfa vectors [--json] [--verbose] [PATH ...]
           mfa bench [--filter TEXT] [--min-time SECONDS] [--threads N [--against-processes]] [--json]
           mfa generate p256-tables|bn254cx-constants
           mfa selftest [--json]
           mfa powerauth <verb> … (mfa powerauth --help)
           mfa saltedge <verb> … (mfa saltedge --help)
           mfa cm <verb> … (mfa cm --help)
           mfa mpin <verb> … (mfa mpin --help)
    """

switch arguments.first {
case "vectors":
    exit(VectorsCommand.run(Array(arguments.dropFirst())))
case "bench":
    exit(BenchCommand.run(Array(arguments.dropFirst())))
case "generate":
    exit(GenerateCommand.run(Array(arguments.dropFirst())))
case "powerauth":
    exit(PowerAuthCommand.run(Array(arguments.dropFirst())))
case "selftest":
    exit(SelfTestCommand.run(Array(arguments.dropFirst())))
case "saltedge":
    exit(SaltEdgeCommand.run(Array(arguments.dropFirst())))
case "cm":
    exit(CMCommand.run(Array(arguments.dropFirst())))
case "mpin":
    exit(MPinCommand.run(Array(arguments.dropFirst())))
case "--help", "-h", "help":
    print(usage)
    exit(0)
default:
    StandardStreams.writeError(usage + "\n")
    exit(2)
}
