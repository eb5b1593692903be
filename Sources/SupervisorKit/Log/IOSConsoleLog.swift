import CShim
import Glibc

/// Writes a run the way an iPhone's console shows it through Xcode: WebKit's ProcessAssertion, WebProcessProxy,
/// WebPageProxy and ProcessThrottler lines and RunningBoard's `[assertion]` errors, in the Xcode envelope
/// (`2025-03-02 10:11:12.123456+0100 App[pid:tid] [Category] message`). Logs whose truth is known, for checking
/// log analysis.
public final class IOSConsoleLog {
    private let fd: Int32
    private let process: String
    private var pending = ""
    private var policy = ""

    public init(path: String, process: String = "supervisor") throws(SystemError) {
        fd = try Sys.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        self.process = "\(process)[\(getpid()):\(sv_gettid())]"
    }

    deinit {
        flush()
        Sys.close(fd)
    }

    public func flush() {
        guard !pending.isEmpty else { return }
        var text = pending
        pending = ""
        text.withUTF8 { try? Sys.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// An `EventLog` observer.
    public func record(_ event: Event) {
        let pid = event.pid.map(Int.init) ?? 0
        let page = event.view.map { "0x10a2b\(String($0 * 0x40, radix: 16))" } ?? "0x10a2b0000"
        let process = "0x10c4\(String(pid * 0x10, radix: 16))"
        let pageTag = "[pageProxyID=\(event.view ?? 0), webPageID=\((event.view ?? 0) + 1), PID=\(pid)]"
        switch event.name {
        case "run-begin":
            if case .string(let name)? = event["policy"] { policy = name }
        case "hello":
            line(event, "Process", "\(process) - [PID=\(pid)] WebProcessProxy::didFinishLaunching:")
            line(event, "ProcessSuspension", "\(process) - [PID=\(pid)] ProcessThrottler::didConnectToProcess:")
        case "priority":
            let name = event["band"] == .string("foreground") ? "Foreground" : "Background"
            let assertion = "'WebProcess \(name) Assertion'"
            switch event["result"] {
            case .string("ok")?:
                line(event, "ProcessSuspension", "\(process) - ProcessAssertion::acquireSync Successfully took RBS assertion \(assertion) for process with PID=\(pid)")
            case .string("ESRCH")?:
                line(event, "assertion", rbsTargetMissingLine)
                line(event, "ProcessSuspension", "\(process) - ProcessAssertion: Failed to acquire RBS assertion \(assertion) for process with PID=\(pid), error: \(Self.rbsError)")
            default:
                break
            }
        case "commit":
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::didCommitLoadForFrame:")
        case "render":
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::didFinishDocumentLoadForFrame:")
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::didFinishLoadForFrame:")
        case "death" where event["status"] == .string("normal"):
            line(event, "ProcessSuspension", "\(process) - [PID=\(pid)] ProcessThrottler::didDisconnectFromProcess:")
        case "death":
            // WebKit cannot tell a jetsam kill from a crash: both are a crash here too.
            line(event, "Process", "\(process) - [PID=\(pid)] WebProcessProxy::didClose: (web process 0 crash)")
            line(event, "Process", "\(process) - [PID=\(pid)] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash")
        case "termination":
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::processDidTerminate: (pid \(pid)), reason=Crash")
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::dispatchProcessDidTerminate: reason=Crash")
        case "recovery" where policy == "webkit-default":
            // WebKit reloads by itself only when the app has no termination delegate.
            line(event, "Loading", "\(page) - \(pageTag) WebPageProxy::tryReloadAfterProcessTermination: process crashed and the client did not handle it, reloading the page")
        default:
            break
        }
    }

    private static let rbsError =
        #"Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}"#

    private func line(_ event: Event, _ category: String, _ message: String) {
        pending += "\(Self.timestamp(event.wall)) \(process) [\(category)] \(message)\n"
    }

    /// `2026-11-22 07:10:12.123456+0000` in local time, with the offset as Xcode prints it.
    static func timestamp(_ nanoseconds: Int) -> String {
        let (date, time, offset) = calendarParts(nanoseconds, local: true)
        return "\(date) \(time)\(offset < 0 ? "-" : "+")\(zeroPadded(abs(offset) / 60, 2))\(zeroPadded(abs(offset) % 60, 2))"
    }
}
