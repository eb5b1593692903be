import CShim
import Glibc
import Vocabulary

extension DeathCause {
    /// Who sends a signal the supervisor sends.
    package enum Sender: Sendable {
        case injection, supervisor
    }

    /// The cause of a death `waitid` reported as `code` and `status`, given the signal the supervisor last sent the
    /// worker, if any, whether it told the worker to exit, and whether a killer outside claimed the kill.
    package static func of(
        code: Int32, status: Int32, sent: (signal: Int32, by: Sender)?, toldToExit: Bool, claimed: Bool
    ) -> DeathCause {
        guard code != sv_cld_exited() else { return toldToExit ? .supervisor : .worker }
        if let sent, sent.signal == status { return sent.by == .injection ? .injected : .supervisor }
        if claimed { return .outside }
        return TerminationStatus.crashSignals.contains(status) ? .worker : .unknown
    }
}
