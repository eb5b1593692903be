import LogAnalysis
import System

/// A synthetic iPhone console log in the Xcode envelope, as large as asked, for timing `analyze` on realistic input:
/// most lines come from other subsystems, some are WebKit's and RunningBoard's routine chatter (which the analyzer
/// must parse), and now and then a WebContent process lives a whole life, or is killed before it renders. Seeded,
/// so every run writes the same bytes; written block by block, so it costs little memory.
public struct DeviceLogGenerator {
    /// How many lines in a hundred are WebKit's routine chatter.
    private let chatterPercent: Int
    private var state: UInt64
    private var micros = 1_795_400_000_000_000
    private var nextPID: Int32 = 4200
    private var buffer: [UInt8] = []
    /// The pids planted as killed before render, in order.
    public private(set) var killedBeforeRender: [Int32] = []

    /// `chatterPercent` 6 is a device log as it comes; 10 is one a WebKit-heavy app writes, where the analyzer has
    /// the most to parse.
    public init(seed: UInt64, chatterPercent: Int = 6) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        self.chatterPercent = chatterPercent
    }

    /// Writes at least `bytes` bytes of whole lines to `fd`.
    public mutating func write(to fd: Int32, bytes: Int) throws(SystemError) {
        buffer.reserveCapacity(1 << 20 + 4096)
        var written = 0
        var line = 0
        while written < bytes {
            line += 1
            if line % 200_000 == 0 {
                killBeforeRender()
            } else if line % 20_000 == 0 {
                liveAndExit()
            } else if next(100) < chatterPercent {
                chatter()
            } else {
                noise()
            }
            if buffer.count >= 1 << 20 {
                written += buffer.count
                try flush(fd)
            }
        }
        written += buffer.count
        try flush(fd)
    }

    // MARK: - What is written

    private static let noise: [(String, String)] = [
        ("CFNetwork", "Task <%U>.<%n> finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\""),
        ("CFNetwork", "Connection %n: received failure notification"),
        ("UIKit", "Unbalanced calls to begin/end appearance transitions for <UINavigationController: %x>."),
        ("Snapshotting", "Snapshotting a view (%x, UIKeyboardImpl) that has not been rendered at least once requires afterScreenUpdates:YES."),
        ("ViewportSizing", "maximumViewportInset cannot be larger than frame"),
        ("general", "[Firebase/Analytics][I-ACS023007] Analytics v.8.15.0 started, event count %n"),
        ("LayoutConstraints", "Unable to simultaneously satisfy constraints. Probably at least one of the constraints in the following list is one you don't want."),
        ("Common", "_BSMachError: port %x; (os/kern) invalid capability (0x14) \"Unable to insert COPY_SEND\""),
        ("xpc", "activity com.example.refresh state changed to %n"),
        ("coredata", "fault: unable to load object %x, retrying in %n ms"),
        ("Accessibility", "AX Lookup problem - errorCode:1100 error:Permission denied portName:'com.apple.iphone.axserver' PID:%n"),
        ("Location", "{\"msg\":\"locationManager:didUpdateLocations:\", \"count\":%n, \"accuracy\":65.0}"),
        ("JavaScript", "console.log: render pass %n took %n ms"),
    ]

    private static let chatter: [(String, String)] = [
        ("ProcessSuspension", "%x - [PID=%p] ProcessThrottler::setThrottleState: Updating process assertion type to 1 (foregroundActivities=0, backgroundActivities=1)"),
        ("ProcessSuspension", "%x - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=%p"),
        ("Loading", "%x - [pageProxyID=%n, webPageID=%n, PID=%p] WebPageProxy::didStartProvisionalLoadForFrame: frameID=%n"),
        ("Process", "%x - [PID=%p] WebProcessProxy::didChangeThrottleState: type=1"),
    ]

    private mutating func noise() {
        let (category, message) = Self.noise[next(Self.noise.count)]
        line(category, message, pid: 0)
    }

    private mutating func chatter() {
        let (category, message) = Self.chatter[next(Self.chatter.count)]
        line(category, message, pid: Int32(4000 + next(150)))
    }

    /// Launched, raised, rendered, exited.
    private mutating func liveAndExit() {
        let pid = launch()
        line("ProcessSuspension", "%x - [PID=%p] ProcessThrottler::didConnectToProcess:", pid: pid)
        line("ProcessSuspension", "%x - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Foreground Assertion' for process with PID=%p", pid: pid)
        line("Loading", "%x - [pageProxyID=%n, webPageID=%n, PID=%p] WebPageProxy::didCommitLoadForFrame:", pid: pid)
        line("Loading", "%x - [pageProxyID=%n, webPageID=%n, PID=%p] WebPageProxy::didFinishDocumentLoadForFrame:", pid: pid)
        line("ProcessSuspension", "%x - [PID=%p] ProcessThrottler::didDisconnectFromProcess:", pid: pid)
    }

    /// The race behind a kill before render: launched at background priority, killed, then raised and found gone.
    private mutating func killBeforeRender() {
        let pid = launch()
        killedBeforeRender.append(pid)
        line("Process", "%x - [PID=%p] WebProcessProxy::didClose: (web process 0 crash)", pid: pid)
        line("Process", "%x - [PID=%p] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash", pid: pid)
        line("assertion", "Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>", pid: pid)
        line("ProcessSuspension", "%x - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=%p, error: Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}", pid: pid)
    }

    /// A new pid, launched at background priority.
    private mutating func launch() -> Int32 {
        nextPID = nextPID >= 99_000 ? 4200 : nextPID + 1 + Int32(next(7))
        line("Process", "%x - [PID=%p] WebProcessProxy::didFinishLaunching:", pid: nextPID)
        line("ProcessSuspension", "%x - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=%p", pid: nextPID)
        return nextPID
    }

    // MARK: - Bytes

    /// `2026-11-23 10:11:12.123456+0100 MyApp[4100:99001] [Category] message`, where `%x` is an address, `%n` a
    /// number, `%p` the pid and `%U` an identifier.
    private mutating func line(_ category: String, _ message: String, pid: Int32) {
        micros += 20 + next(900)
        let (year, month, day) = LogTime.civil(micros / LogTime.microsecondsPerDay)
        var rest = micros % LogTime.microsecondsPerDay
        let fraction = rest % 1_000_000
        rest /= 1_000_000
        digits(year, 4); byte(45); digits(month, 2); byte(45); digits(day, 2); byte(32)
        digits(rest / 3600, 2); byte(58); digits(rest / 60 % 60, 2); byte(58); digits(rest % 60, 2); byte(46)
        digits(fraction, 6)
        text("+0000 MyApp[4100:")
        digits(99_000 + next(40), 5)
        text("] [")
        text(category)
        text("] ")
        var escape = false
        for unit in message.utf8 {
            if escape {
                switch unit {
                case 120: text("0x1"); hex(next(1 << 28), 7)
                case 110: digits(next(10_000), 1)
                case 112: digits(Int(pid), 1)
                default: hex(next(1 << 30), 8); byte(45); hex(next(1 << 16), 4)
                }
                escape = false
            } else if unit == 37 {
                escape = true
            } else {
                buffer.append(unit)
            }
        }
        byte(10)
    }

    private mutating func byte(_ value: UInt8) { buffer.append(value) }

    private mutating func text(_ value: String) { buffer.append(contentsOf: value.utf8) }

    /// `value` in decimal, zero-padded to `width`.
    private mutating func digits(_ value: Int, _ width: Int) {
        var scratch: [UInt8] = []
        var rest = value
        repeat {
            scratch.append(UInt8(48 + rest % 10))
            rest /= 10
        } while rest > 0
        for _ in scratch.count..<max(width, scratch.count) { buffer.append(48) }
        buffer.append(contentsOf: scratch.reversed())
    }

    private mutating func hex(_ value: Int, _ width: Int) {
        for shift in stride(from: (width - 1) * 4, through: 0, by: -4) {
            let nibble = UInt8((value >> shift) & 15)
            buffer.append(nibble < 10 ? 48 + nibble : 87 + nibble)
        }
    }

    /// A uniform integer below `bound` (xorshift64*).
    private mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }

    private mutating func flush(_ fd: Int32) throws(SystemError) {
        let bytes = buffer
        buffer.removeAll(keepingCapacity: true)
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try Sys.writeAll(fd, raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
