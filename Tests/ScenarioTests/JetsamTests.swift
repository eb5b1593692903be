import Foundation
import Glibc
import Testing

@testable import Core
import Events
@testable import Process
@testable import Scenario
@testable import Browser
import Vocabulary
@testable import SupervisorTesting

extension Processes {
    /// Workers/Jetsam, the memory-pressure killer: a separate process that only reads /proc and sends SIGKILL.
    @Suite struct Jetsam {
        static func settings(budgetMegabytes: Int = 256, critical: Bool = false, logFD: Int32? = nil) -> JetsamSettings {
            var settings = JetsamSettings(executable: productsDirectory + "/Jetsam")
            settings.budgetMegabytes = budgetMegabytes
            settings.critical = critical
            settings.logFD = logFD
            return settings
        }

        /// Over budget, the victims go by band (highest oom_score_adj first), then by size; every kill is logged.
        @Test func killsTheLowestPriorityWorkerFirstAndLogsEveryKill() throws {
            let folder = try TemporaryFolder([:])
            let drivers = try (0..<4).map { _ in try WorkerDriver() }
            for driver in drivers { _ = try driver.receive() }
            let (foreground, hidden, small, large) = (drivers[0], drivers[1], drivers[2], drivers[3])
            // Every worker holds more than the 1 MB budget (an idle worker alone holds far less), so the killer
            // takes them all, one after another.
            for (driver, memory) in [(large, "32MB"), (small, "2MB"), (hidden, "2MB"), (foreground, "2MB")] {
                try driver.send(.load(url: "app://local/page.html", replace: false))
                _ = try driver.receive()
                try driver.send(.wholeReply(status: 200, mime: "text/html", body: Array(page("Page", render: "memory=\(memory)").utf8)))
                _ = try driver.receive()
                #expect(try driver.receive() == .didFinish(title: "Page"))
            }
            let bands = PriorityBands()
            #expect(bands.apply(.foreground, to: foreground.worker.pid) == .applied)
            #expect(bands.apply(.hidden, to: hidden.worker.pid) == .applied)
            #expect(bands.apply(.background, to: small.worker.pid) == .applied)
            #expect(bands.apply(.background, to: large.worker.pid) == .applied)

            let log = open(folder.path + "/kills.jsonl", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            defer { close(log) }
            let jetsam = try JetsamProcess(Self.settings(budgetMegabytes: 1, logFD: log))
            let deaths = drivers.map { driver in
                var ready = pollfd(fd: driver.worker.pidfd, events: Int16(POLLIN), revents: 0)
                return poll(&ready, 1, 5000) == 1
            }
            // Jetsam logs each kill after sending it: the last line may follow the last death by a moment.
            let logged = { ((try? String(contentsOfFile: folder.path + "/kills.jsonl", encoding: .utf8)) ?? "").split(separator: "\n").count }
            _ = eventually(within: 5) { logged() == drivers.count }
            jetsam.stop()
            #expect(deaths == [true, true, true, true])
            // Read as the analyzer reads it: every key of every line decodes.
            let kills = try String(contentsOfFile: folder.path + "/kills.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JetsamKill(line: Array($0.utf8)) }
            #expect(kills.map(\.pid) == [large, small, hidden, foreground].map(\.worker.pid))
            #expect(kills.map(\.oomScoreAdj) == [900, 900, 800, 0])
            #expect(kills.map(\.band) == [.background, .background, .hidden, .foreground] && kills.map(\.rank) == [0, 0, 0, 0])
            #expect(kills.allSatisfy { $0.reason == .rssOverBudget && $0.budgetBytes == 1 << 20 })
            #expect(kills[0].rssBytes >= 32 << 20)
            // Each kill was claimed, by pid, before it was sent: the supervisor's only evidence of who killed.
            let claims = KillClaims()
            var pressure: [Bool] = []
            claims.pressure = { pressure.append($0) }
            if let pipe = jetsam.claims.take() { claims.add(pipe) }
            #expect(kills.allSatisfy { claims.take($0.pid) })
            // Memory pressure was reported before the first kill (and its end, once nothing was left over budget).
            #expect(pressure.first == true && pressure.count <= 2, "\(pressure)")
        }

        /// No injection at all: under pressure the killer finds each new worker at background priority before its
        /// view attaches, and the race happens by itself. Always-foreground leaves it nothing to take. Guarded's
        /// spares sit in the background band, so the killer can still take one in the instant it is handed to a
        /// view; that death is observed and the view rebuilt, so every load renders.
        @Test(arguments: [("none", 4 as Int?, 0), ("always-foreground", 0, 4), ("guarded", nil, 4)])
        func underPressureTheRaceHappensByItself(policy: String, raceKills: Int?, rendered: Int) throws {
            let (summary, events) = try simulate({
                $0.policy = Policy.named(policy)!
                $0.loads = 4
                // Long enough that a machine busy with other work still lets the killer find each worker before it
                // attaches: the kill that lands as a view attaches is real, but not what this test counts.
                $0.attachDelayNanoseconds = 200_000_000...200_000_000
                $0.jetsam = Self.settings(critical: true)
            }, content: ContentProvider(pages: [("page.html", page("Page", render: "cpu=30ms"))]))
            #expect(events.named("inject").isEmpty)
            // Jetsam claimed every kill it made.
            #expect(events.named("death").filter { $0.string("status") == "killed" }.allSatisfy { $0.string("cause") == "outside" })
            if let raceKills { #expect(summary.raceKills == raceKills) }
            #expect(summary.unobservedDeaths == (policy == "none" ? 4 : 0))
            #expect(summary.rendered == rendered)
            // Jetsam reported the pressure, and under it nothing was cached.
            #expect(events.named("memory-pressure").first?["critical"] == .bool(true))
            #expect(events.named("cache-add").isEmpty)
            #expect(childProcesses().isEmpty)
        }
    }
}
