import Replay
import Vocabulary

extension Incident {
    /// What an incident keeps of its process's life for a replay (`replayed(files:)`): its launch, its first raise,
    /// its death as the input tells it or the lines it lies between, its band then, whether it had rendered, and why
    /// it died. The classifier fills it from the timeline; an incident no timeline made (the GPU process's or the
    /// host app's own report, a line that names no pid) has none.
    package struct Moments {
        package var launch: Stamp?
        /// The process's first line in the input: where its launch is looked for when the input does not show it.
        package var firstSeen: Stamp
        /// The first foreground raise, taken or failed: the view attaching.
        package var raise: Stamp?
        /// The death, when a line or a report gives its moment, no later than `gone`.
        package var death: Stamp?
        /// The first line that shows the process gone (a failed raise, WebKit's termination line, its death): the
        /// death is no later.
        package var gone: Stamp
        /// Its last sign of life before `gone`: its own line, an assertion taken, a render, its launch.
        package var alive: Stamp?
        /// Nil when the input does not say.
        package var band: PriorityBand?
        package var rendered: Bool?
        package var cause: ReplayIncident.Cause
        /// The Jetsam reason or the signal, or what was assumed in their place.
        package var why: String
    }
}

extension Incident.Moments {
    /// `end` is the line the classifier found the process gone at.
    init(_ t: Timeline, kind: IncidentKind, end: Stamp) {
        launch = t.launch
        firstSeen = t.firstSeen
        raise = t.raise
        gone = end
        // A report is written after the death, and WebKit's lines come after it too: the earliest moment told wins,
        // unless it is later than the line that found the process gone (a JetsamEvent report's date).
        let told = [t.death?.stamp, t.killed, t.crashed?.stamp, t.reported?.stamp].compactMap { $0 }.min { $0.before($1) }
        death = told.flatMap { $0.later(than: end) ? nil : $0 }
        alive = t.alive.flatMap { $0.later(than: end) ? nil : $0 }
        let at = death ?? end
        if let truth = t.death {
            band = truth.band
        } else if let taken = t.band, !taken.stamp.later(than: at) {
            // iOS logs name the assertions a process holds: foreground, background, or (lower still) suspended.
            band = taken.role == .foreground ? .foreground : taken.role == .suspended ? .suspended : .background
        }
        if let truth = t.death {
            rendered = truth.rendered
        } else if kind == .killedBeforeRender {
            rendered = false
        } else if let render = t.render, !render.later(than: at) {
            rendered = true
        }
        (cause, why) = Self.cause(t, kind: kind, end: end)
    }

    /// Why the process died, from the surest evidence down: our event log, a JetsamEvent report, WebKit's limits,
    /// a hang, a kill or crash line, a crash report; else what its kind says.
    private static func cause(_ t: Timeline, kind: IncidentKind, end: Stamp) -> (ReplayIncident.Cause, String) {
        if let truth = t.death {
            guard let signal = truth.signal else { return (.crash, truth.status.rawValue) }
            return (signal == 9 ? .kill : .crash, signalName(signal))
        }
        if let reported = t.reported, case .jetsamKilled(let reason, _, _) = reported.event { return (.kill, "jetsam: \(reason)") }
        if let limit = t.cause?.limit {
            return (.kill, "over its \(limit) limit: WebKit ended it")
        }
        if let unresponsive = t.unresponsive, !end.before(unresponsive) {
            return (.hang, "unresponsive" + (t.killed != nil ? ", then SIGKILL" : ""))
        }
        if t.killed != nil { return (.kill, "SIGKILL") }
        if let crashed = t.crashed { return (.crash, signalName(crashed.signal)) }
        if let reported = t.reported, case .crashed(let exception, let signal, let termination) = reported.event {
            let named = signal.map { name in exception.map { "\(name) (\($0))" } ?? name } ?? exception
            return (.crash, named ?? termination ?? "its crash report gives no signal")
        }
        let untold = "how it died is not in the input (WebKit logs a kill as a crash)"
        switch kind {
        case .killedBeforeRender, .killedAfterRender, .killed: return (.kill, untold + "; assumed a kill, as its kind says")
        case .crash: return (.crash, "reported as a crash by WebKit")
        default: return (.unknown, untold)
        }
    }

    /// The signals whose numbers Linux and Darwin share, by name.
    private static func signalName(_ signal: Int) -> String {
        let names = [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"]
        return names[signal] ?? "signal \(signal)"
    }
}

extension Stamp {
    /// Whether `self` is surely after `other`: by time when both have one (a second's doubt for lines in whole
    /// seconds), else by order. Lines of one moment are not after each other, whatever order they were written in.
    fileprivate func later(than other: Stamp) -> Bool {
        guard let x = time, let y = other.time else { return other.ordinal < ordinal }
        return x > y + (coarse || other.coarse ? 999_999 : 0)
    }
}
