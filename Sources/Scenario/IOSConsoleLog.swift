import CShim
import Events
import Glibc
import Process
import System
import Vocabulary

/// Writes a run the way an iPhone's console shows it through Xcode: WebKit's ProcessAssertion, WebProcessProxy,
/// WebPageProxy and ProcessThrottler lines, RunningBoard's `[assertion]` errors and runningboardd's termination
/// reports, in the Xcode envelope (`2025-03-02 10:11:12.123456+0100 App[pid:tid] [Category] message`). Logs whose
/// truth is known, for checking log analysis.
public final class IOSConsoleLog {
    private let output: OutputFile
    private let process: String
    private let hostPID = getpid()
    private var pending = ""
    /// Whether the app implements the termination callback: WebKit reloads by itself only when it does not.
    private var delegate = true
    /// Workers the supervisor itself is killing: WebKit logs those as its own termination, not as a crash.
    private var terminating: Set<Int32> = []
    /// Workers found unresponsive that have not answered since.
    private var unresponsive: Set<Int32> = []
    /// Workers in the foreground band: over the memory limit, theirs is WebKit's active limit, not the inactive one.
    private var foreground: Set<Int32> = []

    /// What `run --log-format ios` writes: its first line is in the Xcode envelope, after a timestamp of fixed
    /// width, from the process `supervisor` (or the runningboardd it writes for).
    public static let outputKind = OutputKind(
        role: "the iOS log", name: "an iOS log written by supervisor", isLog: true
    ) { head in
        let process = head.dropFirst(timestamp(0).utf8.count)
        return process.starts(with: " supervisor[".utf8) || process.starts(with: " runningboardd[33:".utf8)
    }

    public init(output: OutputFile, process: String = "supervisor") {
        self.output = output
        self.process = "\(process)[\(hostPID):\(sv_gettid())]"
    }

    deinit {
        flush()
    }

    /// Writes what is buffered; returns the error if the write failed.
    @discardableResult
    public func flush() -> FileError? {
        guard !pending.isEmpty else { return nil }
        let text = pending
        pending = ""
        do {
            try output.write(text)
            return nil
        } catch {
            return error
        }
    }

    /// An `EventLog` observer.
    public func record(_ event: Event) {
        let pid = event.pid.map(Int.init) ?? 0
        let page = event.view.map { "0x10a2b\(String($0 * 0x40, radix: 16))" } ?? "0x10a2b0000"
        let proxy = "0x10c4\(String(pid * 0x10, radix: 16)) - [\(W.pidEquals)\(pid)]"
        let pageTag = "\(page) - [\(W.pageProxyID)\(event.view ?? 0), webPageID=\((event.view ?? 0) + 1), \(W.pidEquals)\(pid)]"
        let process = "\(proxy) \(W.webProcessProxy)::"
        let webPage = "\(pageTag) \(W.webPageProxy)::"
        let throttler = "\(proxy) \(W.processThrottler)::"
        let pool = "0x10b200000 - \(W.webProcessPool)::"
        let cache = "0x10b200400 - [\(W.pidEquals)\(pid)] \(W.processCache)::"
        switch event.kind {
        case .runBegin(let begin):
            delegate = begin.delegate
        case .interrupt:
            line(event, "Lifecycle", "-[AppDelegate applicationWillTerminate:]")
        case .spawn(_, reused: true):
            break
        case .spawn:
            line(event, "Process", "\(process)\(W.didFinishLaunching):")
        case .cacheCheck, .notCached, .cacheAdd, .cacheTaken, .cacheEvict:
            if let words = Self.cacheWords(event.kind) { line(event, "ProcessSwapping", "\(cache)\(words)") }
        case .spare(reused: false):
            line(event, "PerformanceLogging", "\(pool)\(W.prewarmProcess): \(W.prewarming)")
        case .processCountLimit where event.pid == nil && event.view == nil:
            line(event, "PerformanceLogging", "\(pool)\(W.prewarmProcess): \(W.notPrewarming)")
        case .hello:
            line(event, "ProcessSuspension", "\(throttler)\(W.didConnectToProcess):")
        case .priority(let band, _, _, let result, _, _):
            if result == .applied, band == .foreground { foreground.insert(Int32(pid)) }
            if result == .applied, band != .foreground { foreground.remove(Int32(pid)) }
            // A suspended process holds WebKit's near-suspended assertion (IOS-LOG-FORMATS.md).
            let name = band == .foreground ? "Foreground" : band == .suspended ? "NearSuspended" : "Background"
            let assertion = "'WebProcess \(name) Assertion'"
            let prefix = "0x10c4\(String(pid * 0x10, radix: 16)) - \(W.processAssertion)"
            let target = "\(assertion) for process with \(W.pidEquals)\(pid)"
            switch result {
            case .applied:
                line(event, "ProcessSuspension", "\(prefix)::acquireSync \(W.successfullyTook) RBS assertion \(target)")
                runningBoard(event, pid: pid, band: band)
            case .noSuchProcess:
                line(event, "assertion", RunningBoardError.targetMissing.rawValue)
                line(event, "ProcessSuspension", "\(prefix): \(W.failedToAcquire) RBS assertion \(target), error: \(RunningBoardError.targetMissing.error)")
            default:
                break
            }
        case .commit:
            line(event, "Loading", "\(webPage)\(W.didCommitLoadForFrame):")
        case .render:
            line(event, "Loading", "\(webPage)\(W.didFinishDocumentLoad)ForFrame:")
            line(event, "Loading", "\(webPage)\(W.didFinishLoadForFrame):")
        case .shutdown:
            line(event, "Process", "\(process)\(W.shutDown):")
        case .kill(_, let verdict, let why):
            terminating.insert(Int32(pid))
            // A worker killed for its silence without a timer's finding (one that did not read its input) is found
            // unresponsive as it is killed.
            if verdict == .unresponsive, unresponsive.remove(Int32(pid)) == nil {
                line(event, "Process", "\(process)\(W.didBecomeUnresponsive):")
            }
            line(event, "Process", "\(process)\(W.requestTermination): reason=\(why.webKitName)")
        case .memoryWarning(let resident, _):
            line(event, "PerformanceLogging", "\(process)\(W.didExceedMemoryFootprintThreshold): "
                + "WebProcess exceeded notification threshold (current footprint: \(resident >> 20) MB)")
        case .memoryLimit:
            let active = foreground.contains(Int32(pid))
            let limit = active ? W.didExceedActiveMemoryLimit : W.didExceedInactiveMemoryLimit
            line(event, "PerformanceLogging", "\(process)\(limit): "
                + "Terminating WebProcess because it has exceeded the \(active ? "active" : "inactive") memory limit")
        case .cpuLimit:
            line(event, "PerformanceLogging", "\(process)\(W.didExceedCPULimit): "
                + "Terminating background WebProcess that has exceeded the background CPU limit")
        case .prepareToSuspend:
            line(event, "ProcessSuspension", "\(throttler)\(W.sendPrepareToSuspendIPC):")
        case .suspended(let answered):
            let step = answered ? W.processReadyToSuspend : W.prepareToSuspendTimeoutTimerFired
            line(event, "ProcessSuspension", "\(throttler)\(step):")
        case .unresponsive:
            unresponsive.insert(Int32(pid))
            line(event, "Process", "\(process)\(W.didBecomeUnresponsive):")
        case .responsive:
            unresponsive.remove(Int32(pid))
            line(event, "Process", "\(process)\(W.didBecomeResponsive):")
        case .launchFailed:
            line(event, "Process", "\(process)\(Self.failedToLaunch)")
        case .death(let death):
            unresponsive.remove(Int32(pid))
            foreground.remove(Int32(pid))
            died(death, event, pid: pid, proxy: proxy)
        case .termination(_, let why):
            line(event, "Loading", "\(webPage)\(W.processDidTerminate): (pid \(pid)), reason=\(why.webKitName)")
            line(event, "Loading", "\(webPage)\(W.dispatchProcessDidTerminate): reason=\(why.webKitName)")
        case .recovery where !delegate:
            line(event, "Loading", "\(webPage)\(W.tryReloadAfterProcessTermination): process crashed and the client did not handle it, reloading the page")
        default:
            break
        }
    }

    private typealias W = WebKitWording
    private static let failedToLaunch = "\(W.didFinishLaunching): \(W.invalidConnection) identifier (web process \(W.failedToLaunch))"

    /// A normal exit is a disconnect; a launch that never connected, a failed launch; the supervisor's own kill,
    /// WebKit's own termination; anything else a close, with its reason (a kill for memory as a crash, since
    /// WebKit cannot tell a jetsam kill from one).
    /// runningboardd reports the signal, as a device's full log shows it.
    private func died(_ death: SupervisorEvent.Death, _ event: Event, pid: Int, proxy: String) {
        let byUs = terminating.remove(Int32(pid)) != nil
        let process = "\(proxy) \(W.webProcessProxy)::"
        if death.status == .normal {
            line(event, "ProcessSuspension", "\(proxy) \(W.processThrottler)::\(W.didDisconnectFromProcess):")
        } else if death.status == .launchFailed && (byUs || death.reason?.contains("SIGKILL") != true) {
            line(event, "Process", "\(process)\(Self.failedToLaunch)")
        } else if byUs {
            line(event, "Process", "\(process)\(W.processDidTerminateOrFailedToLaunch): reason=\(death.terminationReason.webKitName)")
        } else {
            line(event, "Process", "\(process)\(W.didClose): (web process 0 crash)")
            line(event, "Process", "\(process)\(W.processDidTerminateOrFailedToLaunch): reason=\(death.terminationReason.webKitName)")
        }
        guard case .signal(let signal) = death.exit else { return }
        runningBoardLine(event, pid: pid, "[\(identity):\(pid)] \(W.reportedByLaunchd)2, \(signal), \(signal))")
    }

    /// runningboardd's name for a WebContent process of this app (its pid follows it after a colon).
    private var identity: String { "xpcservice<com.apple.WebKit.WebContent([app<application.supervisor>:\(hostPID)])(501)>" }

    private func runningBoardLine(_ event: Event, pid: Int, _ message: String) {
        pending += "\(Self.timestamp(event.wall)) runningboardd[33:\(String(0x1a00 + pid % 0x100, radix: 16))] [process] \(message)\n"
    }

    /// runningboardd setting the process's jetsam priority, then its state and role, as it does for an assertion.
    private func runningBoard(_ event: Event, pid: Int, band: PriorityBand) {
        let (state, role, priority) = band.runningBoard
        runningBoardLine(event, pid: pid, "[\(identity):\(pid)] \(W.setJetsamPriority)\(priority) [0] flag[1]")
        runningBoardLine(event, pid: pid, "\(W.calculatedStateFor)\(identity): \(state) \(W.role)\(role)) (endowments: (null))")
    }

    /// The process cache's line for `event`, in WebKit's words; nil where WebKit logs none of its own (an eviction
    /// for memory pressure clears the whole cache in one line, and one for the limit or a death in none).
    private static func cacheWords(_ event: SupervisorEvent) -> String? {
        switch event {
        case .cacheCheck: "\(W.checkingBeforeCaching)"
        case .notCached(_, .notResponsive): "\(W.notCachedNotResponsive)"
        case .notCached(_, .noCapacity): "\(W.notCachedNoCapacity)"
        case .notCached(_, .noSite): "\(W.notCachedNoDomain)"
        case .notCached(_, .memoryPressure): "\(W.notCachedMemoryPressure)"
        case .cacheAdd(_, let size, let capacity): "\(W.addedToCache) (size=\(size), capacity=\(capacity))"
        case .cacheTaken(_, let size, let capacity):
            "\(W.takenFromCache) (size=\(size), capacity=\(capacity), processWasTerminated=0)"
        case .cacheEvict(_, .sameSite): "\(W.evictedSameSite)"
        case .cacheEvict(_, .capacity): "\(W.evictedCapacity)"
        case .cacheEvict(_, .expired): "\(W.evictedExpired)"
        default: nil
        }
    }

    private func line(_ event: Event, _ category: String, _ message: String) {
        pending += "\(Self.timestamp(event.wall)) \(process) [\(category)] \(message)\n"
    }

    /// `2026-11-22 07:10:12.123456+0000` in local time, with the offset as Xcode prints it.
    package static func timestamp(_ nanoseconds: Int) -> String {
        let (date, time, offset) = calendarParts(nanoseconds, local: true)
        return "\(date) \(time)\(offset < 0 ? "-" : "+")\(zeroPadded(abs(offset) / 60, 2))\(zeroPadded(abs(offset) % 60, 2))"
    }
}
