import Testing
import Vocabulary

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 33, item 4: a crash report's termination reason decoded in every shape reports have written it in, and
/// what each namespace makes of the death: a kill by the system, a signal, or WebKit's own kill.
@Suite struct TerminationNamespaces {
    @Test(arguments: [
        // iOS 13–14's text, iOS 15's (hex, a trailing space), FrontBoard's code in decimal, iOS 11's namespace number.
        ("Namespace RUNNINGBOARD, Code 0xdead10cc", "RUNNINGBOARD 0xdead10cc: held a file or database lock while suspended", true),
        ("RUNNINGBOARD 0xdead10cc ", "RUNNINGBOARD 0xdead10cc: held a file or database lock while suspended", true),
        ("RUNNINGBOARD 0x2182bad2", "RUNNINGBOARD 0x2182bad2: a background task ran out of time", true),
        ("RUNNINGBOARD 0x2182bad3", "RUNNINGBOARD 0x2182bad3: a background URL session ran out of time", true),
        ("RUNNINGBOARD 0x2182bad4", "RUNNINGBOARD 0x2182bad4: a background fetch ran out of time", true),
        ("FRONTBOARD 2343432205 ", "FRONTBOARD 0x8badf00d: the watchdog: too long without answering", true),
        ("Namespace SPRINGBOARD, Code 0x8badf00d", "SPRINGBOARD 0x8badf00d: the watchdog: too long without answering", true),
        ("Namespace <0xF>, Code 0x8badf00d", "RUNNINGBOARD 0x8badf00d: the watchdog: too long without answering", true),
        ("Namespace ASSERTIOND, Code 0x8badf00d", "ASSERTIOND 0x8badf00d: the watchdog: too long without answering", true),
        // The JSON report's parts, joined: the code in decimal, then the indicator.
        ("Namespace JETSAM, Code 7, per-process-limit", "JETSAM 0x7: killed for memory", true),
        ("SIGNAL 9 Killed: 9", "SIGNAL 9: SIGKILL", true),
        ("Namespace SIGNAL, Code 11", "SIGNAL 11: SIGSEGV", false),
        ("SIGNAL 5 Trace/BPT trap: 5", "SIGNAL 5: SIGTRAP", false),
        ("Namespace WEBKIT, Code 0x2", "WEBKIT 0x2: killed by WebKit's UI process (an invalid IPC message or an unanswered watchdog)", true),
        ("Namespace CODESIGNING, Code 0x2", "CODESIGNING 0x2", false),
    ])
    func decodesEachShape(text: String, words: String, kill: Bool) throws {
        let termination = try #require(ReportedTermination(text))
        #expect(termination.words == words)
        #expect(termination.isKill == kill, "\(text)")
    }

    /// A crash report with no signal word but RunningBoard's watchdog code: a kill, not a crash.
    @Test func aWatchdogCodeMakesTheReportAKill() throws {
        let report = KillReports.textKill.replacingOccurrences(of: "EXC_CRASH (SIGKILL)", with: "EXC_CRASH")
            .replacingOccurrences(of: "RUNNINGBOARD 0xdead10cc", with: "FRONTBOARD 2343432205 ")
        let found = try analyze([("watchdog.crash", Array(report.utf8))])
        #expect(found.summaryOfIncidents == ["4107 killed confirmed"])
        #expect(found.incidents.first?.detail.contains("FRONTBOARD 0x8badf00d: the watchdog") == true)
    }

    /// WebKit's UI process killed the process for an invalid IPC message (namespace WEBKIT): WebKit's own teardown,
    /// as the supervisor's kill of a worker that broke the protocol is ours. No incident, beside the log or alone.
    @Test func aWebKitKillIsNoIncident() throws {
        let report = KillReports.ipsKill.replacingOccurrences(of: #""code":3735883980,"namespace":"RUNNINGBOARD","indicator":"dead10cc""#,
                                                             with: #""code":2,"namespace":"WEBKIT""#)
        #expect(report != KillReports.ipsKill)
        #expect(try analyze([("webkit.ips", Array(report.utf8))]).incidents.isEmpty)
        let rendered = Fixture.launched(
            "2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didCommitLoadForFrame:")
        #expect(try analyze([("console.log", Array(rendered.utf8)), ("webkit.ips", Array(report.utf8))]).incidents.isEmpty)
    }
}

/// Issue 33, item 4: WebKit's 14 termination reasons read by name, and a reason written as a number read in the
/// numbering of the WebKit the input's iOS version carries.
@Suite struct WebKitTerminationReasons {
    /// A process that rendered, then ended for `reason`.
    static func ended(_ reason: String) -> String {
        Fixture.launched("""
            2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didCommitLoadForFrame:
            2025-03-02 10:11:13.000000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=\(reason)
            """)
    }

    @Test(arguments: [
        ("ExceededMemoryLimit", ["4107 killed-after-render confirmed"]), ("ExceededCPULimit", ["4107 killed-after-render confirmed"]),
        ("RequestedByClient", []), ("IdleExit", []), ("Unresponsive", []), ("Crash", ["4107 crash likely"]),
        ("ExceededProcessCountLimit", []), ("NavigationSwap", []), ("RequestedByNetworkProcess", []),
        ("RequestedByGPUProcess", []), ("RequestedByModelProcess", []), ("GPUProcessCrashedTooManyTimes", []),
        ("ModelProcessCrashedTooManyTimes", []), ("NonMainFrameWebContentProcessCrash", ["4107 crash likely"]),
    ])
    func eachReasonByName(name: String, incidents: [String]) throws {
        #expect(try analyze(Self.ended(name)).summaryOfIncidents == incidents, "\(name)")
    }

    /// A crash report of another process names the device's OS, as sysdiagnose bundles hold many.
    static func report(os: String) -> (String, [UInt8]) {
        ("other.crash", Array("""
            Process:             mediaserverd [200]
            Path:                /usr/sbin/mediaserverd
            Date/Time:           2025-03-02 10:11:20.0000 +0100
            OS Version:          \(os)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)

            """.utf8))
    }

    @Test func aNumberIsReadInTheNumberingOfTheDevicesWebKit() throws {
        let log = ("console.log", Array(Self.ended("3").utf8))
        // iOS 15.2 carries WebKit 612, where 3 is Crash; iOS 16.1 carries 614, where 3 is IdleExit, WebKit's own end.
        let ios15 = try analyze([log, Self.report(os: "iPhone OS 15.2 (19C56)")])
        #expect(ios15.summaryOfIncidents == ["4107 crash likely"])
        #expect(ios15.incidents.first?.detail == "reported as a crash (reason=3 in WebKit 612's numbering, iOS 15.2 in a report)")
        #expect(try analyze([log, Self.report(os: "iPhone OS 16.1 (20B82)")]).summaryOfIncidents == [])
        // No version: what 3 means at either end of WebKit's history, and why it stays undecoded.
        let unknown = try analyze([log])
        #expect(unknown.summaryOfIncidents == ["4107 crash possible"])
        #expect(unknown.incidents.first?.detail
            == "reason=3, undecoded (Crash up to WebKit 612, IdleExit from WebKit 621; the input names no iOS version)")
        // 0 to 2 mean the same in every WebKit: the memory limit needs no version.
        #expect(try analyze([("console.log", Array(Self.ended("0").utf8))]).summaryOfIncidents == ["4107 killed-after-render confirmed"])
    }

    @Test func buildsAndVersionsNameTheirWebKit() {
        #expect(WebKitRelease.iOSVersion(build: "19E258")! == (15, 4))
        #expect(WebKitRelease.iOSVersion(build: "23B85")! == (26, 1))
        #expect(WebKitRelease.iOSVersion(os: "iPhone OS 18.1 (22B83)")! == (18, 1))
        #expect(WebKitRelease.iOSVersion(os: "iOS 17.4")! == (17, 4))
        #expect(WebKitRelease.iOSVersion(os: "macOS 14.3 (23D56)") == nil)
        #expect([(15, 4), (16, 0), (17, 4), (18, 2), (18, 5), (26, 0)].map { WebKitRelease.major(iOS: $0, minor: $1) }
            == [613, 614, 618, 620, 621, 622])
        #expect(WebKitRelease.reasonNumbering(webKit: 621)?.count == 14)
        #expect(WebKitRelease.reasonNumbering(webKit: 613) == nil)
        #expect(Set(WebKitRelease.reasonNumbering(webKit: 621)!.map(\.webKitName)).count == 14)
    }
}

/// Issue 33, item 4: the app's notice of a navigation whose process ended, and the race's macOS form.
@Suite struct AppSideAndMacOSForms {
    static let wkError = #"Error Domain=WKErrorDomain Code=2 "The Web Content process was terminated" UserInfo={NSLocalizedDescription=The Web Content process was terminated}"#

    /// `WKErrorDomain Code=2` alone, as an app logs its failed navigation, or as webview_flutter names it: an
    /// incident of its own, with no pid and no cause; beside WebKit's own lines of that death, nothing more.
    @Test func theAppsNoticeAloneIsAnIncidentOfItsOwn() throws {
        let native = "2025-03-02 10:11:12.500000+0100 MyApp[4100:99001] [App] load failed: \(Self.wkError)\n"
        let flutter = #"flutter: Error: 2, WebResourceErrorType.webContentProcessTerminated, WKErrorDomain, Error Domain=WKErrorDomain Code=2 "(null)""# + "\n"
        for text in [native, flutter] {
            let report = try analyze(text)
            #expect(report.summaryOfIncidents == ["- terminated-during-navigation likely"], "\(text)")
            #expect(report.incidents.first?.rule == .navigationError)
        }
        #expect(try analyze(Fixture.xcode + native).summaryOfIncidents == ["4107 killed-before-render confirmed"])
        // Another code of the domain is another failure.
        #expect(try analyze(native.replacingOccurrences(of: "Code=2", with: "Code=3")).incidents.isEmpty)
    }

    static let serviceError = #"Error Domain=RBSServiceErrorDomain Code=1 "target is not running or doesn't have entitlement com.apple.runningboard.assertions.webkit" UserInfo={NSLocalizedFailureReason=target is not running or doesn't have entitlement com.apple.runningboard.assertions.webkit}"#

    /// macOS says `RBSServiceErrorDomain Code=1` where iOS says the target does not exist: with the process's end
    /// in the same burst it is the race; alone, as every assertion of an app without the entitlement fails, nothing.
    @Test func theRacesMacOSForm() throws {
        let race = Fixture.launched(Fixture.failure(error: Self.serviceError) + "\n"
            + "2025-03-02 10:11:12.400000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash")
        let report = try analyze(race)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render likely"])
        let noise = Fixture.launched(
            "2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didCommitLoadForFrame:\n"
                + Fixture.failure("WebProcess Suspended Assertion", error: Self.serviceError, at: "10:11:13.000000"))
        #expect(try analyze(noise).incidents.isEmpty)
    }
}
