import Core
import Browser
import Scenario
import Text

/// What `--log-format` writes besides the JSON Lines event log.
public enum RunLogFormat: Sendable, Equatable {
    case jsonl
    /// Also an iOS-style console log, `<log>.ios.log`.
    case ios
}

/// `supervisor run`: its options and help.
public struct RunOptions: Sendable {
    public let policy = DefaultedOption(
        "--policy", .policy, default: baseConfiguration.policy,
        help: "The recovery policy: a built-in's name, fields inline ('base=guarded,spares=0'), or a JSON file of "
            + "them ('@file', or a name ending .json); the fields are in 'supervisor help policies'.")
    public let workload = WorkloadOptions(
        views: baseConfiguration.views, arrival: baseConfiguration.arrivalNanoseconds, arrivalNote: "off",
        jetsamLog: "<log>.jetsam.jsonl with --log, else none")
    public let session = Option(
        "--session", .path(),
        help: "Browse tabs instead: restore the tabs saved in <file> (or make --tabs new ones), show the visible one, "
            + "perform --loads navigations (links, back, forward, reload, tab switches, chosen by --seed), and save "
            + "the tabs to <file> as they change: at most every 50 ms, and at the end, each save appending only the "
            + "tabs that changed, whole or not at all. Only the shown tabs get a worker. A damaged file is restored as "
            + "far as it is intact, with a warning; a file that is not a session, or in use, is an error.")
    public let tabs = DefaultedOption(
        "--tabs", .integer(1...1_000_000), default: baseConfiguration.tabs, help: "Tabs in a new session.")
    public let liveTabs = DefaultedOption(
        "--live-tabs", .integer(0...1_000_000), default: baseConfiguration.liveTabs,
        help: "Give the session's first <n> tabs a worker at the start, besides the shown one, each rendering its "
            + "page off screen, as a browser that restores its recent tabs live. (needs --session)")
    public let allowHost = Option(
        "--allow-host",
        ValueKind<[String]>(placeholder: "<hosts>", read: { _, text in pieces(of: text, at: ",", omittingEmpty: true) },
                            show: { $0.joined(separator: ",") }),
        help: "Hosts (comma-separated, repeatable) whose pages may load in a tab besides the app's own ('local'); "
            + "a link elsewhere opens externally.")
    public let log = Option(
        "--log", .path(),
        help: "Write the event log to <file> as JSON Lines; '-' (or /dev/stdout) for standard output, the summary "
            + "then going to standard error.")
    public let logFormat = DefaultedOption(
        "--log-format", .choice("log format", [("jsonl", RunLogFormat.jsonl), ("ios", .ios)], placeholder: "<format>"),
        default: .jsonl,
        help: "jsonl writes the event log alone; ios also writes the run as an iOS-style console log to "
            + "<file>.ios.log.")
    public let outsideKills = Option(
        "--outside-kills", .path(),
        help: "A file a killer outside the run (scripts/chaos) appends each worker's pid to, one a line, before it "
            + "kills it: such a death is logged with cause 'outside', as Jetsam's kills are. A kill nobody named is "
            + "'unknown' (the worker may have sent it itself) and counts toward a crash loop.")
    public let keepWorkers = Flag(
        "--keep-workers",
        help: "Start the workers through a holder process that keeps them alive for --lease once the supervisor is "
            + "gone, SIGKILLed or not, and then kills every one; with --session, the session's next run takes them "
            + "back and each tab whose saved state its worker matches adopts it, with nothing loaded again. Without "
            + "it they die with the supervisor, as on iOS. Needs Linux 6.15.")
    public let lease = DefaultedOption(
        "--lease", .wholeMilliseconds(KeepWorkersSettings.leaseMilliseconds),
        default: KeepWorkersSettings.defaultLeaseNanoseconds,
        help: "How long the holder keeps the workers once the supervisor is gone. (needs --keep-workers)")
    public let json = Flag("--json", help: "Print the summary as one JSON object.")
    public let force = forceFlag

    public var table: OptionTable {
        OptionTable(
            [policy] + workload.all
                + [session, tabs, liveTabs, allowHost, log, logFormat, outsideKills, keepWorkers, lease, json, force])
    }

    public var help: CommandHelp {
        CommandHelp(
            name: "run", abstract: "Load pages in views backed by real WebContent worker processes.",
            overview: """
                Load pages in views backed by real WebContent worker processes.

                Each load happens in a fresh view with a fresh worker, as an app that opens a web view per page
                does: load, check, repeat. A new worker starts at background priority; its view attaches after a
                short delay, takes the foreground assertion and only then wires its termination observer (for every
                policy but guarded). SIGINT or SIGTERM shuts the workers down (SIGKILL after 500 ms; a second signal
                at once) and prints the summary, which says after how many loads the run was interrupted. Exit
                status: 0, 64 for a usage error, 130 when interrupted, 1 for anything else (a worker binary that
                cannot launch, a limit reached, a write that failed, typed input lost). Files named on the command
                line are checked before anything starts: only regular files are opened, an output is a new file or
                replaces one of its own kind (an earlier run's log; any file with --force) whole when the run ends,
                and no file may play two roles. '--' ends the options.
                """,
            usage: """
                supervisor run [--policy <policy>] [<workload options>] [--session <file> [--tabs <n>]]
                                      [--allow-host <hosts>] [--log <file>] [--log-format ios]
                                      [--outside-kills <file>] [--keep-workers [--lease <ms>]]
                                      [--json] [--force]
                """,
            tables: [("OPTIONS", table)], after: policiesHelp)
    }
}

/// The policies, for `run` and `compare`; the crash-loop limit is the defaults' own.
let policiesHelp: String = {
    let limits = Policy(name: "")
    let crashLoop = "Every policy that recovers stops at a crash loop: more than \(limits.crashRestarts) crashes of a "
        + "load's workers in \(plain(Double(limits.crashWindowNanoseconds) / 1e9)) s (a kill Jetsam or --outside-kills "
        + "claimed, or an injected one, does not count) end it on an error page; restarts in the window back off. "
        + "'supervisor policies' prints each policy as its fields, the form a policy of your own is written in."
    return """
        POLICIES:
          none                    Nothing: no observer reaction, no watchdog.
          reload                  Reload in place on a termination callback or a blank watchdog hit.
          rebuild                 Replace view and worker on a termination callback or a blank watchdog hit.
          always-foreground       Never background a worker; otherwise like reload.
          webkit-default          WebKit without a delegate: reload if visible, else when next shown, at
                                  most once per 30 s; no watchdog.
          guarded                 Observe from spawn, protect from the killer from spawn on, rebuild at once
                                  on any death, reuse closed views' workers as spares.

        """ + wrapped(crashLoop).joined(separator: "\n")
}()
