import LogAnalysis
import Browser
import Scenario

/// The settings a run starts from: every workload default shown in help is read from here, where the supervisor
/// itself defines it.
let baseConfiguration = RunConfiguration(workerPath: "")

/// Options shared by `run` and `compare`: the workload and the faults it meets. Only two defaults differ between
/// the commands: how many views load at once, and the arrival schedule.
public struct WorkloadOptions: Sendable {
    public let loads = WorkloadField("--loads", .integer(0...10_000_000), \.loads, help: "Loads to perform.")
    public let views: WorkloadField<Int>
    public let arrival: WorkloadField<Int>
    /// At most one fewer than the views, which the command checks once it knows them.
    public let hidden = WorkloadField(
        "--hidden", .integer(0...4095, "<h>"), \.hidden,
        help: "How many of the views are hidden tabs: they load off screen and are shown later.")
    public let hiddenTime = WorkloadField(
        "--hidden-time", .wholeMilliseconds(0...3_600_000), \.hiddenNanoseconds,
        help: "How long a hidden tab stays off screen before it is shown.")
    public let sites = WorkloadField(
        "--sites", .integer(1...1000), \.sites,
        help: "Spread the loads over this many sites (each page at app://siteN.test/, drawn from --seed), so that "
            + "process reuse keyed by site has sites to tell apart.")
    public let content = Option(
        "--content", .path("<dir>"), help: "Serve the .html pages in <dir> instead of the built-in pages.")
    public let seed = WorkloadField(
        "--seed", .seed, \.seed,
        help: "Seed for every random choice: pages, attach delays, faults.")
    public let injectRace = WorkloadField(
        "--inject-race", .rate, \.raceRate,
        help: "Kill this fraction of loads' first workers at background priority after spawn and before attach: "
            + "1/200, 1/20, 1; a protected worker is spared.")
    public let injectKill = WorkloadField(
        "--inject-kill", .rate, \.killRate,
        help: "Kill this fraction of hidden loads' workers after render, while hidden.")
    public let jetsam: Option<JetsamChoice>
    public let attachDelay = WorkloadField(
        "--attach-delay", .millisecondRange(0...3_600_000), \.attachDelayNanoseconds,
        help: "From view creation to attach, as MS or MIN-MAX.")
    public let fetchLatency = WorkloadField(
        "--fetch-latency", .millisecondRange(0...3_600_000), \.fetchLatencyNanoseconds,
        help: "From a worker's fetch of its page to the answer, as MS or MIN-MAX: a page commits and paints after "
            + "its view attaches, as on a device.")
    public let watchdog = Option(
        "--watchdog", .wholeMilliseconds(1...3_600_000), default: "the policy's watchdog period",
        help: "Period of the blank watchdog's title check, for every policy of the run.")
    public let blankTimeout = WorkloadField(
        "--blank-timeout", .wholeMilliseconds(1...3_600_000), \.blankTimeoutNanoseconds,
        help: "A load with no title this long after it was shown is blank.")
    public let dwell = WorkloadField(
        "--dwell", .wholeMilliseconds(0...3_600_000), \.dwellNanoseconds,
        help: "Keep each rendered view on screen this long before closing it.")
    public let worker = workerOption
    public let noSandbox = Flag(
        "--no-sandbox",
        help: "Run workers without their sandbox (a seccomp filter that kills a worker for any system call it does not "
            + "need).")
    public let hangTimeout = WorkloadField(
        "--hang-timeout", .wholeMilliseconds(1...3_600_000), \.hangTimeoutNanoseconds,
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
        self.views = WorkloadField("--views", .integer(1...4096, "<k>"), \.views, default: views, help: "Views loading at once.")
        self.arrival = WorkloadField(
            "--arrival", .milliseconds(0...3_600_000), \.arrivalNanoseconds, default: arrival, note: arrivalNote,
            help: "Start a load every <ms> instead of one per free view, so that a policy's blank views cannot "
                + "lighten everyone else's load.")
        jetsam = Option(
            "--jetsam", .jetsam(logDefault: jetsamLog), optionalValue: true,
            help: "Run the Jetsam memory-pressure killer beside the workers.")
    }

    /// The options that set one field of the run's configuration each, as given or by default.
    public func apply(_ arguments: ParsedOptions, to configuration: inout RunConfiguration) {
        let bound: [any WorkloadBinding] = [
            loads, views, arrival, hidden, hiddenTime, sites, seed, injectRace, injectKill, attachDelay, fetchLatency,
            blankTimeout, dwell, hangTimeout,
        ]
        for field in bound { field.apply(arguments, to: &configuration) }
    }

    /// In the order help lists them.
    public var all: [any OptionHandle] {
        [
            loads, views, arrival, hidden, hiddenTime, sites, content, seed, injectRace, injectKill, jetsam, attachDelay,
            fetchLatency, watchdog, blankTimeout, dwell, worker, noSandbox, hangTimeout, typing, journal, salvageJournal,
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
