@testable import LogAnalysis
@testable import Text

/// Hand-written logs in the shapes of Sources/LogAnalysis/IOSLogFormats.md. In each envelope fixture, pid 4107 is
/// launched, never renders, dies, and is then raised to foreground and found gone: a kill before render. The host app
/// is pid 4100.
enum Fixture {
    /// Xcode console with metadata: a process name with a space, a space before `[pid:tid]`, an empty category, two
    /// spaces after a category, and the RBS error 276 ms before WebKit's termination lines.
    static let xcode = #"""
        2025-03-02 10:11:12.100000+0100 My App[4100:99001] [Snapshotting] Snapshotting a view (0x1030, WKWebView) that is not in a visible window requires afterScreenUpdates:YES.
        2025-03-02 10:11:12.120000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.120100+0100 My App [4100:99001] [ProcessSuspension]  0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        2025-03-02 10:11:12.121000+0100 My App[4100:99001] [] 0x10a2b3c40 - [PID=4107] ProcessThrottler::didConnectToProcess:
        2025-03-02 10:11:12.124000+0100 My App[4100:99002] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        2025-03-02 10:11:12.124300+0100 My App[4100:99002] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
        2025-03-02 10:11:12.400000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
        2025-03-02 10:11:12.400100+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=3

        """#

    /// Xcode 15+ message-only, behind the prefixes CLI relays add; the failing line's own error is `(null)`, so the
    /// reason comes from the paired `[assertion]` line. No times: lines are correlated by their order.
    static let messageOnly = #"""
        [WebKit] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
         LOG  0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        HMR: connected
        [BrowserEngineKit] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        0x10a2b3c40 - ProcessAssertion::acquireSync Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: (null)
        0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

        """#

    /// Console.app copies: tabs, a leading pid column, runs of spaces and a space before the zone, a continuation
    /// line that starts with a tab. No date anywhere.
    static let consoleApp = #"""
        default\#t10:11:12.120000+0100\#tMy App\#t0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        4100\#tdefault\#t10:11:12.120100+0100\#tMy App\#t0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        error   10:11:12.124000 +0100   My App   Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        error\#t10:11:12.124300+0100\#tMy App\#t0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2
        \#tUserInfo={NSLocalizedFailureReason=Specified target process does not exist}
        default\#t10:11:12.400000+0100\#tMy App\#t0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

        """#

    /// idevicesyslog: a space-padded day, no year, whole seconds; iOS 14's `didClose` without a pid; runningboardd's
    /// report of the SIGKILL.
    static let syslog = #"""
        Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        Mar  2 10:11:12 iPhone SpringBoard[58] <Notice>: [com.example.MyApp] Scene update
        Mar  2 10:11:12 iPhone MyApp(RunningBoardServices)[4100] <Error>: Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Error>: 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
        Mar  2 10:11:13 iPhone MyApp(WebKit)[4100] <Notice>: 0x10a2b3c40 - WebProcessProxy didClose (web process crash)
        Mar  2 10:11:13 iPhone runningboardd(RunningBoard)[33] <Notice>: [xpcservice<com.apple.WebKit.WebContent([app<application.com.example.MyApp>:4100])(501)>:4107] termination reported by launchd (2, 9, 9)

        """#

    /// `pymobiledevice3 syslog live` (a capture without a Mac): the host's local time with no zone, whole seconds
    /// without a fraction, `process{sender image}[pid]`, an empty image's `{}`, upper-case levels.
    static let pymobiledevice3 = #"""
        2025-03-02 10:11:12.120000 MyApp{WebKit}[4100] <NOTICE>: 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.120100 MyApp{WebKit}[4100] <NOTICE>: 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        2025-03-02 10:11:12 SpringBoard{}[58] <NOTICE>: [com.example.MyApp] Scene update
        2025-03-02 10:11:12.124000 MyApp{RunningBoardServices}[4100] <ERROR>: Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        2025-03-02 10:11:12.124300 MyApp{WebKit}[4100] <ERROR>: 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
        2025-03-02 10:11:12.400000 MyApp{WebKit}[4100] <NOTICE>: 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
        2025-03-02 10:11:12.400100 runningboardd{RunningBoard}[33] <NOTICE>: [xpcservice<com.apple.WebKit.WebContent([app<application.com.example.MyApp>:4100])(501)>:4107] termination reported by launchd (2, 9, 9)

        """#

    /// flutter -v's device relay, hard-wrapped at a fixed width inside words: inside the assertion's name and inside
    /// "does not exist", which these lines say only once. A tool line and a `flutter:` line in between.
    static let flutter = #"""
        [+2061 ms] [DEVICE LOG] 2025-03-02 10:11:12.120000+0100  localhost Runner[4100]: (WebKit) [com.apple.WebKit:Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        [        ] [DEVICE LOG] 2025-03-02 10:11:12.120100+0100  localhost Runner[4100]: (WebKit) [com.apple.WebKit:ProcessSuspension] 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assert
        ion 'WebProcess Background Assertion' for process with PID=4107
        [   +3 ms] [DEVICE LOG] 2025-03-02 10:11:12.124000+0100  localhost Runner[4100]: (RunningBoardServices) [com.apple.runningboard:assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDom
        ain Code=2 "Specified target process does not ex
        ist" UserInfo={}>
        [        ] [DEVICE LOG] 2025-03-02 10:11:12.124300+0100  localhost Runner[4100]: (WebKit) [com.apple.WebKit:ProcessSuspension] 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foregro
        und Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does n
        ot exist"
        [  +12 ms] flutter: page loaded
        [ +276 ms] [DEVICE LOG] 2025-03-02 10:11:12.400000+0100  localhost Runner[4100]: (WebKit) [com.apple.WebKit:Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

        """#

    /// iOS 13: the launch as `didConnectToProcess(<pid>)`, the attempt on the old foreground name, the RBS error as a
    /// multi-line NSError dump, then `Unable to acquire`.
    static let nsError = #"""
        2020-10-20 08:15:52.390000-0400 Runner[4100:4595943] [ProcessSuspension] 0x11cad94c8 - ProcessThrottler::didConnectToProcess(4107)
        2020-10-20 08:15:52.390100-0400 Runner[4100:4595943] [ProcessSuspension] 0x11cad94c8 - ProcessAssertion() PID 4100 acquiring assertion for process with PID 4107, name 'Web content visibility'
        2020-10-20 08:15:52.390150-0400 Runner[4100:4595943] [assertion] Error acquiring assertion: <NSError: 0x2833559e0; domain: RBSAssertionErrorDomain; code: 2; reason: "Specified target process does not exist"> {
            userInfo = {
                RBSAssertionAttribute = <RBSDomainAttribute| domain:"com.apple.webkit" name:"Foreground" sourceEnvironment:"(null)">;
            }
        }
        2020-10-20 08:15:52.390200-0400 Runner[4100:4595943] [ProcessSuspension]  0x11cad94c8 - ProcessAssertion() PID 4100 Unable to acquire assertion for process with PID 4107
        2020-10-20 08:15:52.390250-0400 Runner[4100:4595781] [ProcessSuspension] 0x11cad94c8 - ProcessAssertion::processAssertionWasInvalidated()

        """#

    /// Two threads interleave: thread 72's error (an entitlement error, quiet) comes before thread 71's (the process
    /// is gone), and their failure lines come in the other order. Pairing by order would swap them; pairing by
    /// thread gives 4107 its "does not exist". Pid 4109 lives a normal life in between.
    static let interleaved = #"""
        2025-03-02 10:11:12.120000+0100 MyApp[4100:71] [Process] 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.120010+0100 MyApp[4100:72] [Process] 0x2 - [PID=4111] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.120020+0100 MyApp[4100:73] [Process] 0x3 - [PID=4109] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.121000+0100 MyApp[4100:73] [ProcessSuspension] 0x3 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Foreground Assertion' for process with PID=4109
        2025-03-02 10:11:12.124000+0100 MyApp[4100:72] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Client is missing required entitlement" UserInfo={NSLocalizedFailureReason=Client is missing required entitlement}>
        2025-03-02 10:11:12.124010+0100 MyApp[4100:71] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        2025-03-02 10:11:12.124100+0100 MyApp[4100:73] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4109] WebPageProxy::didFinishDocumentLoadForFrame:
        2025-03-02 10:11:12.124200+0100 MyApp[4100:72] [ProcessSuspension] 0x2 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4111, error: (null)
        2025-03-02 10:11:12.124300+0100 MyApp[4100:71] [ProcessSuspension] 0x1 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: (null)
        2025-03-02 10:11:15.000000+0100 MyApp[4100:73] [ProcessSuspension] 0x3 - [PID=4109] ProcessThrottler::didDisconnectFromProcess:

        """#

    /// The app's own loggers in other formats around the WebKit lines, and a copy that cut the year to two digits.
    static let otherFormats = #"""
        flutter: allowing navigation to NavigationRequest(url: https://example.com/)
        [JS LOG]: challenge opened
        2021-10-29 19:54:53 +0000 - [JavaScriptVisit] startVisit()
        ⚡️  [log] - Capacitor: loading
        25-03-02 10:11:12.120000+0100 MyApp[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
        25-03-02 10:11:12.120100+0100 MyApp[4100:99001] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        2025-03-02 10:11:12.124300+0100 MyApp[4100:99002] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}

        """#

    /// A launch followed, in the same app, by `lines`: the quiet cases below are this story with one twist each.
    static func launched(_ lines: String, pid: Int = 4107, at time: String = "10:11:12.120000") -> String {
        """
        2025-03-02 \(time)+0100 MyApp[4100:99001] [Process] 0x10a2b3c40 - [PID=\(pid)] WebProcessProxy::didFinishLaunching:
        2025-03-02 \(time)+0100 MyApp[4100:99001] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=\(pid)
        \(lines)

        """
    }

    /// `ProcessAssertion: Failed to acquire RBS assertion '<name>' for process with PID=<pid>, error: <error>` at `time`.
    static func failure(_ name: String = "WebProcess Foreground Assertion", pid: Int = 4107, error: String = goneError,
                        at time: String = "10:11:12.124300") -> String {
        "2025-03-02 \(time)+0100 MyApp[4100:99002] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion '\(name)' for process with PID=\(pid), error: \(error)"
    }

    static let goneError = #"Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}"#
}
