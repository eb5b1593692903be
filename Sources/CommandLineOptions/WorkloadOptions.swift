import LogAnalysis
import Browser
import Scenario

/// The settings a run starts from: every workload default shown in help is read from here, where the supervisor
/// itself defines it.
let baseConfiguration = RunConfiguration(workerPath: "")

/// Options shared by `run` and `compare`: the workload and the faults it meets. Only two defaults differ between
/// the commands: how many views load at once, and the arrival schedule.
public struct WorkloadOptions: Sendable {
    public let loads = DefaultedOption(
        "--loads", .integer(0...10_000_000), default: baseConfiguration.loads, help: "Loads to perform.")
    public let views: DefaultedOption<Int>
    public let arrival: DefaultedOption<Int>
    /// At most one fewer than the views, which the command checks once it knows them.
    public let hidden = DefaultedOption(
        "--hidden", .integer(0...4095, "<h>"), default: baseConfiguration.hidden,
        help: "How many of the views are hidden tabs: they load off screen and are shown later.")
    public let hiddenTime = DefaultedOption(
        "--hidden-time", .wholeMilliseconds(0...3_600_000), default: baseConfiguration.hiddenNanoseconds,
        help: "How long a hidden tab stays off screen before it is shown.")
    public let content = Option(
        "--content", .path("<dir>"), help: "Serve the .html pages in <dir> instead of the built-in pages.")
    public let seed = DefaultedOption(
        "--seed", .seed, default: baseConfiguration.seed,
        help: "Seed for every random choice: pages, attach delays, faults.")
    public let injectRace = DefaultedOption(
        "--inject-race", .rate, default: baseConfiguration.raceRate,
        help: "Kill this fraction of loads' first workers at background priority after spawn and before attach: "
            + "1/200, 1/20, 1; a protected worker is spared.")
    public let injectKill = DefaultedOption(
        "--inject-kill", .rate, default: baseConfiguration.killRate,
        help: "Kill this fraction of hidden loads' workers after render, while hidden.")
    public let jetsam: Option<JetsamChoice>
    public let attachDelay = DefaultedOption(
        "--attach-delay", .millisecondRange(0...3_600_000), default: baseConfiguration.attachDelayNanoseconds,
        help: "From view creation to attach, as MS or MIN-MAX.")
    public let watchdog = Option(
        "--watchdog", .wholeMilliseconds(1...3_600_000), default: "the policy's watchdog period",
        help: "Period of the blank watchdog's title check, for every policy of the run.")
    public let blankTimeout = DefaultedOption(
        "--blank-timeout", .wholeMilliseconds(1...3_600_000), default: baseConfiguration.blankTimeoutNanoseconds,
        help: "A load with no title this long after it was shown is blank.")
    public let dwell = DefaultedOption(
        "--dwell", .wholeMilliseconds(0...3_600_000), default: baseConfiguration.dwellNanoseconds,
        help: "Keep each rendered view on screen this long before closing it.")
    public let worker = workerOption
    public let noSandbox = Flag(
        "--no-sandbox",
        help: "Run workers without their sandbox (a seccomp filter that kills a worker for any system call it does not "
            + "need).")
    public let hangTimeout = DefaultedOption(
        "--hang-timeout", .wholeMilliseconds(1...3_600_000), default: baseConfiguration.hangTimeoutNanoseconds,
        help: "Kill a worker that owes an answer this long as unresponsive.")
    /// Inputs a second; none means no editor.
    public let typing = DefaultedOption(
        "--typing", .integer(0...10_000), default: 0, note: "no editor",
        help: "Open an editor view for the whole run and type <n> inputs a second into it; inputs are kept until "
            + "the worker acknowledges them.")
    public let journal = Option(
        "--journal", .path(),
        help: "Save acknowledged inputs to <file>, and restore the ones an earlier run saved there; held for the run "
            + "(a second run is refused), and never a file that is not a journal. (needs --typing)")
    public let salvageJournal = Flag(
        "--salvage-journal",
        help: "Open a journal damaged in inputs it had saved by keeping its intact inputs and rewriting it without "
            + "the damage (refused otherwise).")

    init(views: Int, arrival: Int, arrivalNote: String?, jetsamLog: String?) {
        self.views = DefaultedOption("--views", .integer(1...4096, "<k>"), default: views, help: "Views loading at once.")
        self.arrival = DefaultedOption(
            "--arrival", .milliseconds(0...3_600_000), default: arrival, note: arrivalNote,
            help: "Start a load every <ms> instead of one per free view, so that a policy's blank views cannot "
                + "lighten everyone else's load.")
        jetsam = Option(
            "--jetsam", .jetsam(logDefault: jetsamLog), optionalValue: true,
            help: "Run the Jetsam memory-pressure killer beside the workers.")
    }

    /// In the order help lists them.
    public var all: [any OptionHandle] {
        [
            loads, views, arrival, hidden, hiddenTime, content, seed, injectRace, injectKill, jetsam, attachDelay, watchdog,
            blankTimeout, dwell, worker, noSandbox, hangTimeout, typing, journal, salvageJournal,
        ]
    }
}

/// `--worker`, wherever a command starts workers; the command decides what its value names.
public let workerOption = Option(
    "--worker", .path("embedded|portable|<path>"), default: "embedded",
    help: "The worker: embedded (WebContent next to this program, Embedded Swift), portable (WebContentPortable "
        + "next to it, the same sources as ordinary static Swift), or the path of an executable.")

extension ValueKind where Value == ClosedRange<Int> {
    /// Milliseconds as `MS` or `MIN-MAX`, read as a range of nanoseconds.
    static func millisecondRange(_ range: ClosedRange<Double>) -> Self {
        ValueKind(placeholder: "<ms>", read: { name, text throws(UsageError) in
            let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            // `-3` splits into nothing and 3: the message quotes what was typed, never a piece of it.
            let low = try nanoseconds(name, parts[0], range: range, typed: text)
            let high = try parts.count == 2 ? nanoseconds(name, parts[1], range: range, typed: text) : low
            guard low <= high else { throw UsageError("'\(name)' takes MIN-MAX with MIN at most MAX, not '\(text)'") }
            return low...high
        }, show: { range in
            let (low, high) = (plain(Double(range.lowerBound) / 1e6), plain(Double(range.upperBound) / 1e6))
            return low == high ? low : "\(low)-\(high)"
        })
    }
}
