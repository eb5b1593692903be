import Events
import Process
import Text
import Vocabulary

/// The summary as `run` prints it: one JSON object, or lines of text that fit the terminal.
extension RunSummary {
    /// Seconds to the millisecond; null for a time not known.
    private static func seconds(_ value: Double?) -> JSON { value.map { .double(($0 * 1000).rounded() / 1000) } ?? .null }

    public var json: JSON {
        .object([
            ("policy", .string(policy)), ("interrupted", .bool(interrupted)), ("plannedLoads", .int(plannedLoads)),
            ("loads", .int(loads)), ("rendered", .int(rendered)), ("blank", .int(blank)), ("failed", .int(failed)),
            ("lostHidden", .int(lostHidden)),
            ("faults", .object([("delivered", .int(faultsDelivered)), ("spared", .int(faultsSpared))])),
            ("spawns", .int(spawns)), ("spareSpawns", .int(spareSpawns)), ("reuses", .int(reuses)),
            ("viewsOpened", .int(viewsOpened)),
            ("spares", .object([
                ("taken", .int(sparesTaken)), ("starting", .int(sparesStarting)),
                ("none", .object(NoSpareReason.allCases.map { ($0.rawValue, .int(noSpare[$0, default: 0])) })),
            ])),
            ("cache", cache.json),
            ("deaths", .int(deaths)),
            ("deathsByStatus", .object(deathsByStatus.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .int($0.value)) })),
            ("deathsByReason", .object(TerminationReason.allCases.compactMap { reason in
                deathsByReason[reason].map { (reason.rawValue, .int($0)) }
            })),
            ("killsByCause", .object(Self.killers.map { ($0.rawValue, .int(killsByCause[$0, default: 0])) })),
            ("outsideKillsByBand", .object(PriorityBand.allCases.map { ($0.rawValue, .int(outsideKillsByBand[$0, default: 0])) })),
            ("launchErrors", .int(launchErrors)),
            ("recoveries", .object(RecoveryKind.allCases.map { ($0.rawValue, .int(recoveries[$0, default: 0])) })),
            ("loadsWithRecovery", .int(loadsWithRecovery)), ("recoveredLoads", .int(recoveredLoads)),
            ("rbsErrors", .int(rbsErrors)), ("raceKills", .int(raceKills)), ("raceKillsByStage", races.json),
            ("memory", .object([
                ("warnings", .int(memoryWarnings)), ("limitKills", .int(memoryKillLeadsMs.count)),
                ("unwarnedKills", .int(memoryKillLeadsMs.filter { $0 == nil }.count)),
                ("warningLeadMs", Percentiles(memoryKillLeadsMs.compactMap { $0 }).json),
            ])),
            ("clockSeconds", Self.seconds(clockSeconds)), ("simulatedSeconds", Self.seconds(simulatedSeconds)),
            ("suspensions", .int(suspensions)),
            ("suspendedSeconds", .double((suspendedSeconds * 1000).rounded() / 1000)),
            ("hangs", .object([("unresponsive", .int(hangs.found)), ("responsive", .int(hangs.recovered))])),
            ("takenBack", .object([
                ("asked", .int(takenBack.asked)), ("adopted", .int(takenBack.adopted)),
                ("refused", .int(takenBack.refused)),
            ])),
            ("unobservedDeaths", .int(unobservedDeaths)),
            ("deadChannelSends", .int(deadChannelSends)), ("blankMs", .double((blankMs * 1000).rounded() / 1000)),
            ("foregroundWorkerSeconds", .double((foregroundWorkerSeconds * 1000).rounded() / 1000)),
            ("peakWorkerRSSBytes", peakWorkerRSSBytes.map(JSON.int) ?? .null),
            ("timeToVisibleMs", Percentiles(timeToVisibleMs).json),
            ("spawnToHelloMs", Percentiles(spawnToHelloMs).json),
            ("lostInputs", .int(lostInputs)), ("duplicateInputs", .int(duplicateInputs)),
            ("session", session.map { session in
                .object([
                    ("tabs", .int(session.tabs)), ("realized", .int(session.realized)), ("saves", .int(session.saves)),
                    ("decisions", .object(session.decisions.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .int($0.value)) })),
                    ("errorPages", .int(session.errorPages)),
                ])
            } ?? .null),
            ("inputs", audit.map { audit in
                let fields = SupervisorEvent.editor(audit).fields
                let keys = ["typed", "restored", "acknowledged", "saved", "replayed", "deferred", "mismatches", "tornBytesDropped"]
                return .object(keys.compactMap { key in fields.first { $0.0 == key } })
            } ?? .null),
        ])
    }

    /// Who can kill a worker, in the order they are reported.
    package static let killers: [DeathCause] = [.injected, .supervisor, .outside, .unknown]

    /// Peak resident memory in MiB with one decimal (a worker can hold less than one), or nil when unmeasured.
    public var peakWorkerRSSMiB: String? { peakWorkerRSSBytes.map { fixed(Double($0) / 1_048_576, 1) } }

    public var text: String {
        let head = interrupted ? "interrupted after \(grouped(loads)) of \(counted(plannedLoads, "load"))" : counted(loads, "load")
        let failures = (failed > 0 ? ", \(failed) failed (error page)" : "")
            + (lostHidden > 0 ? ", \(lostHidden) lost while hidden (never shown)" : "")
        var lines = ["policy \(policy): \(head), \(rendered) rendered, \(blank) blank\(failures)"]
        if faultsPlanned || faultsDelivered + faultsSpared > 0 {
            lines.append("injected faults: \(faultsDelivered) delivered, \(faultsSpared) spared (their workers were "
                + "protected from the killer)")
        }
        let statuses = deathsByStatus.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        lines.append("workers: \(spawns) launched (\(spareSpawns) as \(spareSpawns == 1 ? "a spare" : "spares")), "
            + "reused \(counted(reuses, "time")); \(deaths) ended" + (statuses.isEmpty ? "" : " (\(statuses))")
            + (launchErrors > 0 ? "; \(counted(launchErrors, "launch")) failed before a process existed" : ""))
        if !deathsByReason.isEmpty {
            lines.append("why they ended: " + TerminationReason.allCases.compactMap { reason in
                deathsByReason[reason].map { "\(reason.rawValue) \($0)" }
            }.joined(separator: ", "))
        }
        lines.append("kills: \(killsByCause[.injected, default: 0]) injected, \(killsByCause[.supervisor, default: 0]) "
            + "by the supervisor, \(killsByCause[.outside, default: 0]) from outside (claimed by Jetsam or chaos), "
            + "\(killsByCause[.unknown, default: 0]) unknown")
        lines.append("recovery attempts: \(recoveries[.reload, default: 0]) reload, \(recoveries[.rebuild, default: 0]) "
            + "rebuild, for \(counted(loadsWithRecovery, "load")); \(recoveredLoads) of them showed the page again")
        let stages = RaceStage.allCases.map { "\(races.cell($0)) \($0.rawValue)" }.joined(separator: ", ")
        lines.append("races: \(counted(raceKills, "kill")) before attach" + (raceKills > 0 ? " (saved/killed: \(stages))" : "")
            + ", \(counted(unobservedDeaths, "unobserved death")), "
            + "\(counted(rbsErrors, "RBS assertion error")), \(counted(deadChannelSends, "dead-channel send"))")
        if memoryWarnings + memoryKillLeadsMs.count > 0 {
            let leads = memoryKillLeadsMs.compactMap { $0 }
            lines.append("memory: \(counted(memoryWarnings, "warning")), \(counted(memoryKillLeadsMs.count, "kill")) over the limit"
                + (leads.isEmpty ? "" : "; warned before the kill: \(Percentiles(leads).text)"))
        }
        if suspensions > 0 {
            lines.append("suspended: \(counted(suspensions, "time")), \(fixed(suspendedSeconds, 3)) worker-seconds stopped")
        }
        if takenBack.asked > 0 {
            let (asked, adopted, refused) = takenBack
            lines.append("taken back from the holder: \(counted(asked, "worker")); \(adopted) adopted without a "
                + "reload, \(refused) refused and killed, \(asked - adopted - refused) died or did not answer")
        }
        if hangs.found > 0 {
            lines.append("hangs: \(counted(hangs.found, "worker")) found unresponsive, \(hangs.recovered) of them "
                + "answered later")
        }
        // Blank time only when there was a blank load: none is the headline's "0 blank".
        lines.append((blank > 0 ? "blank time: \(fixed(blankMs / 1000, 3)) s in \(counted(blank, "blank load")); " : "")
            + "\(fixed(foregroundWorkerSeconds, 3)) worker-seconds protected (foreground or boosted)")
        lines.append("peak RSS of the live workers: "
            + (peakWorkerRSSMiB.map { "\($0) MiB (each as read at its last render)" } ?? "not measured (nothing rendered)"))
        lines.append("time to visible: \(Percentiles(timeToVisibleMs).text)")
        lines.append("spawn to hello: \(Percentiles(spawnToHelloMs).text)")
        if let a = audit {
            lines.append("typed input: \(a.typed) typed (\(a.restored) restored from the journal), "
                + (a.saved.map { "\($0) saved, " } ?? "") + "\(a.replayed) replayed, \(a.lostInputs) lost, \(a.duplicateInputs) applied twice"
                + (a.deferred > 0 ? "; typing waited \(counted(a.deferred, "tick")) for the worker" : ""))
        }
        if let s = session {
            lines.append("tabs: \(s.tabs), \(s.realized) realized, saved \(counted(s.saves, "time")); navigations: "
                + "\(s.decisions[.allow, default: 0]) allowed, \(s.decisions[.cancel, default: 0]) refused, "
                + "\(s.decisions[.openExternally, default: 0]) opened externally; \(counted(s.errorPages, "error page"))")
        }
        return lines.flatMap { wrapped($0, indent: 2) }.joined(separator: "\n")
    }
}
