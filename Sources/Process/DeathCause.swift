import Glibc
import Vocabulary

extension DeathCause {
    /// Who sends a signal the supervisor sends.
    package enum Sender: Sendable {
        case injection, supervisor
    }

    /// The cause of a death that ended as `exit`, given the signal the supervisor last sent the worker, if any,
    /// whether it told the worker to exit, and whether a killer outside claimed the kill.
    package static func of(
        _ exit: ProcessExit, sent: (signal: Int32, by: Sender)?, toldToExit: Bool, claimed: Bool
    ) -> DeathCause {
        guard case .signal(let signal) = exit else { return toldToExit ? .supervisor : .worker }
        if let sent, Int(sent.signal) == signal { return sent.by == .injection ? .injected : .supervisor }
        if claimed { return .outside }
        return TerminationStatus.crashSignals.contains(Int32(truncatingIfNeeded: signal)) ? .worker : .unknown
    }
}
