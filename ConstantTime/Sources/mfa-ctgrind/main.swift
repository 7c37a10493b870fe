// mfa-ctgrind: runs one secret-tracking check (ConstantTime/run runs each under valgrind).

//   mfa-ctgrind list        the check names
//   mfa-ctgrind NAME        run NAME once
//   mfa-ctgrind dudect [--samples-scale X] [NAME...]   Welch t-tests over timings (Dudect.swift)
//   mfa-ctgrind triage ROOT ACCEPTED LOG...   sort the demangled logs' reports (Triage.swift)
import Glibc
import CMemcheck

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "dudect" {
    exit(Dudect.run(Array(arguments[2...])))
} else if arguments.count >= 4, arguments[1] == "triage" {
    exit(Triage.run(root: arguments[2], acceptedPath: arguments[3], logs: Array(arguments[4...])))
} else if arguments.count == 2, arguments[1] == "list" {
    for check in Check.all { print(check.name) }
} else if arguments.count == 2, let check = Check.all.first(where: { $0.name == arguments[1] }) {
    do {
        try check.run()
        print("\(check.name): done (checksum \(String(Secret.checksum, radix: 16)), valgrind \(ct_running_on_valgrind() != 0 ? "yes" : "no"))")
    } catch {
        print("\(check.name): FAILED: \(error)")
        exit(1)
    }
} else {
    print("usage: mfa-ctgrind list | NAME | dudect [--samples-scale X] [NAME...] | triage ROOT ACCEPTED LOG...")
    exit(2)
}
