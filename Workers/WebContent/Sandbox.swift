import WorkerRuntime

extension Sandbox {
    /// Enters the sandbox (Workers/WorkerRuntime/sandbox.c) before the worker says hello, unless its launcher said
    /// `--no-sandbox`; what became of it goes in the hello. A kernel without seccomp filters leaves the worker
    /// unsandboxed, and says so; any other failure is a broken worker, which exits before its hello.
    static func enter(input: Int32, output: Int32) -> Sandbox {
        if refused() { return .off }
        var report: [UInt8] = []
        FromWorker.sandboxViolation(syscall: 0).encode(into: &report)
        #if $Embedded
        let glibc: Int32 = 0
        #else
        let glibc: Int32 = 1
        #endif
        let result = report.withUnsafeBufferPointer { wr_sandbox($0.baseAddress, $0.count, input, output, glibc) }
        switch result {
        case 0: return .installed
        case -22, -38: return .unavailable  // EINVAL, ENOSYS: no CONFIG_SECCOMP_FILTER
        default: wr_exit(71)
        }
    }

    /// Whether argv[2] is `--no-sandbox`.
    private static func refused() -> Bool {
        #if $Embedded
        wr_sandbox_refused() != 0
        #else
        CommandLine.argc > 2 && wr_is_no_sandbox(CommandLine.unsafeArgv[2]) != 0
        #endif
    }
}

extension Document {
    /// Makes the system call the page asks for at `moment`, if any. Sandboxed, the worker dies of it.
    func attemptForbiddenCall(at moment: Moment) {
        guard let forbidden = forbiddenCall, forbidden.when == moment else { return }
        if let path = forbidden.path {
            _ = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { wr_attempt(forbidden.call, $0.baseAddress) } }
        } else {
            _ = wr_attempt(forbidden.call, nil)
        }
    }
}
