import Foundation
import Glibc
import Testing
import WireProtocol

@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// Real workers that lie, and what the supervisor believes of them: only what it asked for, and only what the
    /// kernel or a killer that owned up can tell.
    @Suite struct UntrustedWorkers {
        static let stolen = "https://evil.example/stolen"

        /// A worker given a tab's history fetches a URL it was never sent to and commits it: it is cut off as a
        /// protocol violation, the URL never enters the tab's history (where it would be saved and restored), and
        /// the tab is rebuilt on a sound worker.
        @Test func aCommitOfAURLTheTabNeverNavigatedToNeverEntersItsHistory() throws {
            let folder = try TemporaryFolder([:])
            let lie = "out(hello); os.read(3, 65536); out(frame(5, text(b'\(Self.stolen)') + b'\\x00')); "
                + "os.read(3, 65536); out(frame(7, text(b'\(Self.stolen)'))); out(frame(8, text(b'Stolen')))"
            let worker = try badWorker(lie, in: folder)
            nonisolated(unsafe) var finished = false
            let (simulation, events) = try runTabs(
                [savedTab(1, [local + "a.html"], visible: true)], content: ContentProvider(pages: [("a.html", page("A"))]),
                configure: { $0.workerPath = worker }
            ) { simulation, _, event in
                if case .finished = event, !finished {
                    finished = true
                    simulation.endBrowsing()
                }
            }
            let violation = try #require(events.named("protocol-violation").first)
            #expect(violation.string("reason")?.contains("which no navigation it was sent was to") == true)
            #expect(events.named("death").first?.string("status") == "protocol-violation")
            #expect(!events.named("commit").contains { $0.string("url") == Self.stolen })
            #expect(simulation.browser.tabs[0].history.entries.map(\.url) == [local + "a.html"])
            #expect(finished && simulation.browser.tabs[0].title == "A")
        }

        /// A session holding a URL this launch's policy refuses (one a lying worker once committed, or one an
        /// earlier `--allow-host` let in): restoring the tab asks the policy about every entry before a worker
        /// sees any, and the refused one becomes the error page standing for it; nothing fetches it.
        @Test func aRestoredEntryThePolicyRefusesBecomesItsErrorPage() throws {
            nonisolated(unsafe) var titles: [String] = []
            let (simulation, events) = try runTabs(
                [savedTab(1, [local + "a.html", Self.stolen], visible: true)],
                content: ContentProvider(pages: [("a.html", page("A"))])
            ) { simulation, tab, event in
                guard case .finished(let title) = event else { return }
                titles.append(title)
                if titles.count == 1 { simulation.browser.goBack(tab) } else { simulation.endBrowsing() }
            }
            #expect(!events.named("fetch").contains { $0.string("url") == Self.stolen })
            let decision = try #require(events.named("navigation-decision").first { $0.string("url") == Self.stolen })
            #expect(decision.string("decision") == "open-externally" && decision.string("type") == "backForward")
            let entries = simulation.browser.tabs[0].history.entries.map(\.url)
            #expect(entries.count == 2 && entries[0] == local + "a.html")
            let errorPage = try #require(WebURL(entries[1]))
            #expect(errorPage.scheme == InternalURL.scheme && errorPage.queryValue("url") == Self.stolen)
            #expect(errorPage.queryValue("code") == "403")
            #expect(titles == ["Cannot open page", "A"])
        }

        /// A page whose worker SIGKILLs itself once rendered, under `guarded`, which rebuilds every death from
        /// outside at once: nobody claimed those kills, so they are `unknown` and count toward the crash loop,
        /// which ends the load after three restarts, not after a flood of spawns.
        @Test func aWorkerThatKillsItselfEndsInACrashLoop() throws {
            let content = ContentProvider(pages: [("suicide.html", page("Suicide", fault: "kill; when=rendered"))])
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.policy.spareWorkers = 0
                // Bounded: without the crash loop, the kills would be rebuilt for ever.
                $0.policy.maxRecoveries = 20
                $0.loads = 1
                // On screen long enough for every death to come while the load lasts.
                $0.dwellNanoseconds = 10_000_000_000
            }, content: content)
            let deaths = events.named("death")
            #expect(deaths.count == 4 && deaths.allSatisfy { $0.int("signal") == 9 && $0.string("cause") == "unknown" })
            #expect(events.named("crash-loop").count == 1)
            #expect(summary.failed == 1 && summary.killsByCause[.unknown] == 4 && summary.killsByCause[.outside] == nil)
        }

        /// The process limit met at a launch (EAGAIN, made here by the fault injection: as root the kernel does not
        /// enforce `ulimit -u`): one warning, and the run goes on to render every load, whenever the refusals fall.
        @Test(arguments: [2, 5])
        func eagainAtSpawnIsSaidOnceAndTheRunGoesOn(after: Int) throws {
            let folder = try TemporaryFolder([:])
            let result = try runSupervisorFailing(
                "spawn:EAGAIN:after=\(after):times=3", ["run", "--loads", "12", "--views", "3", "--json"], folder: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.made == [3])
            let warning = "supervisor: warning: the system refused a new process (ulimit -u, or the kernel's limit); "
                + "going on with fewer workers, each view that needs one waiting for another to end\n"
            #expect(unwrapped(result.stderr) == warning)
            #expect(try runCounts(result.stdout)["rendered"] == "12")
        }
    }
}
