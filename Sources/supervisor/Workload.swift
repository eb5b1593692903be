import Glibc
import SupervisorKit

/// What `run` and `compare` were asked for: the host's settings, and the names of the files only the CLI opens.
struct Workload {
    var settings: RunConfiguration
    /// Where Jetsam's kills are logged: opened here, before the run, and handed to Jetsam as a descriptor.
    var jetsamLog: String?
}

/// The files a run writes besides its session and journal, opened before it starts (a name that cannot be
/// written fails at once) and placed when it ends (`commit`): new files as they are, replacements of existing
/// files in one step, so that a run that never gets going destroys nothing.
struct RunOutputs {
    let log: OutputFile?
    let iosLog: OutputFile?
    let jetsamLog: OutputFile?

    init(log: String?, iosLog: String?, jetsamLog: String?) throws {
        self.log = try log.map { try OutputFile($0, standardOutputAllowed: true) }
        self.iosLog = try iosLog.map { try OutputFile($0) }
        self.jetsamLog = try jetsamLog.map { try OutputFile($0) }
    }

    func commit() throws {
        for output in [log, iosLog, jetsamLog] { try output?.commit() }
    }
}

/// SIGINT and SIGTERM while a run's event loop owns them: blocked so that its signalfd takes them, and
/// deliverable again (their default action ends the process) everywhere else, so that nothing before or after a
/// run can leave the process deaf to Ctrl-C.
enum TerminationSignals {
    static func block() { mask(SIG_BLOCK) }
    static func unblock() { mask(SIG_UNBLOCK) }

    private static func mask(_ how: Int32) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(how, &signals, nil)
    }
}
