import Foundation
import Glibc
import ProcFS
import Testing

@testable import Core
@testable import Events
@testable import Scenario
@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// Suspension on real workers, read from /proc. Issue 31's must-show is 100 hidden tabs for 60 s
    /// (`SUPERVISOR_SUSPENSION_TABS=100 SUPERVISOR_SUSPENSION_SECONDS=60`); the suite runs 16 for 2 s.
    @Suite struct SuspensionOnRealWorkers {
        static func setting(_ name: String, _ fallback: Int) -> Int {
            ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
        }

        /// Every suspended worker is stopped (state T) and spends no CPU tick until its tab is shown; each goes on
        /// within 5 ms of the show; none is found unresponsive.
        @Test(.runningLimit(.seconds(180))) func hiddenTabsAreStoppedUntilShown() throws {
            let tabs = Self.setting("SUPERVISOR_SUSPENSION_TABS", 16)
            let seconds = Self.setting("SUPERVISOR_SUSPENSION_SECONDS", 2)
            var stopped: [Int32: UInt64] = [:]
            var checked = 0
            var notStopped: [Int32] = []
            var spent: [Int32: UInt64] = [:]
            var shownAt: [Int32: Int] = [:]
            var lagsMs: [Double] = []
            var suspendedAt: [Int32: Int] = [:]
            var stoppedNanoseconds = 0
            let (summary, events) = try simulate({
                $0.policy = .rebuild
                $0.policy.suspends = true
                $0.loads = tabs
                $0.views = tabs
                $0.hidden = tabs
                $0.hiddenNanoseconds = seconds * 1_000_000_000
            }, content: ContentProvider()) { event in
                guard let pid = event.pid else { return }
                switch event.name {
                case "suspended":
                    stopped[pid] = ProcFS.stat(.pid(pid))?.cpuTicks
                    suspendedAt[pid] = event.monotonic
                case "show" where stopped[pid] != nil:
                    // Read before the supervisor lets it go on.
                    let stat = ProcFS.stat(.pid(pid))
                    checked += 1
                    if stat?.state != "T" { notStopped.append(pid) }
                    if let ticks = stat?.cpuTicks, let before = stopped[pid], ticks != before { spent[pid] = ticks - before }
                    shownAt[pid] = event.monotonic
                    stoppedNanoseconds += event.monotonic - (suspendedAt[pid] ?? event.monotonic)
                case "resumed":
                    if let shown = shownAt[pid] { lagsMs.append(Double(event.monotonic - shown) / 1e6) }
                default: break
                }
            }
            #expect(stopped.count == tabs && checked == tabs, "\(stopped.count) suspended, \(checked) checked")
            #expect(notStopped.isEmpty && spent.isEmpty, "not stopped: \(notStopped); ticks spent: \(spent)")
            // Each within 5 ms when run on its own (SUPERVISOR_SUSPENSION_TABS set, the measurement); in the
            // suite, beside every other test, the median within 5 ms and each within 50 (CI once took 6.4 ms).
            let sorted = lagsMs.sorted()
            let alone = ProcessInfo.processInfo.environment["SUPERVISOR_SUSPENSION_TABS"] != nil
            let median = sorted.isEmpty ? Double.infinity : sorted[sorted.count / 2]
            #expect(lagsMs.count == tabs && median < 5 && (sorted.last ?? 0) < (alone ? 5 : 50),
                    "\(sorted.suffix(3))")
            #expect(events.named("unresponsive").isEmpty && summary.rendered == tabs)
            // The summary counts the time from each stop to its show (how much of the hidden time that is depends on
            // how fast a loaded machine renders the tabs: in CI it was once under 90%).
            let stoppedSeconds = Double(stoppedNanoseconds) / 1e9
            #expect(summary.suspensions == tabs && stoppedSeconds > 0)
            #expect(abs(summary.suspendedSeconds - stoppedSeconds) <= 0.02 * stoppedSeconds + 0.05,
                    "summary \(summary.suspendedSeconds) s, events \(stoppedSeconds) s")
        }
    }
}
