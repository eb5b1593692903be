import Process
import Vocabulary

extension TerminationReason {
    /// Why a worker ended, from how it ended and who ended it. What the supervisor meant by a kill of its own
    /// (`meant`: a hung worker replaced at the app's request, one over its memory limit) comes first. A kill from
    /// outside, or an injected one, stands for the system's memory killer: oom-protected when the worker was
    /// protected from it (`band`), evicted otherwise. A worker told to exit that did exits idle. Anything else
    /// the supervisor ended is a hang or, for a violation or a failed launch, a crash, as WebKit terminates a
    /// process that sends it an invalid message; and what ended on its own, or by a signal nobody claimed, a crash.
    static func of(
        _ status: TerminationStatus, cause: DeathCause, band: PriorityBand?, toldToExit: Bool, meant: TerminationReason?
    ) -> TerminationReason {
        if let meant { return meant }
        switch cause {
        case .injected, .outside: return band?.isProtected == true ? .oomProtected : .evictedForMemory
        case .supervisor:
            if status == .unresponsive { return .unresponsive }
            return toldToExit && status == .normal ? .idleExit : .crash
        case .unknown, .worker: return .crash
        }
    }
}
