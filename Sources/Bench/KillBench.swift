import Browser
import Core
import Events
import Glibc
import Scenario
import System

/// The recovery rows: a worker SIGKILLed as its load is first visible, from the loop as the floor kills from its
/// waiting thread, and how long the supervisor takes to notice and to show the page again.
enum KillBench {
    /// Time from SIGKILL of a live worker to the supervisor's death event for it; the policy then recovers the view.
    static func killToDetected(iterations: Int, workerPath: String) throws -> [Double] {
        var killedAt: [Int32: Int] = [:]
        var samples: [Double] = []
        try killEachLoadOnce(iterations: iterations, workerPath: workerPath) { event, killed in
            if let killed { killedAt[killed] = Sys.monotonicNanoseconds() }
            if case .death = event.kind, let pid = event.pid, let start = killedAt.removeValue(forKey: pid) {
                samples.append(Double(event.monotonic - start) / 1e6)
            }
        }
        return samples
    }

    /// Time from SIGKILL of a visible view's worker to that load being visible again, under `policy`. The attach
    /// delay is zero: this measures the supervisor's recovery, not the app's view hierarchy.
    static func killToRerendered(_ policy: Policy, iterations: Int, workerPath: String) throws -> [Double] {
        var killedAt: [Int: Int] = [:]
        var samples: [Double] = []
        try killEachLoadOnce(policy, iterations: iterations, workerPath: workerPath) { event, killed in
            guard case .visible(let load, _, let first, _) = event.kind else { return }
            if killed != nil { killedAt[load] = Sys.monotonicNanoseconds() }
            if !first, let start = killedAt.removeValue(forKey: load) {
                samples.append(Double(event.monotonic - start) / 1e6)
            }
        }
        return samples
    }

    /// Runs `iterations` loads and SIGKILLs each load's worker once, as the load is first visible; `observe` sees
    /// every event, with the pid just killed, if any.
    private static func killEachLoadOnce(
        _ policy: Policy? = nil, iterations: Int, workerPath: String, observe: @escaping (Event, Int32?) -> Void
    ) throws {
        var configuration = RunConfiguration(workerPath: workerPath)
        if let policy {
            configuration.policy = policy
        } else {
            // Deaths are observed from spawn, so a kill before the view attaches is recovered at once too.
            configuration.policy.observe = .spawn
        }
        // The supervisor's machinery alone, as the floor has it: no simulated wait for a page's fetch.
        configuration.attachDelayNanoseconds = 0...0
        configuration.fetchLatencyNanoseconds = 0...0
        configuration.loads = iterations
        configuration.dwellNanoseconds = 1_000_000
        let log = EventLog()
        log.observers.append { event in
            guard case .visible(_, _, first: true, _) = event.kind, let pid = event.pid else {
                return observe(event, nil)
            }
            observe(event, pid)
            Glibc.kill(pid, SIGKILL)
        }
        _ = try Simulation(configuration: configuration, content: content, log: log).run()
    }

    /// A page that asks for no render work, so a killed worker has no memory to tear down that the floor's worker
    /// would not have either.
    static var content: ContentProvider { ContentProvider(pages: [("bench.html", "<title>Bench</title>")]) }
}
