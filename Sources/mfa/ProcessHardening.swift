// Keeping an SDK command's secrets out of core files and away from other processes of the same
// user: a command that holds a password, a PIN or an unwrapped key makes itself non-dumpable
// (prctl(2) PR_SET_DUMPABLE 0: no core file, no ptrace attach and no /proc/<pid>/mem read by
// another process of the user without CAP_SYS_PTRACE) and sets its core size limit to zero
// (getrlimit(2) RLIMIT_CORE), before any secret is read.

import Glibc

enum ProcessHardening {
    /// `PR_SET_DUMPABLE` and `PR_GET_DUMPABLE` of <linux/prctl.h> (Glibc's module map does not
    /// export them).
    private static let setDumpable: Int32 = 4, getDumpable: Int32 = 3

    /// RLIMIT_CORE as getrlimit(2) takes it (Glibc's module map imports the enum, not the int).
    private static let core = __rlimit_resource_t(RLIMIT_CORE.rawValue)

    /// The C library's `prctl`, found with `dlsym`: Swift does not import variadic C functions,
    /// and with integer arguments the fixed-arity C call is the variadic one on every Linux ABI
    /// this package builds for (x86-64, AArch64, ARM EABI). Nil when the C library has none (a
    /// static binary without a dynamic symbol table).
    private static var prctl: (@convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32)? {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        return dlsym(nil, "prctl").map { unsafeBitCast($0, to: Prctl.self) }
    }

    /// Makes this process non-dumpable and its core limit zero; true when both hold afterwards.
    /// False (reported by the caller, not fatal) when the kernel or the C library refused.
    static func keepSecretsOutOfCoreDumps() -> Bool {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        let limited = setrlimit(core, &none) == 0
        guard let prctl, prctl(setDumpable, 0, 0, 0, 0) == 0 else { return false }
        return limited && isNonDumpable
    }

    /// Whether the kernel reports this process non-dumpable and its core limit zero.
    static var isNonDumpable: Bool {
        var limit = rlimit()
        guard let prctl, getrlimit(core, &limit) == 0 else { return false }
        return prctl(getDumpable, 0, 0, 0, 0) == 0 && limit.rlim_cur == 0
    }
}
