import Browser
import Core
import Scenario
import System

/// What `run` and `compare` were asked for: the run's settings, and the names of the files only the CLI opens.
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

    init(log: String?, iosLog: String?, jetsamLog: String?, force: Bool) throws {
        self.log = try log.map { try OutputFile($0, kind: EventLog.outputKind, force: force, standardOutputAllowed: true) }
        self.iosLog = try iosLog.map { try OutputFile($0, kind: IOSConsoleLog.outputKind, force: force) }
        self.jetsamLog = try jetsamLog.map { try OutputFile($0, kind: JetsamSettings.logKind, force: force) }
    }

    func commit() throws {
        for output in [log, iosLog, jetsamLog] { try output?.commit() }
    }
}
