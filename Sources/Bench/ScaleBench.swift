import CBench
import Core
import Glibc
import ProcFS
import Browser
import Scenario
import System
import Text

/// Many live workers at once, through a real simulation: what the supervisor costs per worker and per event, and
/// whether it stays asleep when nothing is due.
enum Scale {
    struct Result {
        let rssMiB: Double
        /// What the run added to the supervisor's resident memory, a worker.
        let rssPerWorkerKiB: Double
        let cpuPerEventMicroseconds: Double
        let idleWakeupsPerSecond: Double
    }

    /// Each count of workers measured `rounds` times, the counts taking turns.
    static func compare(
        workers counts: [Int], rounds: Int, idleNanoseconds: Int, workerPath: String
    ) throws -> [(workers: Int, results: [Result])] {
        let needed = 64 + 4 * counts.max()!
        let limit = Sys.raiseDescriptorLimit()
        guard needed <= limit else {
            throw BenchFailure("scale: \(grouped(counts.max()!)) workers need about \(needed) descriptors, over the limit of \(limit) (ulimit -n)")
        }
        var results = counts.map { ($0, [Result]()) }
        try takingTurns(rounds: rounds, counts.count) { index, _ in
            results[index].1.append(try measure(workers: counts[index], idleNanoseconds: idleNanoseconds, workerPath: workerPath))
        }
        return results
    }

    /// RSS, CPU per event and idle wake-ups for each count; CPU per event at the largest count judged against the
    /// smallest: the supervisor's cost per event must not grow with the workers it holds.
    static func metrics(_ scales: [(workers: Int, results: [Result])]) -> [Metric] {
        var metrics: [Metric] = []
        for (workers, results) in scales {
            let label = "scale \(grouped(workers))"
            metrics += [
                .init(name: "\(label): supervisor RSS", unit: "MiB", samples: results.map(\.rssMiB)),
                .init(name: "\(label): RSS per worker", unit: "KiB", samples: results.map(\.rssPerWorkerKiB)),
                .init(name: "\(label): CPU per event", unit: "µs", samples: results.map(\.cpuPerEventMicroseconds)),
                .init(name: "\(label): idle wake-ups", unit: "/s", samples: results.map(\.idleWakeupsPerSecond),
                      target: ("0", { o, _ in o.p99 == 0 })),
            ]
        }
        guard let small = scales.first, let large = scales.last, scales.count > 1 else { return metrics }
        let growth = Percentiles(large.results.map(\.cpuPerEventMicroseconds)).p50
            / Percentiles(small.results.map(\.cpuPerEventMicroseconds)).p50
        metrics[metrics.count - 2].target = (
            "p50 ≤ 1.25× at \(grouped(small.workers)) (is \(fixed(growth, 2))×)", { _, _ in growth <= 1.25 }
        )
        return metrics
    }

    /// Opens `workers` views at once and keeps each on screen for `idleNanoseconds` (and 8 ms a worker) once rendered. The busy phase runs
    /// from the start until the last view is visible; the idle phase from then until the first dwell timer fires,
    /// the only thing due. Wake-ups are the event loop's returns from epoll_wait.
    static func measure(workers: Int, idleNanoseconds: Int, workerPath: String) throws -> Result {
        var configuration = RunConfiguration(workerPath: workerPath)
        configuration.loads = workers
        configuration.views = workers
        configuration.attachDelayNanoseconds = 0...0
        configuration.fetchLatencyNanoseconds = 0...0
        // Every view stays until well after the last one is visible (starting them all takes a few ms each on a
        // quiet machine, several on a busy one), and none is judged blank meanwhile.
        configuration.dwellNanoseconds = idleNanoseconds + workers * 8_000_000
        configuration.blankTimeoutNanoseconds = 600_000_000_000
        // The machinery at this many live workers, past WebKit's limit of 400: the policy's limit is lifted.
        configuration.policy.maxWorkers = 0
        let log = EventLog()
        var events = 0
        var visible = 0
        var busy: (cpu: Double, events: Int, rss: Double)?
        var idleStart: (time: Int, wakeUps: Int)?
        var loop: EventLoop?
        var idle: (seconds: Double, wakeups: Int)?
        var early = false
        /// What kept a view from being shown: the first such event (a failed launch, a failed load), as logged.
        var firstTrouble: String?
        log.observers.append { event in
            events += 1
            switch event.kind {
            case .launchFailed, .fail, .abort, .protocolViolation, .death:
                if case .death(let death) = event.kind, death.shutdown { break }
                if visible < workers, firstTrouble == nil { firstTrouble = event.json.text }
            case .visible:
                visible += 1
                if visible == workers {
                    busy = (cpuSeconds(), events, Double(residentBytes() ?? -1) / 1_048_576)
                    idleStart = (Sys.monotonicNanoseconds(), loop!.wakeUps)
                }
            case .loadEnd where idleStart == nil:
                early = true
            case .loadEnd where idle == nil:
                // This wake-up is the dwell timer itself: the one thing that was due.
                if let start = idleStart {
                    idle = (Double(Sys.monotonicNanoseconds() - start.time) / 1e9, loop!.wakeUps - start.wakeUps - 1)
                }
            default:
                break
            }
        }
        // Memory freed by earlier rounds goes back to the system first, so that what this run holds is its own.
        _ = sv_return_free_memory()
        let rssBefore = residentBytes()
        let cpuBefore = cpuSeconds()
        let simulation = try Simulation(configuration: configuration, content: KillBench.content, log: log)
        loop = simulation.loop
        _ = try simulation.run()
        guard let busy else {
            throw BenchFailure("scale: \(grouped(visible)) of \(grouped(workers)) views became visible"
                + (firstTrouble.map { "; first: \($0)" } ?? ""))
        }
        guard !early else {
            throw BenchFailure("scale: \(grouped(workers)) views took longer to render than each stays on screen; no idle time to measure")
        }
        guard let idle else { throw BenchFailure("scale: no view closed after the last one became visible") }
        guard busy.rss >= 0, let rssBefore else {
            throw BenchFailure("scale: cannot read the supervisor's resident memory from /proc")
        }
        return Result(
            rssMiB: busy.rss, rssPerWorkerKiB: (busy.rss * 1_048_576 - Double(rssBefore)) / 1024 / Double(workers), cpuPerEventMicroseconds: (busy.cpu - cpuBefore) / Double(busy.events) * 1e6,
            idleWakeupsPerSecond: Double(idle.wakeups) / idle.seconds)
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func residentBytes() -> Int? {
        ProcFS.residentPages(.current).map { $0 * Int(sysconf(Int32(_SC_PAGESIZE))) }
    }
}
