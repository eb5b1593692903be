import Scenario
import Text
import Vocabulary

/// The tables of the pools a policy keeps and the limits it holds them to, each printed only when some policy met it:
/// the limits' kills, the process cache's hits and misses, and how each opened view got its worker.
extension Comparison {
    /// The limits' table, when a policy met one: memory warnings, the kills over each limit, and how long before
    /// its memory kill each worker was warned.
    var limits: [String] {
        let kills = { (s: RunSummary, reason: TerminationReason) in s.deathsByReason[reason, default: 0] }
        let limited: [TerminationReason] = [.exceededMemoryLimit, .exceededCPULimit, .exceededProcessCountLimit]
        guard summaries.contains(where: { s in s.memoryWarnings + limited.reduce(0) { $0 + kills(s, $1) } > 0 })
        else { return [] }
        return fittedColumns([["policy", "memory warnings", "memory kills", "warned ms before p50", "CPU kills",
                               "count kills"]]
            + summaries.map { s in
                let leads = Percentiles(s.memoryKillLeadsMs.compactMap { $0 })
                return [s.policy, "\(s.memoryWarnings)", "\(kills(s, .exceededMemoryLimit))",
                        leads.count == 0 ? "-" : fixed(leads.p50, 1), "\(kills(s, .exceededCPULimit))",
                        "\(kills(s, .exceededProcessCountLimit))"]
            }) + [""] + wrapped("memory warnings, memory kills, CPU kills, count kills: workers warned at the policy's "
                + "memory-warning share, then killed over its memory-limit, or over its cpu-limit while hidden, or to "
                + "keep the live workers within its max-workers; warned ms before: how long before its memory kill a "
                + "worker had been warned (median).") + [""]
    }

    /// The spares' table, when a policy keeps spares: how each opened view got its worker, and why none waited.
    var spares: [String] {
        guard summaries.contains(where: { $0.sparesTaken > 0 || $0.noSpare.keys.contains { $0 != .notEnabled } })
        else { return [] }
        let reasons: [(NoSpareReason, String)] = [
            (.notYetCreated, "none yet"), (.takenByPreviousLoad, "taken before"), (.processExited, "exited"),
            (.processLimit, "limit"), (.notEnabled, "off"),
        ]
        return fittedColumns([["policy", "views", "took spare", "not ready"] + reasons.map(\.1)]
            + summaries.map { s in
                [s.policy, "\(s.viewsOpened)", "\(s.sparesTaken)", "\(s.sparesStarting)"]
                    + reasons.map { "\(s.noSpare[$0.0, default: 0])" }
            }) + [""] + wrapped("views: views opened, each load's and each rebuild's; took spare: given a waiting "
                + "spare (not ready: it had not said hello yet). The others by why none waited, as Chromium counts "
                + "them: none yet: none launched yet; taken before: an earlier view took the last, and its "
                + "replacement waits for that view to render; exited: it died waiting; limit: the kernel refused "
                + "its launch; off: the policy keeps none.") + [""]
    }

    /// The killer's table, when one outside the supervisor killed (Jetsam, chaos): its kills by the band their
    /// victim was in, the ranks it reached, the first taken first.
    var killedBands: [String] {
        guard summaries.contains(where: { !$0.outsideKillsByBand.isEmpty }) else { return [] }
        let bands: [(PriorityBand, String)] = [
            (.spare, "spare"), (.cached, "cached"), (.suspended, "suspended"), (.background, "launching"),
            (.hidden, "hidden"), (.boosted, "boosted"), (.foreground, "on screen"),
        ]
        return fittedColumns([["policy"] + bands.map(\.1)]
            + summaries.map { s in [s.policy] + bands.map { "\(s.outsideKillsByBand[$0.0, default: 0])" } })
            + [""] + wrapped("Kills from outside (Jetsam, chaos) by the band their victim was in, in the order a "
                + "killer that takes the highest oom_score_adj first reaches them: spares, cached workers, suspended "
                + "tabs, workers still launching, hidden tabs, then views on screen.") + [""]
    }

    /// The process cache's table, when a policy keeps one: the views that took a cached worker of their site, those
    /// that found none and why, and the workers cached, refused and evicted.
    var cache: [String] {
        guard summaries.contains(where: { $0.cache.used }) else { return [] }
        let misses: [(CacheEviction?, String)] = [
            (nil, "none"), (.expired, "expired"), (.memoryPressure, "pressure"), (.processCountLimit, "limit"),
            (.notResponsive, "hung"), (.processExited, "exited"),
        ]
        return fittedColumns([["policy", "took cached", "hit %"] + misses.map(\.1) + ["cached", "refused", "evicted"]]
            + summaries.map { s in
                let c = s.cache
                let missed = misses.map { "\(c.missed[$0.0, default: 0])" }
                return [s.policy, "\(c.taken)", c.hitRate.map { fixed($0 * 100, 1) } ?? "-"] + missed
                    + ["\(c.added)", "\(c.notCached.values.reduce(0, +))", "\(c.evicted.values.reduce(0, +))"]
            }) + [""] + wrapped("took cached: views given a cached worker of their site (scheme and registrable "
                + "domain), after it answered a ping; hit %: of the views that looked. The others by why none of "
                + "their site waited: none: none was cached since the last was taken (or never); expired: its "
                + "cache-lifetime passed; pressure: memory pressure cleared the cache; limit: a launch at max-workers "
                + "ended it; hung: it did not answer its ping; exited: it died. cached: closed views' workers cached; "
                + "refused: not cached (no capacity, no site, memory pressure, or no answer to the ping before "
                + "caching); evicted: ended while cached (those reasons, and a newer worker of the same site or a "
                + "full cache).") + [""]
    }
}
