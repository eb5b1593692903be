import Core
import Glibc
import ProcFS
import Browser
import Scenario

/// Many live workers at once, through a real simulation: what the supervisor costs per worker and per event, and
/// whether it stays asleep when nothing is due.
enum Scale {
    struct Result {
        let rssMiB: Double
        let cpuPerEventMicroseconds: Double
        let idleWakeupsPerSecond: Double
    }

    /// Opens `workers` views at once and keeps each on screen for a second once rendered. The busy phase runs
    /// from the start until the last view is visible; the idle phase from then until the first dwell timer fires,
    /// the only thing due. Wake-ups are the loop thread's voluntary context switches, as the kernel counts them.
    static func measure(workers: Int, workerPath: String) throws -> Result {
        var configuration = RunConfiguration(workerPath: workerPath)
        configuration.loads = workers
        configuration.views = workers
        configuration.attachDelayNanoseconds = 0...0
        configuration.dwellNanoseconds = 1_000_000_000
        let log = EventLog()
        var events = 0
        var visible = 0
        var busy: (cpu: Double, events: Int, rss: Double)?
        var idleStart: (time: Int, switches: Int)?
        var idle: (seconds: Double, wakeups: Int)?
        log.observers.append { event in
            events += 1
            switch event.kind {
            case .visible:
                visible += 1
                if visible == workers {
                    busy = (cpuSeconds(), events, Double(residentBytes()) / 1_048_576)
                    idleStart = (monotonicNow(), voluntarySwitches())
                }
            case .loadEnd where idle == nil:
                // This wake-up is the dwell timer itself: the one thing that was due.
                if let start = idleStart {
                    idle = (Double(monotonicNow() - start.time) / 1e9, voluntarySwitches() - start.switches - 1)
                }
            default:
                break
            }
        }
        let cpuBefore = cpuSeconds()
        _ = try Simulation(configuration: configuration, content: BenchCommand.benchContent, log: log).run()
        guard let busy, let idle else { throw RuntimeError("scale: not every view became visible") }
        return Result(
            rssMiB: busy.rss, cpuPerEventMicroseconds: (busy.cpu - cpuBefore) / Double(busy.events) * 1e6,
            idleWakeupsPerSecond: Double(idle.wakeups) / idle.seconds)
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func residentBytes() -> Int {
        (ProcFS.residentPages(.current) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The calling thread's voluntary context switches: each is a sleep in epoll_wait that something ended.
    private static func voluntarySwitches() -> Int {
        ProcFS.status(.currentThread)?.number("voluntary_ctxt_switches") ?? 0
    }
}

func monotonicNow() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}
