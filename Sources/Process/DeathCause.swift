import CShim
import Glibc

/// Who ended a worker. The supervisor knows every signal it sent, so a kill it did not send came from outside
/// (Jetsam, chaos, an operator): that is what tells the killer's work apart from the faults we inject.
public enum DeathCause: String, CaseIterable, Sendable {
    /// An injected fault's SIGKILL (`--inject-race`, `--inject-kill`).
    case injected
    /// The supervisor ended it: told to shut down, or killed for a hang, a protocol violation, a flood or a
    /// shutdown it did not finish.
    case supervisor
    /// A signal the supervisor did not send.
    case outside
    /// It ended on its own: an exit nobody asked for, or a crash signal (taken to be its own fault).
    case worker

    /// Who sends a signal the supervisor sends.
    package enum Sender: Sendable {
        case injection, supervisor
    }

    /// The cause of a death `waitid` reported as `code` and `status`, given the signal the supervisor last sent the
    /// worker, if any, and whether it told the worker to exit.
    package static func of(code: Int32, status: Int32, sent: (signal: Int32, by: Sender)?, toldToExit: Bool) -> DeathCause {
        guard code != sv_cld_exited() else { return toldToExit ? .supervisor : .worker }
        if let sent, sent.signal == status { return sent.by == .injection ? .injected : .supervisor }
        return TerminationStatus.crashSignals.contains(status) ? .worker : .outside
    }
}
