import Core
import Process
import Vocabulary

/// The fields of a policy, in the order they are printed and listed in help. `base` is not among them: it is
/// where a policy starts, not something it holds.
extension PolicyField {
    public static let all: [PolicyField] = [
        PolicyField(
            "name", .policyName, \.name, takes: "letters, digits and - _ . + (at most 40)",
            help: "What tables, charts and logs call the policy; a built-in's name only for that built-in."),
        PolicyField(
            "observe", .cases("observe"), \.observe,
            help: "When a worker's death is observed: from spawn (its pidfd), or once its view attached, as WebKit "
                + "apps wire their observer; a death before that goes unobserved."),
        PolicyField(
            "launch", .choice("launch", PriorityBand.chosen.map { ($0.rawValue, $0) }), \.launchBand,
            help: "The band of a worker whose view is to be shown and has not attached yet."),
        PolicyField(
            "hidden", .choice("hidden", PriorityBand.chosen.map { ($0.rawValue, $0) }), \.hiddenBand,
            help: "The band of a hidden view's worker."),
        PolicyField(
            "detect", .cases("detect"), \.detect,
            help: "How a dead view is found: the termination callback, the blank watchdog (an empty title), both, or "
                + "neither."),
        PolicyField(
            "delegate", .choice("delegate", [("yes", true), ("no", false)]), \.delegate, json: .flag,
            help: "Whether the app implements the termination callback; without it, every recovery is WebKit's own "
                + "reload."),
        PolicyField(
            "watchdog", .milliseconds(1...3_600_000), \.watchdogNanoseconds, json: .number,
            help: "The blank watchdog's period ('--watchdog' overrides it for a run)."),
        PolicyField(
            "recover", .choice("recover", Policy.Recovery.allCases.map { ($0.rawValue, $0) } + [("none", nil)]),
            \.recover, help: "What a detected death or blank does: reload the view, rebuild view and worker, or nothing."),
        PolicyField(
            "recover-on", .toldReasons, \.recoverOn,
            takes: "all, or reasons joined by '+' from " + spelledList(ToldTerminationReason.allCases.map(\.rawValue), or: true),
            help: "The reasons an app is told (WebKit's five) that its termination callback recovers from; WebKit's own "
                + "reload (delegate=no) follows WebKit's rule instead: a crash, a hang or a limit, never an exit asked for."),
        PolicyField(
            "hidden-recover", .choice("hidden-recover", [("now", false), ("when-shown", true)]), \.recoverWhenVisible,
            help: "When a hidden view whose worker died is recovered: now, or when it is next shown."),
        PolicyField(
            "cooldown", .milliseconds(0...3_600_000), \.recoveryCooldownNanoseconds, json: .number,
            help: "Limit recoveries as WebKit limits its own reloads: one after a crash, none after the next, and "
                + "the count reset once a page has finished loading and this long has passed with no crash; 0: none."),
        PolicyField(
            "suspend", .choice("suspend", [("yes", true), ("no", false)]), \.suspends, json: .flag,
            help: "Whether a hidden view's worker with nothing to do is told to prepare, then stopped (SIGSTOP) in the "
                + "suspended band the killer takes first, and resumed when shown, as WebKit's ProcessThrottler does."),
        PolicyField(
            "suspend-after", .milliseconds(0...3_600_000), \.suspendAfterNanoseconds, json: .number,
            help: "How long a hidden view's worker keeps its band before it is suspended."),
        PolicyField(
            "unresponsive", .unresponsive, \.unresponsive, takes: "kill, wait:<ms> (1 to 3600000), reload or ignore",
            help: "What a worker that owes an answer past the hang timeout meets, once it is logged unresponsive: "
                + "killed; left alone this many milliseconds more, then killed if still silent; killed and its "
                + "view reloaded at once; or left alone, as WebKit leaves a process that has pages (it only tells "
                + "them; webkit-default does this)."),
        PolicyField(
            "memory-limit", .mebibytes(0...1_048_576), \.memoryLimitBytes, json: .number,
            help: "The most resident memory a worker may hold, read from /proc while it lives; past it, it is killed "
                + "for exceeding it (WebKit's ExceededMemoryLimit); 0: no limit."),
        PolicyField(
            "memory-warning", .integer(1...100, "<%>"), \.memoryWarningPercent, json: .number,
            help: "The share of the memory limit at which a worker is warned, once, before it is killed."),
        PolicyField(
            "cpu-limit", .integer(0...10_000, "<%>"), \.cpuLimitPercent, json: .number,
            help: "The most CPU, in percent of one CPU, a hidden view's worker may use on average over the CPU window; "
                + "past it, it is killed for exceeding it (WebKit's ExceededCPULimit); 0: no limit."),
        PolicyField(
            "cpu-window", .milliseconds(1...3_600_000), \.cpuWindowNanoseconds, json: .number,
            help: "The window the CPU limit averages over, begun again whenever the view is shown or hidden."),
        PolicyField(
            "max-recoveries", .countOrUnlimited(0...1_000_000), \.maxRecoveries, json: .number,
            help: "Recoveries of one load before it is given up."),
        PolicyField(
            "crash-restarts", .integer(0...1000), \.crashRestarts, json: .number,
            help: "Crashes of a load's workers (a kill Jetsam or --outside-kills claimed is no crash) restarted within "
                + "the crash window; one more ends the load on an error page."),
        PolicyField(
            "crash-window", .milliseconds(1...3_600_000), \.crashWindowNanoseconds, json: .number,
            help: "The window crashes are counted in."),
        PolicyField(
            "backoff", .milliseconds(0...60_000), \.crashBackoffNanoseconds, json: .number,
            help: "The wait before the second restart in the crash window; the first is at once."),
        PolicyField(
            "backoff-growth", .factor(1...4), \.crashBackoffGrowth, json: .number,
            help: "How many times longer each further restart waits than the one before (growing 8 times at most)."),
        PolicyField(
            "spares", .integer(0...64), \.spareWorkers, json: .number,
            help: "Workers launched ahead, waiting for the next view of any site."),
        PolicyField(
            "reuse", .choice("reuse", [("yes", true), ("no", false)]), \.reuseWorkers, json: .flag,
            help: "A closed view's healthy worker goes to the process cache, for a later view of the same site "
                + "(scheme and registrable domain), as WebKit's WebProcessCache keeps it; it must answer a ping "
                + "before it is cached and again before a view takes it."),
        PolicyField(
            "cache", .integer(0...64), \.cacheCapacity, json: .number,
            help: "The most workers the process cache holds, one per site (WebKit: 4 per GB of memory, at most 10 on "
                + "iOS, none under 2 GB); under memory pressure nothing is cached."),
        PolicyField(
            "cache-lifetime", .milliseconds(1...86_400_000), \.cacheLifetimeNanoseconds, json: .number,
            help: "How long a worker stays cached before it exits idle (WebKit: 30 minutes)."),
        PolicyField(
            "max-workers", .integer(0...1_000_000), \.maxWorkers, json: .number,
            help: "The most workers alive at once, spares included (WebKit's limit is 400); a launch at it ends a "
                + "spare, or else the worker of the hidden view shown least recently (WebKit's "
                + "ExceededProcessCountLimit), never a visible view's: with none, the view waits; 0: no limit."),
    ]
}

extension ValueKind where Value == String {
    /// A policy's name: it is printed in tables and read back inline, so it holds no comma, `;` or `=`.
    static var policyName: Self {
        ValueKind(placeholder: "<name>", read: { name, text throws(UsageError) in
            let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+".contains($0)) }
            guard allowed, (1...40).contains(text.count) else { throw UsageError("'\(name)' takes a name, not '\(text)'") }
            return text
        }, show: { $0 })
    }
}

extension ValueKind where Value == Set<ToldTerminationReason> {
    /// `all`, or reasons joined by `+`: `crash+exceeded-memory-limit`.
    static var toldReasons: Self {
        ValueKind(placeholder: "<reason>+…|all", read: { name, text throws(UsageError) in
            if text == "all" { return Set(ToldTerminationReason.allCases) }
            var reasons: Set<ToldTerminationReason> = []
            for word in text.split(separator: "+", omittingEmptySubsequences: false) {
                guard let reason = ToldTerminationReason(rawValue: String(word)) else {
                    throw UsageError("'\(name)' takes reasons, not '\(text)'")
                }
                reasons.insert(reason)
            }
            return reasons
        }, show: { reasons in
            reasons.count == ToldTerminationReason.allCases.count
                ? "all" : ToldTerminationReason.allCases.filter(reasons.contains).map(\.rawValue).joined(separator: "+")
        })
    }
}

extension ValueKind where Value == Policy.Unresponsive {
    /// `kill`, `wait:<ms>`, `reload` or `ignore`.
    static var unresponsive: Self {
        ValueKind(placeholder: "kill|wait:<ms>|reload|ignore", read: { name, text throws(UsageError) in
            switch text {
            case "kill": return .kill
            case "reload": return .reload
            case "ignore": return .ignore
            default:
                guard text.hasPrefix("wait:") else { throw UsageError("'\(name)' takes kill, wait:<ms>, reload or ignore") }
                let wait = String(text.dropFirst(5))
                return .wait(nanoseconds: try nanoseconds(name, wait, range: 1...3_600_000, typed: text))
            }
        }, show: { choice in
            switch choice {
            case .kill: "kill"
            case .wait(let nanoseconds): "wait:\(plain(Double(nanoseconds) / 1e6))"
            case .reload: "reload"
            case .ignore: "ignore"
            }
        })
    }
}

extension ValueKind where Value == Int {
    /// Whole MiB, read as bytes.
    static func mebibytes(_ range: ClosedRange<Int>) -> Self {
        let whole = integer(range, "<MiB>")
        return ValueKind(placeholder: "<MiB>", accepts: whole.accepts, read: { name, text throws(UsageError) in
            try whole.read(name, text) << 20
        }, show: { String($0 >> 20) })
    }

    /// A count, or `unlimited` (`Int.max`).
    static func countOrUnlimited(_ range: ClosedRange<Int>) -> Self {
        let count = integer(range)
        return ValueKind(placeholder: "<n>|unlimited", accepts: count.accepts, read: { name, text throws(UsageError) in
            text == "unlimited" ? .max : try count.read(name, text)
        }, show: { $0 == .max ? "unlimited" : count.show($0) })
    }
}

extension ValueKind where Value == Double {
    /// A factor such as `2` or `1.5`.
    static func factor(_ range: ClosedRange<Double>) -> Self {
        ValueKind(placeholder: "<factor>", accepts: "\(plain(range.lowerBound))-\(plain(range.upperBound))", read: {
            name, text throws(UsageError) in
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw UsageError("'\(name)' takes a factor from \(plain(range.lowerBound)) to \(plain(range.upperBound)), not '\(text)'")
            }
            return value
        }, show: { plain($0) })
    }
}
