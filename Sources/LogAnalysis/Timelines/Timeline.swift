import Text
import Vocabulary

/// Where and when a line was: the clock for windows, the order, and the `file:line` a person can open.
public struct Stamp {
    /// Microseconds since 1970 (UTC when the line named its zone); nil for lines with no time (Xcode 15+).
    package var time: Int?
    /// Whole seconds only: windows are widened by a second.
    package var coarse = false
    /// The line gave its day (Console.app copies give only the time of day).
    package var dated = true
    /// Records read before this one, across every file: the order for lines with no time.
    package var ordinal: Int
    package var file: Int
    package var line: Int

    /// Whether `a` and `b` are within `window` of each other: by time when both have one, else by records in the same
    /// file.
    package static func near(_ a: Stamp, _ b: Stamp, _ window: Window) -> Bool {
        if let x = a.time, let y = b.time {
            return abs(x - y) <= window.micros + (a.coarse || b.coarse ? 1_000_000 : 0)
        }
        return a.file == b.file && abs(a.ordinal - b.ordinal) <= window.records
    }

    /// Whether `self` happened before `other`: by time when both have one and differ, else by order.
    package func before(_ other: Stamp) -> Bool {
        if let x = time, let y = other.time, x != y, !(coarse || other.coarse) { return x < y }
        return ordinal < other.ordinal
    }

    /// Microseconds from `self` to `later`, when both have a time.
    public func micros(to later: Stamp) -> Int? {
        guard let x = time, let y = later.time else { return nil }
        return y - x
    }

    /// From `self` to `later` in words, when both have a time: `3.9 ms`, or, when either is in whole seconds, the
    /// range the true gap lies in (each time may be anywhere in its second): `less than 1 s`, `2–4 s`.
    package func gap(to later: Stamp) -> String? {
        // Out of order (two coarse stamps ordered by their records), there is no gap to say.
        guard let micros = micros(to: later), micros >= 0 else { return nil }
        guard coarse || later.coarse else { return duration(micros) }
        let low = max(0, micros - 1_000_000)
        let high = micros + 1_000_000
        func seconds(_ micros: Int) -> String {
            micros % 1_000_000 == 0 ? "\(micros / 1_000_000)" : fixed(Double(micros) / 1e6, 1)
        }
        return low == 0 ? "less than \(seconds(high)) s" : "\(seconds(low))–\(seconds(high)) s"
    }
}

/// How far apart two lines may be and still be about one event: in time, or in records when there is no time.
package struct Window {
    package var micros: Int
    package var records: Int

    /// A paired `[assertion]` line and ProcessAssertion line come from the same thread 0–2 ms apart.
    package static let pairing = Window(micros: 5_000, records: 3)
    /// One burst of lines about one death: the RBS line can come hundreds of ms before WebKit's termination lines.
    package static let burst = Window(micros: 2_000_000, records: 200)
    /// A process counts as new this long after its launch.
    package static let newProcess = Window(micros: 10_000_000, records: 5_000)
}

/// Everything the logs say about one process, from launch to end: one incarnation of a pid. Each kind of evidence
/// keeps its first occurrence, so a timeline has a fixed size however many lines name its pid.
package struct Timeline {
    package struct Failure {
        package var stamp: Stamp
        package var role: AssertionName.Role
        package var process: ProcessKind
        package var error: AssertionError?
    }

    /// A step drawn in a swim lane or told by `--timeline`.
    package struct Mark {
        package var kind: Observation.Kind
        package var role: AssertionName.Role?
        package var stamp: Stamp
    }

    package static let evidenceLimit = 16
    package static let markLimit = 32

    package let pid: Int32
    package var process = ProcessKind.unknown
    package var firstSeen: Stamp
    package var lastSeen: Stamp
    package var launch: Stamp?
    package var launchFailed: Stamp?
    package var render: Stamp?
    package var inUse: Stamp?
    package var teardown: Stamp?
    /// A termination watchdog was asked for: WebKit is tearing the process down.
    package var watchdog: Stamp?
    package var cached: Stamp?
    package var callback: Stamp?
    package var gaveUp: Stamp?
    package var killed: Stamp?
    /// The reason the killer gave (runningboardd's explanation), as written.
    package var killReason: String?
    package var crashed: (stamp: Stamp, signal: Int)?
    package var unresponsive: Stamp?
    package var failures: [Failure] = []
    package var termination: Stamp?
    package var cause: TerminationCause?
    package var causeNumber: Int?
    /// From our event log: the ground truth of the death, with the priority band the worker held then.
    package typealias Death = (
        stamp: Stamp, status: TerminationKind, reason: TerminationReason, signal: Int?, rendered: Bool, hadView: Bool,
        band: PriorityBand?
    )
    package var death: Death?

    /// Why it ended, as WebKit prints it: the reason our own log gave its death (a kill for memory printed as the
    /// crash WebKit takes it for; none for a clean exit, which WebKit logs as a disconnect, with no reason), or the
    /// reason a device's log gave.
    package var ending: TerminationCause? {
        guard let death else { return cause }
        guard death.status != .normal else { return nil }
        return [.oomProtected, .evictedForMemory].contains(death.reason) ? .crash : .named(death.reason)
    }
    package var unobserved = false
    /// A crash or JetsamEvent report's word on the death.
    package var reported: ReportedDeath?
    /// Our event log's view that the process served.
    package var view: Int?
    package var evidence: [Evidence] = []
    package var marks: [Mark] = []
    /// The first foreground raise WebKit tried, taken or not: the view attaching.
    package var raise: Stamp?
    /// The latest line that shows the process alive: its launch, its own lines, an assertion taken, a render.
    package var alive: Stamp?
    /// The latest assertion taken that sets its priority (foreground, background, suspended), and when.
    package var band: (role: AssertionName.Role, stamp: Stamp)?
    /// Where RunningBoard last put it: its role and its jetsam priority, as runningboardd logged them.
    package var runningBoard: RunningBoardStanding?

    package init(pid: Int32, at stamp: Stamp) {
        self.pid = pid
        firstSeen = stamp
        lastSeen = stamp
    }

    /// The first sign of its end.
    package var end: Stamp? { Self.first([endToldByLauncher, endToldByOthers]) }
    /// The first end the launching side (WebKit's UI process, our supervisor) told.
    private var endToldByLauncher: Stamp? { Self.first([termination, death?.stamp, launchFailed]) }
    /// The first end only others told: a kill, a crash, a report.
    private var endToldByOthers: Stamp? { Self.first([killed, crashed?.stamp, reported?.stamp]) }

    private static func first(_ stamps: [Stamp?]) -> Stamp? { stamps.compactMap { $0 }.min { $0.before($1) } }

    /// Whether a launch of this pid told at `stamp` is a new process: one after an end the launching side told is.
    /// An end only others told comes before the UI process notices it, and it may finish the launch meanwhile
    /// (`didConnectToProcess` after the kill): a launch within that end's burst is still this process.
    package func isNewProcess(launchedAt stamp: Stamp) -> Bool {
        func after(_ end: Stamp) -> Bool {
            if let ended = end.time, let now = stamp.time { return now > ended }
            return end.file == stamp.file
        }
        if let told = endToldByLauncher, after(told) { return true }
        guard let other = endToldByOthers else { return false }
        return after(other) && !Stamp.near(other, stamp, .burst)
    }

    /// Joins a report's word on the death: a Jetsam kill or a reported SIGKILL is a kill from outside, like one the log
    /// tells.
    package mutating func add(_ entry: ReportFacts.Entry) {
        lastSeen = entry.stamp.before(lastSeen) ? lastSeen : entry.stamp
        guard reported == nil else {
            if evidence.count < Self.evidenceLimit { evidence.append(entry.evidence) }
            return
        }
        reported = ReportedDeath(event: entry.fact.event, stamp: entry.stamp)
        if process == .unknown, entry.fact.isWebContent { process = .webContent }
        if reported?.isKill == true, killed == nil { killed = entry.stamp }
        if evidence.count < Self.evidenceLimit { evidence.append(entry.evidence) }
        if marks.count < Self.markLimit {
            marks.append(Mark(kind: reported?.isKill == true ? .killed : .crashed, role: nil, stamp: entry.stamp))
        }
    }

    /// `text` is the line as written, asked for only when the observation becomes evidence.
    package mutating func add(_ o: Observation, at stamp: Stamp, text: () -> String) {
        lastSeen = stamp
        if process == .unknown { process = o.process }
        if view == nil { view = o.view }
        var first = false
        func note(_ slot: inout Stamp?) {
            if slot == nil {
                slot = stamp
                first = true
            }
        }
        if o.assertion?.role == .watchdog { note(&watchdog) }
        noteLife(o, at: stamp)
        switch o.kind {
        case .launch: note(&launch)
        case .launchFailed: note(&launchFailed)
        case .render: note(&render)
        case .pageBound: note(&inUse)
        case .assertionTaken where o.assertion?.role == .foreground: note(&inUse)
        case .teardown: note(&teardown)
        case .cached: note(&cached)
        case .reused: cached = nil
        case .callback: note(&callback)
        case .reloadGaveUp: note(&gaveUp)
        case .killed:
            note(&killed)
            if killReason == nil { killReason = o.killReason }
        case .unresponsive: note(&unresponsive)
        case .responsive: unresponsive = nil
        case .unobserved: unobserved = true
        case .role:
            var standing = runningBoard ?? RunningBoardStanding()
            if let role = o.runningBoard?.role { standing.role = role }
            if let priority = o.runningBoard?.jetsamPriority { standing.jetsamPriority = priority }
            runningBoard = standing
        case .assertionError: first = true
        case .crashed:
            if crashed == nil { crashed = (stamp, o.number ?? 0) }
            first = true
        case .assertionFailed:
            if failures.count < 8 {
                failures.append(Failure(
                    stamp: stamp, role: o.assertion?.role ?? .other, process: o.assertion?.process ?? .unknown, error: o.error))
            }
            first = true
        case .terminated:
            if termination == nil {
                termination = stamp
                first = true
            }
            // A number's meaning changed across WebKit versions: a named reason from the same burst wins.
            let named = o.cause != .numeric && o.cause != .unknown
            if cause == nil || cause == .unknown || cause == .numeric && named {
                cause = o.cause ?? .unknown
                causeNumber = o.number
            }
        case .death:
            if death == nil, let truth = o.death {
                death = (stamp, truth.status, truth.reason, o.number, truth.rendered, truth.hadView, truth.band)
                first = true
            }
        default:
            break
        }
        if first, evidence.count < Self.evidenceLimit { evidence.append(Evidence(stamp: stamp, text: text())) }
        if first || o.kind == .assertionTaken, marks.count < Self.markLimit {
            marks.append(Mark(kind: o.kind, role: o.assertion?.role, stamp: stamp))
        }
    }
}

extension Timeline {
    /// Keeps what a replay of the process's death needs: its first raise, its last sign of life, and its band.
    private mutating func noteLife(_ o: Observation, at stamp: Stamp) {
        let later = { (mark: Stamp?) in mark.map { $0.before(stamp) } ?? true }
        switch o.kind {
        case .assertionTaken, .assertionAttempt, .assertionFailed:
            guard let role = o.assertion?.role else { return }
            if role == .foreground, raise.map({ stamp.before($0) }) ?? true { raise = stamp }
            guard o.kind == .assertionTaken else { return }
            if later(alive) { alive = stamp }
            if [.foreground, .background, .suspended].contains(role), later(band?.stamp) { band = (role, stamp) }
        case .suspended:
            if later(band?.stamp) { band = (.suspended, stamp) }
        case .launch, .alive, .render:
            if later(alive) { alive = stamp }
        default:
            break
        }
    }
}
