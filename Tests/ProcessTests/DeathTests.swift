import Glibc
import Testing

@testable import Core
@testable import Browser
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// Every way a worker can end is seen through its pidfd and named correctly.
    @Suite struct Death {
        @Test(arguments: [Policy.rebuild, .reload])
        func aSIGKILLedWorkerIsClassifiedKilledAndItsViewComesBackRendered(policy: Policy) throws {
            let content = try TemporaryFolder(["slow.html": page("Slow", render: "cpu=300ms")])
            var killed: Int32?
            var committed: Set<Int32> = []
            var onScreen: Set<Int32> = []
            // Killed mid-render once its view is in the window: the termination observer is wired by then.
            let (summary, events) = try simulate({ $0.policy = policy; $0.loads = 1 }, content: try content.provider) { event in
                guard let pid = event.pid, killed == nil else { return }
                if event.name == "commit" { committed.insert(pid) }
                if event.name == "priority", event.string("band") == "foreground" { onScreen.insert(pid) }
                if committed.contains(pid) && onScreen.contains(pid) {
                    killed = pid
                    killFromOutside(pid)
                }
            }
            let death = try #require(events.named("death").first { $0.pid == killed })
            #expect(death.string("status") == "killed")
            #expect(death.int("signal") == 9)
            #expect(death["rendered"] == .bool(false))
            #expect(summary.rendered == 1 && summary.blank == 0)
            #expect(summary.recoveries[policy.recover!] == 1)
            let views = Set(events.named("render").compactMap(\.view))
            let killedView = try #require(death.view)
            // Reload keeps the view and gives it a new process; rebuild replaces the view itself.
            #expect(views == (policy.recover == .reload ? [killedView] : [killedView + 1]))
        }

        @Test func aWorkerKilledAfterRenderWhileOnScreenIsRenderedAgain() throws {
            let content = try TemporaryFolder(["page.html": page("Page")])
            var killed: Int32?
            let (summary, events) = try simulate({ $0.loads = 1; $0.dwellNanoseconds = 300_000_000 }, content: try content.provider) {
                event in
                if event.name == "visible", killed == nil, let pid = event.pid {
                    killed = pid
                    killFromOutside(pid)
                }
            }
            #expect(events.named("death").first { $0.pid == killed }?["rendered"] == .bool(true))
            #expect(events.named("render").count == 2)
            #expect(events.named("visible").map { $0["first"] } == [.bool(true), .bool(false)])
            #expect(summary.rendered == 1)
        }

        @Test(arguments: [
            ("segv", "crashed", SIGSEGV), ("abort", "crashed", SIGABRT), ("exit=3", "abnormal", 3),
            ("segv; when=rendered", "crashed", SIGSEGV),
        ] as [(String, String, Int32)])
        func aFaultingDocumentIsClassified(fault: String, status: String, number: Int32) throws {
            let content = try TemporaryFolder(["fault.html": page("Fault", fault: fault)])
            // Nothing recovers the view, so the run ends when it is judged blank: soon, since only the death counts.
            let (summary, events) = try simulate({
                $0.loads = 1
                $0.policy.maxRecoveries = 0
                $0.blankTimeoutNanoseconds = 300_000_000
            }, content: try content.provider)
            let death = try #require(events.named("death").first)
            #expect(death.string("status") == status)
            #expect(death.int(status == "abnormal" ? "code" : "signal") == Int(number))
            #expect(death["rendered"] == .bool(fault.contains("rendered")))
            #expect(summary.deaths == 1)
        }

        @Test func aMissingWorkerBinaryIsALaunchFailureWithAClearMessage() throws {
            let (summary, events) = try simulate({ $0.workerPath = "/nonexistent/WebContent"; $0.loads = 1 }, content: ContentProvider())
            let death = try #require(events.named("death").first)
            #expect(death.string("status") == "launch-failed")
            #expect(death.string("reason") == "cannot launch worker '/nonexistent/WebContent': No such file or directory")
            #expect(summary.spawns == 0 && summary.rendered == 0)
            // Two failed launches before any hello: the binary is broken, and the run stops.
            #expect(events.named("abort").first?.string("reason") == "worker '/nonexistent/WebContent' failed to launch 2 times in a row: cannot launch worker '/nonexistent/WebContent': No such file or directory")
        }

        @Test func aWorkerThatExitsBeforeHelloIsALaunchFailure() throws {
            let (_, events) = try simulate({
                $0.workerPath = "/bin/true"
                $0.loads = 1
                $0.policy.maxRecoveries = 0
                $0.blankTimeoutNanoseconds = 300_000_000
            }, content: ContentProvider())
            let death = try #require(events.named("death").first)
            #expect(death.string("status") == "launch-failed")
            #expect(death.string("reason") == "died before hello: normal")
        }

        /// A busy page still answers pings between render steps; a hung one does not, and is killed for it.
        @Test(arguments: [("memory=64MB; cpu=400ms", nil, "normal"), ("", "hang", "unresponsive")] as [(String, String?, String)])
        func pingsTellABusyWorkerFromAHungOne(render: String, fault: String?, status: String) throws {
            let content = try TemporaryFolder(["page.html": page("Page", render: render, fault: fault)])
            let (summary, events) = try simulate({
                $0.loads = 1
                $0.policy.maxRecoveries = 0
                $0.pingIntervalNanoseconds = 50_000_000
            }, content: try content.provider)
            #expect(events.named("death").map { $0.string("status") } == [status])
            #expect(summary.rendered == (status == "normal" ? 1 : 0))
        }

        @Test(arguments: ["malformed-frame", "oversized-frame"])
        func aWorkerSendingABadFrameIsKilledAndOtherViewsKeepRendering(fault: String) throws {
            let content = try TemporaryFolder([
                "bad.html": page("Bad", fault: fault), "good.html": page("Good", render: "cpu=5ms"),
            ])
            let (summary, events) = try simulate({
                $0.loads = 12
                $0.views = 3
                $0.seed = 7
                $0.policy.maxRecoveries = 0
                // A bad load ends blank once this passes; a good one renders in milliseconds.
                $0.blankTimeoutNanoseconds = 400_000_000
            }, content: try content.provider)
            let urls = events.named("load-begin").compactMap { $0.string("url") }
            let bad = urls.filter { $0.hasSuffix("bad.html") }.count
            try #require(bad > 0 && bad < urls.count)
            #expect(events.named("death").filter { $0.string("status") == "protocol-violation" }.count == bad)
            #expect(summary.blank == bad)
            #expect(summary.rendered == urls.count - bad)
        }
    }
}

extension Processes {
    /// Issue 18's defect: the iOS log's `didBecomeUnresponsive` line looked for a kill reason that was renamed, and
    /// was never written. The kill event now carries its verdict, which the iOS log reads.
    @Suite struct UnresponsiveInTheIOSLog {
        @Test func aHungWorkerIsToldUnresponsiveInTheIOSLog() throws {
            let content = try TemporaryFolder(["page.html": page("Page", fault: "hang")])
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisor([
                "run", "--loads", "1", "--content", content.path, "--hang-timeout", "300", "--blank-timeout", "1000",
                "--log", log, "--log-format", "ios",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let events = try String(contentsOfFile: log, encoding: .utf8)
            #expect(events.contains(#""event":"kill""#) && events.contains(#""verdict":"unresponsive""#))
            let ios = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            #expect(ios.contains("WebProcessProxy::didBecomeUnresponsive:"), "\(ios.suffix(2000))")
            #expect(childProcesses().isEmpty)
        }
    }
}
