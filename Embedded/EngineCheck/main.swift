// engine-check's entry point in the host build (a SwiftPM executable): the arguments as bytes.

#if canImport(Glibc)
import Glibc
#endif

exit(EngineCheck.run(CommandLine.arguments.dropFirst().map { Array($0.utf8) }))
