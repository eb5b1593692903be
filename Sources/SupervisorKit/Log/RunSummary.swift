/// What a run amounted to, computed only from its events.
public final class RunSummary {
    public let policy: String
    public private(set) var loads = 0
    public private(set) var rendered = 0
    public private(set) var blank = 0
    /// Loads that ended on an error page: a failed navigation, or a crash loop.
    public private(set) var failed = 0
    public private(set) var spawns = 0
    /// Views given a worker that had served an earlier view.
    public private(set) var reuses = 0
    public private(set) var deaths = 0
    public private(set) var deathsByStatus: [String: Int] = [:]
    public private(set) var recoveries: [String: Int] = [:]
    public private(set) var rbsErrors = 0
    /// Workers killed after spawn and before their view attached: the kill-before-render race.
    public private(set) var raceKills = 0
    /// Deaths nobody was told about, because the observer was not wired yet.
    public private(set) var unobservedDeaths = 0
    public private(set) var deadChannelSends = 0
    /// Milliseconds users looked at a blank view, summed over loads.
    public private(set) var blankMs = 0.0
    /// Worker-seconds spent protected from the killer (foreground or boosted band): the memory cost of keeping
    /// workers important.
    public private(set) var foregroundWorkerSeconds = 0.0
    public private(set) var peakWorkerRSSBytes = 0
    private var foregroundSince: [Int32: Int] = [:]
    /// One sample per load; infinite for a blank load.
    public private(set) var timeToVisibleMs: [Double] = []
    public private(set) var spawnToHelloMs: [Double] = []
    /// True when the run was cut short by SIGINT or SIGTERM.
    public private(set) var interrupted = false
    /// The loads the run was asked for.
    public private(set) var plannedLoads = 0
    /// The editor's audit at the end of the run, when there was an editor.
    public private(set) var editor: Event?
    public var lostInputs: Int { editor?["lostInputs"]?.integer ?? 0 }
    /// For a run that browsed a session: its tabs, how many got a worker, how often they were saved, what the
    /// navigation policy decided and how many error pages stood in for failed navigations.
    public private(set) var session: (tabs: Int, realized: Int, saves: Int, decisions: [String: Int], errorPages: Int)?
    public var duplicateInputs: Int { editor?["duplicateInputs"]?.integer ?? 0 }

    public init(policy: String) {
        self.policy = policy
    }

    public func record(_ event: Event) {
        switch event.name {
        case "run-begin":
            plannedLoads = event["loads"]?.integer ?? 0
            if let tabs = event["tabs"]?.integer { session = (tabs, 0, 0, [:], 0) }
        case "editor":
            editor = event
        case "tab-realized":
            session?.realized += 1
        case "session-saved":
            session?.saves += 1
        case "navigation-decision":
            if case .string(let decision)? = event["decision"] { session?.decisions[decision, default: 0] += 1 }
        case "error-page":
            session?.errorPages += 1
        case "run-end":
            interrupted = event["interrupted"] == .bool(true)
            for pid in foregroundSince.keys { leaveForeground(pid, at: event.monotonic) }
        case "unobserved":
            unobservedDeaths += 1
        case "dead-channel-send":
            deadChannelSends += 1
        case "render":
            if case .int(let bytes)? = event["workersRSSBytes"] { peakWorkerRSSBytes = Swift.max(peakWorkerRSSBytes, bytes) }
        case "spawn":
            if event["reused"] == .bool(true) { reuses += 1 } else { spawns += 1 }
        case "hello":
            if case .double(let ms)? = event["spawnToHelloMs"] { spawnToHelloMs.append(ms) }
        case "death":
            deaths += 1
            if case .string(let status)? = event["status"] {
                deathsByStatus[status, default: 0] += 1
                // Killed in the window between spawn and attach, whether or not the page had painted off screen:
                // the user never saw it.
                if event["signal"] == .int(9), event["attached"] == .bool(false), event["spare"] == .bool(false),
                    event.view != nil, event["shutdown"] == nil
                {
                    raceKills += 1
                }
            }
            if let pid = event.pid { leaveForeground(pid, at: event.monotonic) }
        case "recovery":
            if case .string(let kind)? = event["kind"] { recoveries[kind, default: 0] += 1 }
        case "priority":
            if event["rbs"] != nil { rbsErrors += 1 }
            guard let pid = event.pid, event["result"] == .string("ok") else { break }
            if event["band"] == .string("foreground") || event["band"] == .string("boosted") {
                if foregroundSince[pid] == nil { foregroundSince[pid] = event.monotonic }
            } else {
                leaveForeground(pid, at: event.monotonic)
            }
        case "load-end":
            loads += 1
            if case .double(let ms)? = event["blankMs"] { blankMs += ms }
            if case .double(let ms)? = event["timeToVisibleMs"] {
                rendered += 1
                timeToVisibleMs.append(ms)
            } else {
                if event["outcome"] == .string("failed") { failed += 1 } else { blank += 1 }
                // Never visible: a blank load is the slowest load there is, not a load left out.
                timeToVisibleMs.append(.infinity)
            }
        default:
            break
        }
    }

    private func leaveForeground(_ pid: Int32, at time: Int) {
        guard let since = foregroundSince.removeValue(forKey: pid) else { return }
        foregroundWorkerSeconds += Double(time - since) / 1e9
    }

    public var json: JSON {
        .object([
            ("policy", .string(policy)), ("interrupted", .bool(interrupted)), ("loads", .int(loads)), ("rendered", .int(rendered)), ("blank", .int(blank)),
            ("failed", .int(failed)), ("spawns", .int(spawns)), ("reuses", .int(reuses)), ("deaths", .int(deaths)),
            ("deathsByStatus", .object(deathsByStatus.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("recoveries", .object(["reload", "rebuild"].map { ($0, .int(recoveries[$0, default: 0])) })),
            ("rbsErrors", .int(rbsErrors)), ("raceKills", .int(raceKills)), ("unobservedDeaths", .int(unobservedDeaths)),
            ("deadChannelSends", .int(deadChannelSends)), ("blankMs", .double((blankMs * 1000).rounded() / 1000)),
            ("foregroundWorkerSeconds", .double((foregroundWorkerSeconds * 1000).rounded() / 1000)),
            ("peakWorkerRSSBytes", .int(peakWorkerRSSBytes)),
            ("timeToVisibleMs", Percentiles(timeToVisibleMs).json),
            ("spawnToHelloMs", Percentiles(spawnToHelloMs).json),
            ("lostInputs", .int(lostInputs)), ("duplicateInputs", .int(duplicateInputs)),
            ("session", session.map { session in
                .object([
                    ("tabs", .int(session.tabs)), ("realized", .int(session.realized)), ("saves", .int(session.saves)),
                    ("decisions", .object(session.decisions.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                    ("errorPages", .int(session.errorPages)),
                ])
            } ?? .null),
            ("inputs", editor.map { editor in
                .object(["typed", "restored", "acknowledged", "saved", "replayed", "mismatches", "tornBytesDropped"].map {
                    ($0, editor[$0] ?? .null)
                })
            } ?? .null),
        ])
    }

    public var text: String {
        let statuses = deathsByStatus.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let head = interrupted ? "interrupted after \(loads) of \(plannedLoads) loads" : "\(loads) loads"
        let failures = failed > 0 ? ", \(failed) failed (error page)" : ""
        let blankTime = blank > 0 ? "blank time: \(fmt(blankMs, digits: 1)) ms in all; " : ""
        let inputs = editor.map { e in
            "\ntyped input: \(e["typed"]?.integer ?? 0) typed (\(e["restored"]?.integer ?? 0) restored from the journal), "
                + (e["saved"]?.integer.map { "\($0) saved, " } ?? "")
                + "\(e["replayed"]?.integer ?? 0) replayed, \(lostInputs) lost, "
                + "\(duplicateInputs) applied twice"
        } ?? ""
        let tabs = session.map { s in
            "\ntabs: \(s.tabs), \(s.realized) realized, saved \(s.saves) times; navigations: "
                + "\(s.decisions["allow", default: 0]) allowed, \(s.decisions["cancel", default: 0]) refused, "
                + "\(s.decisions["open-externally", default: 0]) opened externally; \(s.errorPages) error pages"
        } ?? ""
        return """
            policy \(policy): \(head), \(rendered) rendered, \(blank) blank\(failures)
            workers: \(spawns) spawned, \(reuses) reused, \(deaths) died\(statuses.isEmpty ? "" : " (\(statuses))")
            recoveries: \(recoveries["reload", default: 0]) reload, \(recoveries["rebuild", default: 0]) rebuild
            races: \(raceKills) kills before attach, \(unobservedDeaths) unobserved deaths, \(rbsErrors) RBS assertion \
            errors, \(deadChannelSends) sends into dead channels
            \(blankTime)foreground worker-seconds \(fmt(foregroundWorkerSeconds)); \
            peak worker RSS \(peakWorkerRSSBytes >> 20) MiB
            time to visible: \(Percentiles(timeToVisibleMs).text)
            spawn to hello:  \(Percentiles(spawnToHelloMs).text)\(inputs)\(tabs)
            """
    }
}

/// Nearest-rank percentiles of a sample, in milliseconds.
public struct Percentiles {
    public let p50, p95, p99, max: Double
    public let count: Int

    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted.last ?? 0
        count = sorted.count
    }

    /// Each percentile as a number, or null when there were no samples: no figure, rather than a made-up 0.
    public var json: JSON {
        .object([("p50", p50), ("p95", p95), ("p99", p99), ("max", max)].map { ($0.0, count == 0 ? .null : .double($0.1)) })
    }

    public var text: String {
        count == 0 ? "no samples" : "p50 \(fmt(p50)) ms, p95 \(fmt(p95)) ms, p99 \(fmt(p99)) ms, max \(fmt(max)) ms"
    }
}

func fmt(_ value: Double, digits: Int = 3) -> String {
    guard value.isFinite else { return "∞" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return String((value * scale).rounded() / scale)
}
