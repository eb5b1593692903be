import CShim
import Events
import Glibc
import Process
import System
import Vocabulary

/// How to run the Jetsam memory-pressure killer beside a run.
public struct JetsamSettings: Sendable {
    public var executable: String
    public var budgetMegabytes = 256
    public var intervalMilliseconds = 2.0
    /// Kill the lowest-priority background worker every interval, whatever the total RSS.
    public var critical = false
    /// Where Jetsam writes its JSON lines, one per kill: a descriptor open for writing, which the caller owns
    /// (and made safely: `OutputFile`), so that Jetsam never opens, and never empties, a file by name.
    public var logFD: Int32?

    public init(executable: String) { self.executable = executable }

    /// What Jetsam's log holds: one JSON line per kill (Workers/Jetsam), empty until the first.
    public static let logKind = OutputKind(role: "Jetsam's log", name: "a Jetsam log", isLog: true) { head in
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.hasPrefix(#"{"time":"#) && line.contains(#""event":"jetsam-kill""#)
    }

    /// The bounds Jetsam enforces (Workers/Jetsam): checked before a run, so that Jetsam never refuses to start.
    public static let maxBudgetMegabytes = Int(SV_JETSAM_MAX_BUDGET_MB)
    public static let intervalMilliseconds = SV_JETSAM_MIN_INTERVAL_MS...SV_JETSAM_MAX_INTERVAL_MS
}

/// The running Jetsam process. It is the OS in this model: the supervisor starts and stops it, and its kills
/// arrive like any other death, through the workers' pidfds. All it says is which worker it is about to kill, on a
/// pipe (`claims`), since nothing else could tell its kills from a worker's own SIGKILL.
package final class JetsamProcess {
    /// Jetsam until it is reaped; nil after.
    private var child: ChildProcess?
    /// Readable when Jetsam exits, which it never does on its own while the run lasts: the run watches it.
    package let pidfd: Int32
    /// The read end of the pipe Jetsam names its victims on, one pid a line (non-blocking), until it is taken.
    package var claims: FileDescriptor?

    /// Jetsam for the workers that are `workersOf`'s children: this process's, or its holder's.
    package init(_ settings: JetsamSettings, workersOf: Int32 = getpid()) throws(SystemError) {
        // Every descriptor handed over must sit above the ones it is mapped onto (0, 1, 3, 4).
        let null = try SpawnRecipe.aboveChannel(try Sys.open("/dev/null", O_RDWR))
        // Its standard output: the log it is given, or nowhere.
        let output = try Sys.duplicate(settings.logFD ?? null.rawValue, above: SV_CHANNEL_OUT_FD + 1)
        let pipe = try Sys.pipe()
        let claims = pipe.read
        let claimed = try SpawnRecipe.aboveChannel(pipe.write)
        try Sys.setNonBlocking(claims.rawValue)
        var arguments = [
            "--supervisor", "\(getpid())", "--workers-of", "\(workersOf)", "--budget-mb", "\(settings.budgetMegabytes)",
            "--interval-ms", "\(settings.intervalMilliseconds)", "--pressure", settings.critical ? "critical" : "normal",
            "--claims-fd", "\(SV_CHANNEL_IN_FD)",
        ]
        if settings.logFD != nil { arguments += ["--log-fd", "\(SV_CHANNEL_OUT_FD)"] }
        let program = SpawnProgram(
            settings.executable, arguments: arguments, environment: [SpawnRecipe.environment])
        // The claims' write end goes where a worker's input would, on fd 3; its standard error is ours.
        let child = try Sys.spawn(program, SpawnRecipe.worker(input: claimed.rawValue, output: output.rawValue, null: null.rawValue), ownGroup: true)
        pidfd = child.descriptor
        self.child = consume child
        self.claims = consume claims
    }

    /// Reaps Jetsam after its pidfd turned readable, and says how it ended.
    package func exited() -> String {
        guard let exit = try? child?.reap() else { return "Jetsam exited" }
        child = nil
        return "Jetsam \(exit.wording)"
    }

    /// Kills and reaps it; SIGKILL makes the wait short and certain.
    package func stop() {
        try? child?.signal(SIGKILL)
        if (try? child?.reap()) != nil { child = nil }
    }
}
