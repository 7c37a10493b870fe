// engine-check's entry point under Embedded Swift, which has no CommandLine: C's main, with the
// arguments read from argv.

@_cdecl("main")
func embeddedMain(_ argc: Int32, _ argv: UnsafePointer<UnsafePointer<CChar>?>) -> Int32 {
    var arguments = [[UInt8]]()
    var index = 1
    while index < Int(argc), let argument = argv[index] {
        var bytes = [UInt8]()
        var offset = 0
        while argument[offset] != 0 {
            bytes.append(UInt8(bitPattern: argument[offset]))
            offset += 1
        }
        arguments.append(bytes)
        index += 1
    }
    return EngineCheck.run(arguments)
}
