import CShim
import Glibc
import Killer
import ProcFS
import Vocabulary

/// Jetsam: the "OS" of this model, after iOS jetsam and Android's lmkd.
///
/// It knows only the supervisor's pid, and the holder's when the workers are its children (`--workers-of`, for
/// `run --keep-workers`). Every interval it scans /proc for the workers' WebContent processes and,
/// under memory pressure, SIGKILLs the lowest-priority one (`Killer.victim`, the rule `compare --replay` deals its
/// kills by too): highest oom_score_adj, then highest nice, then largest RSS. The kill goes through a pidfd opened on the victim and checked to be the process the scan saw (same start
/// time, same parent): a pid recycled since the scan is never killed. The supervisor learns of each death through
/// its pidfd, as on a phone; what it hears from Jetsam is only who did it: with `--claims-fd`, the victim's pid on
/// a line of its own, written before the kill, since the kernel never tells the supervisor who sent a signal, and
/// `pressure critical` or `pressure normal` when memory pressure begins or ends, before any kill it brings.
/// Every kill is logged as a JSON line: the ground truth that log analysis is checked against.
///
///   Jetsam --supervisor PID [--workers-of PID] [--budget-mb N] [--interval-ms N] [--pressure normal|critical]
///          [--log-fd FD] [--claims-fd FD]
///
/// Its log and its claims go to descriptors it inherits, never to files it opens: the supervisor decides what
/// they are.
///
/// Under budget pressure (total worker RSS above the budget) any worker may die, foreground ones last. Under
/// critical pressure the lowest-priority background worker dies every interval, whatever the total.

struct Candidate {
    let stat: ProcFS.Stat
    let rssBytes: Int
    let oomScoreAdjust: Int
    var pid: Int32 { stat.pid }
    var nice: Int { stat.nice }
    var ranked: Killer.Candidate {
        Killer.Candidate(pid: pid, oomScoreAdjust: oomScoreAdjust, nice: nice, residentBytes: rssBytes)
    }
}

struct Options {
    var supervisor: Int32 = 0
    /// Whose children the workers are: the supervisor's, or its holder's (`run --keep-workers`).
    var workersOf: Int32 = 0
    var budgetBytes = 256 << 20
    var intervalNanoseconds = 2_000_000
    var critical = false
    var logFD: Int32 = -1
    var claimsFD: Int32 = -1

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("missing value for '\(name)'") }
            switch name {
            case "--supervisor": supervisor = Int32(value) ?? 0
            case "--workers-of": workersOf = Int32(value) ?? -1
            case "--budget-mb": budgetBytes = Int(value).map { (1...Self.maxBudgetMegabytes).contains($0) ? $0 << 20 : 0 } ?? 0
            case "--interval-ms":
                let ms = Double(value) ?? 0
                intervalNanoseconds = ms.isFinite && Self.intervalMilliseconds.contains(ms) ? Int(ms * 1e6) : 0
            case "--pressure": critical = value == "critical"
            case "--log-fd": logFD = Int32(value) ?? -1
            case "--claims-fd": claimsFD = Int32(value) ?? -1
            default: fail("unknown option '\(name)'")
            }
        }
        if workersOf == 0 { workersOf = supervisor }
        guard supervisor > 0, workersOf > 0, budgetBytes > 0, intervalNanoseconds > 0 else {
            fail("usage: Jetsam --supervisor PID [--workers-of PID] [--budget-mb 1-\(Self.maxBudgetMegabytes)] "
                + "[--interval-ms \(Self.intervalMilliseconds)] "
                + "[--pressure normal|critical] [--log-fd FD] [--claims-fd FD]")
        }
    }

    static let maxBudgetMegabytes = Int(SV_JETSAM_MAX_BUDGET_MB)
    static let intervalMilliseconds = SV_JETSAM_MIN_INTERVAL_MS...SV_JETSAM_MAX_INTERVAL_MS
}

func fail(_ message: String) -> Never {
    let line = "Jetsam: error: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(64)
}

/// The supervisor's live WebContent children: either build of the worker (the kernel cuts WebContentPortable's name
/// to `WebContentPorta`, so a name is matched by its start).
func scan(_ supervisor: Int32, pageSize: Int) -> [Candidate] {
    ProcFS.children(of: supervisor).compactMap { stat in
        guard stat.command.hasPrefix("WebContent"), stat.isLive, let adjust = ProcFS.oomScoreAdjust(stat.pid) else { return nil }
        return Candidate(stat: stat, rssBytes: stat.residentPages * pageSize, oomScoreAdjust: adjust)
    }
}

/// SIGKILLs `victim` through a pidfd, which names one process for good; false if it is not there any more. The
/// pidfd is opened on whatever holds the pid now, so that process must be the one scanned: the same start time
/// and parent. If the victim dies and its pid is reused after the check, the pidfd still names the dead victim,
/// and the signal reaches nobody. The kill is claimed on `claims` first, if there is one.
func kill(_ victim: Candidate, claims: Int32) -> Bool {
    let pidfd = sv_pidfd_open(victim.pid)
    guard pidfd >= 0 else { return false }
    defer { close(pidfd) }
    guard victim.stat.isStillRunning else { return false }
    if claims >= 0 { writeOrExit(claims, "\(victim.pid)\n", what: "its claims") }
    return sv_pidfd_send_signal(pidfd, SIGKILL) == 0
}

/// Writes `text` whole to `fd`, or stops Jetsam: a kill it cannot log or claim would go unaccounted, and stopping
/// stops the run instead.
func writeOrExit(_ fd: Int32, _ text: String, what: String) {
    guard text.withCString({ write(fd, $0, strlen($0)) }) != text.utf8.count else { return }
    let error = "Jetsam: error: cannot write \(what): \(String(cString: strerror(errno)))\n"
    _ = error.withCString { write(2, $0, strlen($0)) }
    exit(74)
}

func monotonicNanoseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let options = Options(CommandLine.arguments)
_ = sv_set_pdeathsig(SIGKILL)
guard getppid() == options.supervisor else { exit(0) }
let logFD = options.logFD
let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
var next = monotonicNanoseconds()
/// Killed but still listed in /proc while the kernel tears them down: neither candidates nor counted.
var dying: Set<Int32> = []
/// The memory pressure last reported on the claims pipe.
var reportedPressure = false
while getppid() == options.supervisor {
    let listed = scan(options.workersOf, pageSize: pageSize)
    dying.formIntersection(listed.map(\.pid))
    let workers = listed.filter { !dying.contains($0.pid) }
    let total = workers.reduce(0) { $0 + $1.rssBytes }
    let overBudget = total > options.budgetBytes
    if options.claimsFD >= 0, (overBudget || options.critical) != reportedPressure {
        reportedPressure.toggle()
        let line = reportedPressure ? JetsamLog.pressureCritical : JetsamLog.pressureNormal
        writeOrExit(options.claimsFD, line + "\n", what: "its claims")
    }
    let pool = options.critical && !overBudget ? workers.filter { $0.oomScoreAdjust >= Killer.backgroundAdjust } : workers
    if overBudget || options.critical,
        let chosen = Killer.victim(among: pool.map(\.ranked)), let victim = pool.first(where: { $0.pid == chosen.pid }),
        kill(victim, claims: options.claimsFD)
    {
        dying.insert(victim.pid)
        let (band, rank) = chosen.standing
        let reason: JetsamLog.Reason = overBudget ? .rssOverBudget : .criticalPressure
        let line = """
            {"time":\(wallSeconds()),"mono":\(monotonicNanoseconds()),"event":"\(JetsamLog.killEvent)","pid":\(victim.pid),\
            "band":"\(band.rawValue)","rank":\(rank),"oomScoreAdj":\(victim.oomScoreAdjust),"nice":\(victim.nice),"rssBytes":\(victim.rssBytes),\
            "totalRSSBytes":\(total),"budgetBytes":\(options.budgetBytes),"reason":"\(reason.rawValue)"}

            """
        if logFD >= 0 { writeOrExit(logFD, line, what: "its log") }
    }
    next = max(next + options.intervalNanoseconds, monotonicNanoseconds())
    var until = timespec(tv_sec: next / 1_000_000_000, tv_nsec: next % 1_000_000_000)
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil) == EINTR {}
}
