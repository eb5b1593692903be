import Glibc
import Vocabulary

/// How a worker ended, in the spirit of Chromium's `TerminationStatus`.
public enum TerminationStatus: Equatable, Sendable, CustomStringConvertible {
    case normal
    case abnormal(code: Int32)
    case killed(signal: Int32)
    case crashed(signal: Int32)
    /// The executable could not be started, or the process died before it said hello.
    case launchFailed(reason: String)
    /// The supervisor killed it for sending bytes that are not a valid frame.
    case protocolViolation(reason: String)
    /// The supervisor killed it for not answering a ping in time.
    case unresponsive
    /// Its sandbox killed it (SIGSYS) for a system call the filter forbids: `syscall`, if the worker's trap
    /// handler reported it before it died. Chromium reports a renderer its sandbox killed the same way, apart from
    /// a crash.
    case sandboxViolation(syscall: Int32?)

    /// The status without its details: what the event log, the summaries and the iOS log name.
    public var kind: TerminationKind {
        switch self {
        case .normal: .normal
        case .abnormal: .abnormal
        case .killed: .killed
        case .crashed: .crashed
        case .launchFailed: .launchFailed
        case .protocolViolation: .protocolViolation
        case .unresponsive: .unresponsive
        case .sandboxViolation: .sandboxViolation
        }
    }

    public var description: String {
        switch self {
        case .abnormal(let code): "abnormal(\(code))"
        case .killed(let signal), .crashed(let signal): "\(kind.rawValue)(\(signalName(signal)))"
        case .launchFailed, .protocolViolation, .sandboxViolation: "\(kind.rawValue): \(reason!)"
        default: kind.rawValue
        }
    }

    /// Whether the worker's own content or binary ended it, as a crash loop counts deaths: everything but a kill,
    /// which says nothing about the page when a killer outside (Jetsam, chaos) or an injected fault sent it. A kill
    /// nobody claimed (`DeathCause.unknown`) is counted by the supervisor all the same.
    public var isCrash: Bool {
        if case .killed = self { false } else { true }
    }

    /// What the log's `reason` says beside the name, if anything.
    public var reason: String? {
        switch self {
        case .launchFailed(let reason), .protocolViolation(let reason): reason
        case .sandboxViolation(let syscall?): "the sandbox caught \(systemCallName(syscall))"
        case .sandboxViolation(nil): "the sandbox caught a system call the worker did not report"
        default: nil
        }
    }

    /// The signals taken to be a worker's own fault when they end it.
    public static let crashSignals: Set<Int32> = [SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS]
}

extension TerminationStatus {
    /// Classifies how the process ended. A death the supervisor caused on purpose (`verdict`) wins over the
    /// SIGKILL it took to cause it; a death before hello is a failed launch, unless a SIGKILL from outside caused
    /// it: then the launch worked and the process was killed, as any other. SIGSYS in a sandboxed worker is its
    /// sandbox's doing; `forbidden` is the call the worker reported, if it did.
    package static func classify(
        _ exit: ProcessExit, saidHello: Bool, verdict: TerminationStatus?, sandboxed: Bool, forbidden: Int32?
    ) -> TerminationStatus {
        if let verdict { return verdict }
        let observed: TerminationStatus
        switch exit {
        case .code(let code): observed = code == 0 ? .normal : .abnormal(code: Int32(truncatingIfNeeded: code))
        case .signal(let signal):
            let number = Int32(truncatingIfNeeded: signal)
            if number == SIGSYS && sandboxed {
                observed = .sandboxViolation(syscall: forbidden)
            } else if crashSignals.contains(number) {
                observed = .crashed(signal: number)
            } else {
                observed = .killed(signal: number)
            }
        }
        return saidHello || observed == .killed(signal: SIGKILL) ? observed : .launchFailed(reason: "died before hello: \(observed)")
    }
}
