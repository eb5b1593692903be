import Foundation
import Glibc
import ProcFS
import Testing

@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// The policy's limit on live workers (issue 32, item 2), on real workers under an open loop that asks for more.
    @Suite struct ProcessCountLimit {
        /// WebContent children of this process alive now, from /proc: a zombie is already dead.
        static func aliveWorkers() -> Int {
            ProcFS.children(of: getpid()).filter { $0.state != "Z" && $0.command == "WebContent" }.count
        }

        /// 60 loads arriving every 2 ms into 8 views, 4 of them hidden tabs shown after 500 ms, each on screen 30 ms.
        /// A load is blank only after 10 s.
        static func overload(_ policy: Policy) -> (inout RunConfiguration) -> Void {
            { configuration in
                configuration.loads = 60
                configuration.views = 8
                configuration.hidden = 4
                configuration.hiddenNanoseconds = 500_000_000
                configuration.arrivalNanoseconds = 2_000_000
                configuration.dwellNanoseconds = 30_000_000
                // Views wait their turn for a worker: on a loaded machine, some for more than a second.
                configuration.blankTimeoutNanoseconds = 10_000_000_000
                configuration.policy = policy
            }
        }

        /// Loads arrive every 2 ms into 8 views, 4 of them hidden tabs, under a limit of 4 workers: after every
        /// launch of the run, the WebContent children alive (read from /proc, zombies left out) are at most 4; the limit
        /// was met; only hidden views' workers were ended for it; and every view still came back when shown.
        @Test func liveWorkersNeverPassTheLimitAndNoVisibleViewPays() throws {
            var policy = Policy.rebuild
            policy.maxWorkers = 4
            var most = 0
            var visible: Set<Int> = []
            var endedVisible: [Int] = []
            let (summary, events) = try simulate(Self.overload(policy), content: ContentProvider()) { event in
                // Sampled after each launch, when the count can have grown.
                if ["spawn", "spare"].contains(event.name) { most = max(most, Self.aliveWorkers()) }
                guard let view = event.view else { return }
                switch event.name {
                case "view-open" where event["visible"] == .bool(true), "show": visible.insert(view)
                case "hide", "view-close": visible.remove(view)
                case "process-count-limit" where event.pid != nil && visible.contains(view): endedVisible.append(view)
                default: break
                }
            }
            #expect(most <= 4, "\(most) WebContent processes alive at once")
            #expect(most == 4)
            let limited = events.named("process-count-limit")
            #expect(!limited.isEmpty)
            #expect(endedVisible.isEmpty, "visible views' workers ended: \(endedVisible)")
            // Each worker ended for the limit is named by the event; one already shutting down still exits idle.
            let named = Set(limited.compactMap(\.pid))
            let ended = events.named("death").filter { named.contains($0.pid ?? 0) }
            #expect(ended.count == named.count)
            #expect(ended.allSatisfy {
                ["exceeded-process-count-limit", "idle-exit"].contains($0.string("terminationReason") ?? "")
            })
            #expect(ended.contains { $0.string("terminationReason") == "exceeded-process-count-limit" })
            #expect(summary.loads == 60 && summary.blank == 0 && summary.failed == 0, "\(summary.text)")
        }

        /// The iOS log says what WebKit's `prewarmProcess` says: a spare launched, or not for the limit. With one
        /// worker allowed, the spare guarded launches once a view rendered (on screen 30 ms) is not launched.
        @Test(arguments: [("guarded", "Prewarming a WebProcess for performance"),
                          ("base=guarded,max-workers=1", "Not prewarming a WebProcess due to reaching process count limit")])
        func theIOSLogSaysWhetherASpareWasPrewarmed(policy: String, line: String) throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisorBounded(
                ["run", "--policy", policy, "--loads", "3", "--dwell", "30", "--log", log, "--log-format", "ios"])
            #expect(run.status == 0, "\(run.stderr)")
            let text = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            #expect(text.contains(" - WebProcessPool::prewarmProcess: " + line), "\(text)")
            let analyzed = try runSupervisorBounded(["analyze", log + ".ios.log"])
            #expect(analyzed.status == 0, "\(analyzed.stderr)")
        }

        /// Without a limit (`max-workers=0`) the same run keeps more than 4 alive: the first test can fail.
        @Test func withoutALimitMoreAreAlive() throws {
            var policy = Policy.rebuild
            policy.maxWorkers = 0
            var most = 0
            _ = try simulate(Self.overload(policy), content: ContentProvider()) { event in
                if ["spawn", "spare"].contains(event.name) { most = max(most, Self.aliveWorkers()) }
            }
            #expect(most > 4)
        }
    }
}
