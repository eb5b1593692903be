import Glibc

/// A termination status's name, as the event log writes a death's `status`, a kill's `verdict` and a
/// termination callback's `status`.
public enum TerminationKind: String, Sendable, CaseIterable {
    case normal, abnormal, killed, crashed
    case launchFailed = "launch-failed"
    case protocolViolation = "protocol-violation"
    case unresponsive
    case sandboxViolation = "sandbox-violation"
}

/// How a process ended, as the kernel reports it: an exit with a code, or a signal.
public enum ProcessExit: Equatable, Sendable {
    case code(Int)
    case signal(Int)

    /// How it ended, after the process's name: "exited with status 1", "was killed by signal 9".
    public var wording: String {
        switch self {
        case .code(let code): "exited with status \(code)"
        case .signal(let signal): "was killed by signal \(signal)"
        }
    }
}

/// "SIGKILL" for 9, and so on; the number for signals without a common name.
public func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
        SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS",
    ]
    return names[signal] ?? "signal \(signal)"
}
