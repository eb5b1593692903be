import Events
import Text

/// The facts of crash and JetsamEvent reports, by pid, until the timeline of the process they tell of takes them.
/// A report may be read before or after the logs: facts wait here, and each timeline takes those of its pid whose
/// time falls within its life when it is classified. Bounded: past `limit` facts waiting, later ones are counted in
/// `dropped`, which the report tells.
package struct ReportFacts {
    package static let limit = 1 << 16
    /// How long after a process was last seen its report may still be written.
    package static let slack = 600_000_000

    /// A fact, where it was read.
    package struct Entry {
        package var fact: ReportFact
        package var stamp: Stamp

        package var evidence: Evidence { Evidence(stamp: stamp, text: fact.text) }
    }

    private var byPID: [Int32: [Entry]] = [:]
    /// The processes WebContent reports answer to, and their coalitions: how the host app's own report is known.
    package private(set) var hostNames: Set<String> = []
    package private(set) var webContentCoalitions: Set<Int> = []
    package private(set) var count = 0
    package private(set) var dropped = 0

    package mutating func add(_ entry: Entry) {
        guard count < Self.limit else { return dropped += 1 }
        count += 1
        byPID[entry.fact.pid, default: []].append(entry)
        if entry.fact.isWebContent {
            if let host = entry.fact.responsible.name, hostNames.count < Self.limit { hostNames.insert(host) }
            if let coalition = entry.fact.coalition, webContentCoalitions.count < Self.limit {
                webContentCoalitions.insert(coalition)
            }
        }
    }

    /// Removes and returns the WebContent facts about `timeline`'s process: its pid, at a time within its life (or
    /// either has no time).
    package mutating func take(for timeline: Timeline) -> [Entry] {
        guard let entries = byPID[timeline.pid] else { return [] }
        let first = timeline.firstSeen.time
        let last = (timeline.end ?? timeline.lastSeen).time
        var taken: [Entry] = []
        var left: [Entry] = []
        for entry in entries {
            let within = entry.fact.isWebContent && entry.stamp.time.map { time in
                first.map { time >= $0 - Window.burst.micros } != false && last.map { time <= $0 + Self.slack } != false
            } ?? true
            if within { taken.append(entry) } else { left.append(entry) }
        }
        byPID[timeline.pid] = left.isEmpty ? nil : left
        count -= taken.count
        return taken
    }

    /// Whether two reports' times are close enough to tell of one death (either without a time counts as close).
    package static func sameDeath(_ a: Stamp, _ b: Stamp) -> Bool {
        guard let x = a.time, let y = b.time else { return true }
        return abs(x - y) <= slack
    }

    /// The facts waiting, in the order read.
    package var waiting: [Entry] { byPID.values.flatMap { $0 }.sorted { $0.stamp.ordinal < $1.stamp.ordinal } }

    /// Every fact no timeline took, in the order read.
    package mutating func takeRest() -> [Entry] {
        let rest = waiting
        byPID = [:]
        count = 0
        return rest
    }
}

/// What a report says of a process's death, joined to its timeline.
package struct ReportedDeath {
    package let event: ReportFact.Event
    package let stamp: Stamp
    /// A crash report's termination reason, decoded once.
    private let termination: ReportedTermination?

    package init(event: ReportFact.Event, stamp: Stamp) {
        (self.event, self.stamp) = (event, stamp)
        guard case .crashed(_, _, let text?) = event else { termination = nil; return }
        termination = ReportedTermination(text)
    }

    /// `killed by Jetsam (per-process-limit, 2,210 pages = 34.5 MiB)`, `crashed: EXC_BAD_ACCESS (SIGSEGV)`, `killed:
    /// EXC_CRASH (SIGKILL), per its crash report; its termination reason: RUNNINGBOARD 0xdead10cc: held a file or
    /// database lock while suspended`.
    package var words: String {
        switch event {
        case .crashed(let exception, let signal, let termination):
            let what = [exception, signal.map { exception == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            guard isKill else {
                return "crashed: " + (what.isEmpty ? termination ?? "no exception given" : what) + ", per its crash report"
            }
            var text = "killed: " + (what.isEmpty ? "SIGKILL" : what) + ", per its crash report"
            if let termination {
                text += "; its termination reason: " + (self.termination?.words ?? termination)
            }
            return text
        case .jetsamKilled(let reason, let pages, let pageSize):
            var held = ""
            if let pages {
                held = ", \(grouped(pages)) \(pages == 1 ? "page" : "pages")"
                // In floating point: a report's numbers are whatever it says, and may overflow an Int.
                if let pageSize { held += " = \((Double(pages) * Double(pageSize) / 104_857.6).rounded(.down) / 10) MiB" }
            }
            return "killed by Jetsam (\(reason)\(held))"
        }
    }

    package var isJetsam: Bool {
        if case .jetsamKilled = event { return true }
        return false
    }

    /// Killed from outside: by Jetsam, or a crash report of a SIGKILL, which only the system sends a WebContent
    /// process ("EXC_CRASH (SIGKILL): the operating system terminated the process", Apple's
    /// developer.apple.com/documentation/xcode/sigkill). A kill, never a crash.
    package var isKill: Bool {
        switch event {
        case .jetsamKilled: return true
        case .crashed(let exception, let signal, _):
            if [signal, exception].contains(where: { $0.map(Self.namesSIGKILL) == true }) { return true }
            // A fault's own signal (SIGSEGV, SIGABRT) is a crash, whatever else the report says.
            if signal != nil { return false }
            return termination?.isKill == true
        }
    }

    /// WebKit's UI process killed it (the WEBKIT namespace): WebKit's own teardown, neither a crash nor an outside kill.
    package var isWebKitKill: Bool { termination?.isWebKitKill == true }

    /// `SIGKILL`, or older reports' `Termination Signal: Killed: 9`.
    private static func namesSIGKILL(_ text: String) -> Bool {
        let upper = text.uppercased()
        return upper.contains("SIGKILL") || upper.hasPrefix("KILLED")
    }
}
