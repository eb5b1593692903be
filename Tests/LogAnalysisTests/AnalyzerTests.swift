import Foundation
import Glibc
import Events
import Testing

@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
import Vocabulary
@testable import SupervisorTesting

/// One kill before render in each envelope of Sources/LogAnalysis/IOSLogFormats.md: found, with its evidence, and
/// every line either in a record read in that envelope or skipped (the app's own lines, which name nothing WebKit's).
@Suite struct AnalyzerEnvelopes {
    @Test(arguments: [
        ("xcode", Fixture.xcode, LogFormat.xcode, 7, 1),
        ("message-only", Fixture.messageOnly, .messageOnly, 5, 1),
        ("console", Fixture.consoleApp, .consoleApp, 6, 0),
        ("syslog", Fixture.syslog, .syslog, 6, 1),
        ("flutter", Fixture.flutter, .flutter, 10, 1),
        ("pymobiledevice3", Fixture.pymobiledevice3, .xcode, 6, 1),
        ("nserror", Fixture.nsError, .xcode, 9, 0),
    ])
    func findsTheKillBeforeRender(name: String, text: String, format: LogFormat, lines: Int, skipped: Int) throws {
        let report = try analyze(text)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"], "\(name)")
        #expect(report.incidents.first?.rule == .raiseFailedAfterLaunch)
        #expect(report.incidents.first?.seen == .blankView)
        #expect(report.formatLines == [format: lines], "\(name)")
        #expect(report.linesSkipped == skipped)
        #expect(report.formatLines.values.reduce(report.linesSkipped, +) == report.linesRead)
        let evidence = report.incidents.first!.evidence.map { report.place($0.stamp) }
        #expect(evidence.count >= 4 && evidence.allSatisfy { $0.hasPrefix("fixture.log:") })
    }

    @Test func pairsTheRunningBoardErrorWithTheFailureFromTheSameThread() throws {
        let report = try analyze(Fixture.interleaved)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
    }

    @Test func readsTwoDigitYearsAndSkipsTheAppsOwnLines() throws {
        let report = try analyze(Fixture.otherFormats)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.linesSkipped == 4)
        #expect(report.incidents.first.flatMap { report.time($0.firstSeen) } == "2025-03-02 10:11:12.120000+0100")
    }

    @Test func iOS14WordingWithoutEqualsSignAndIOS26PidInTheText() throws {
        let ios14 = Fixture.launched(
            "2025-03-02 10:11:12.124300+0100 MyApp[4100:99002] [ProcessSuspension] 0x1 - ProcessAssertion: Failed to acquire RBS Background assertion 'WebProcess Background Assertion' for process with PID 4107, error: \(Fixture.goneError)")
        // A background assertion says only that the process was gone.
        #expect(try analyze(ios14).summaryOfIncidents == ["4107 gone-when-raised confirmed"])
        let ios26 = Fixture.launched(
            #"2025-03-02 10:11:12.124300+0100 MyApp[4100:99002] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process 4107 does not exist" UserInfo={}>"#)
        // RunningBoard's line names the pid but not the assertion: nothing says it was a foreground raise.
        #expect(try analyze(ios26).incidents.map(\.kind) == [.goneWhenRaised])
    }

    @Test func ourOwnEventLogAndJetsamLogAreTheGroundTruth() throws {
        let events = #"""
            {"time":"2026-11-23T02:30:44.268169Z","mono":1,"event":"spawn","view":44,"pid":3150,"load":43}
            {"time":"2026-11-23T02:30:44.271991Z","mono":2,"event":"death","view":44,"pid":3150,"status":"launch-failed","terminationReason":"evicted-for-memory","signal":9,"reason":"died before hello: killed(SIGKILL)","rendered":false,"attached":false,"spare":false,"band":"background","lifetimeMs":3.8,"cause":"outside"}
            {"time":"2026-11-23T02:30:44.272007Z","mono":3,"event":"unobserved","view":44,"pid":3150}
            {"time":"2026-11-23T02:30:45.000000Z","mono":4,"event":"spawn","view":45,"pid":3151,"load":44}
            {"time":"2026-11-23T02:30:45.100000Z","mono":5,"event":"render","view":45,"pid":3151,"title":"A"}
            {"time":"2026-11-23T02:30:45.200000Z","mono":6,"event":"death","view":45,"pid":3151,"status":"killed","terminationReason":"oom-protected","signal":9,"rendered":true,"attached":true,"spare":false,"band":"foreground","lifetimeMs":200,"cause":"outside"}
            {"time":"2026-11-23T02:30:45.300000Z","mono":7,"event":"spawn","view":46,"pid":3152,"load":45}
            {"time":"2026-11-23T02:30:45.310000Z","mono":8,"event":"kill","view":46,"pid":3152,"reason":"no pong within 1000 ms","verdict":"unresponsive","terminationReason":"unresponsive"}
            {"time":"2026-11-23T02:30:45.320000Z","mono":9,"event":"death","view":46,"pid":3152,"status":"unresponsive","terminationReason":"unresponsive","signal":9,"rendered":false,"attached":true,"spare":false,"band":"foreground","lifetimeMs":20,"cause":"supervisor"}

            """#
        let jetsam = #"{"time":1795400000.5,"mono":5,"event":"jetsam-kill","pid":3151,"band":"foreground","oomScoreAdj":0,"nice":0,"rssBytes":104857600,"totalRSSBytes":104857600,"budgetBytes":1048576,"reason":"rss-over-budget"}"# + "\n"
        let report = try analyze([("run.jsonl", Array(events.utf8)), ("run.jsonl.jetsam.jsonl", Array(jetsam.utf8))])
        #expect(report.summaryOfIncidents == ["3150 killed-before-render confirmed", "3151 killed-after-render confirmed"])
        #expect(report.formatLines == [.eventLog: 9, .jetsamLog: 1])
    }

    /// A record of our logs that does not fit its schema is counted and not read: never read with defaults, so a
    /// death whose status is spelled another way is no death at all, and a Jetsam line that lost a key is no kill.
    @Test func aRecordOfOurLogsOffItsSchemaIsCountedNotRead() throws {
        let death = eventLine("2026-11-23T02:30:44.271991Z", .killed(rendered: false), view: 44, pid: 3150)
        let events = [
            eventLine("2026-11-23T02:30:44.268169Z", .spawn(load: 43, reused: false), view: 44, pid: 3150),
            death.replacingOccurrences(of: #""status":"killed""#, with: #""status":"exploded""#),
            eventLine("2026-11-23T02:30:44.272007Z", .unobserved, view: 44, pid: 3150),
        ].joined(separator: "\n") + "\n"
        let jetsam = #"{"time":1795400000.5,"mono":5,"event":"jetsam-kill","pid":3151,"band":"foreground"}"# + "\n"
        let report = try analyze([("run.jsonl", Array(events.utf8)), ("run.jsonl.jetsam.jsonl", Array(jetsam.utf8))])
        #expect(report.schemaErrors == 2)
        #expect(report.firstSchemaError?.contains("the 'death' event's 'status' is 'exploded'") == true)
        #expect(report.incidents.isEmpty)
    }
}

/// The other ways a WebContent process ends, as the logs tell them.
@Suite struct AnalyzerKinds {
    @Test func killedAfterRenderBySIGKILLOrAMemoryLimit() throws {
        let killed = Fixture.launched("""
            2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didFinishDocumentLoadForFrame:
            2025-03-02 10:11:20.000000+0100 runningboardd[33:1a] [process] [xpcservice<com.apple.WebKit.WebContent([app<application.com.example.MyApp>:4100])(501)>:4107] termination reported by launchd (2, 9, 9)
            2025-03-02 10:11:20.000100+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
            2025-03-02 10:11:20.000200+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::processDidTerminate: (pid 4107), reason=Crash
            """)
        let report = try analyze(killed)
        #expect(report.summaryOfIncidents == ["4107 killed-after-render confirmed"])
        #expect(report.incidents.first?.seen == .reload)
        let memory = "WebProcessProxy::didExceedInactiveMemoryLimit() Terminating WebProcess with pid 92583 that has exceeded the inactive memory limit\n"
        #expect(try analyze(memory).summaryOfIncidents == ["92583 killed-after-render confirmed"])
    }

    /// Only WebKit's terminating lines end a process: a footprint threshold warns, and a process over the CPU limit
    /// with a visible page is left alone (WebProcessProxy.cpp, `didExceedCPULimit`).
    @Test func aLimitLineThatTerminatesNothingEndsNothing() throws {
        let spared = """
            2025-03-02 10:11:20.000000+0100 MyApp[4100:99001] [PerformanceLogging] 0x1 - [PID=4107] WebProcessProxy::didExceedMemoryFootprintThreshold: WebProcess exceeded notification threshold (current footprint: 300 MB)
            2025-03-02 10:11:21.000000+0100 MyApp[4100:99001] [PerformanceLogging] 0x1 - [PID=4107] WebProcessProxy::didExceedCPULimit: WebProcess has exceeded the background CPU limit but we are not terminating it because it has a visible page
            """
        #expect(try analyze(Fixture.launched(spared)).incidents.isEmpty)
        let ended = Fixture.launched("""
            2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didFinishDocumentLoadForFrame:
            2025-03-02 10:11:22.000000+0100 MyApp[4100:99001] [PerformanceLogging] 0x1 - [PID=4107] WebProcessProxy::didExceedCPULimit: Terminating background WebProcess that has exceeded the background CPU limit
            """)
        #expect(try analyze(ended).incidents.count == 1)
    }

    /// Numeric reasons changed meaning across WebKit versions: a sibling line of the same burst decodes them.
    @Test func aNumericReasonIsDecodedFromASiblingLine() throws {
        let decoded = Fixture.launched("""
            2025-03-02 10:11:20.000000+0100 MyApp[4100:99001] [Process] 0x1 - [pageProxyID=5, webPageID=6, PID=4107] WebPageProxy::processDidTerminate: (pid 4107), reason 4
            2025-03-02 10:11:20.001000+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=5, webPageID=6, PID=4107] WebPageProxy::dispatchProcessDidTerminate: reason=Crash
            """)
        #expect(try analyze(decoded).summaryOfIncidents == ["4107 crash likely"])
        let alone = Fixture.launched(
            "2025-03-02 10:11:20.000000+0100 MyApp[4100:99001] [Process] 0x1 - [pageProxyID=5, webPageID=6, PID=4107] WebPageProxy::processDidTerminate: (pid 4107), reason 4")
        let report = try analyze(alone)
        #expect(report.summaryOfIncidents == ["4107 crash possible"])
        #expect(report.incidents.first?.detail
            == "reason=4, undecoded (NavigationSwap up to WebKit 612, Unresponsive from WebKit 621; the input names no iOS version)")
    }

    @Test func aCrashReportedWithItsSignal() throws {
        let text = Fixture.launched("""
            2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didFinishDocumentLoadForFrame:
            2025-03-02 10:11:13.000000+0100 runningboardd[33:1a] [process] [xpcservice<com.apple.WebKit.WebContent([app<application.com.example.MyApp>:4100])(501)>:4107] termination reported by launchd (2, 11, 11)
            2025-03-02 10:11:13.000100+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
            """)
        #expect(try analyze(text).summaryOfIncidents == ["4107 crash confirmed"])
    }

    @Test func launchFailedAndGPUProcessCrashNameNoWebContentPid() throws {
        let text = """
            0x115002300 - [PID=0] WebProcessProxy::didFinishLaunching: Invalid connection identifier (web process failed to launch)
            HMR: connected
            0x115002300 - GPUProcessProxy::didClose:
            0x115002300 - GPUProcessProxy::gpuProcessExited: reason=Crash
            0x115009230 - [PID=14401] WebProcessProxy::gpuProcessExited: reason=Crash
            0x11500a230 - [PID=14402] WebProcessProxy::gpuProcessExited: reason=Crash

            """
        let report = try analyze(text)
        #expect(report.summaryOfIncidents == ["- launch-failed confirmed", "- gpu-process-crash confirmed"])
        #expect(report.incidents.map(\.seen) == [.blankView, .none])
    }

    @Test func anUnpairedRBSErrorNearANewProcessDeathIsLikely() throws {
        let text = Fixture.launched("""
            2025-03-02 10:11:12.300000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
            2025-03-02 10:11:12.301000+0100 MyApp[4100:99005] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={}>
            """)
        let report = try analyze(text)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render likely"])
        #expect(report.incidents.first?.rule == .unpairedErrorAfterLaunch)
    }

    /// Raising a process after its page was told it died is WebKit catching up, not the seed's silent death.
    @Test func aRaiseAfterThePageWasToldIsNotAKillBeforeRender() throws {
        let text = Fixture.launched("""
            2025-03-02 10:11:12.124000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
            2025-03-02 10:11:12.124100+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::processDidTerminate: (pid 4107), reason=Crash
            \(Fixture.failure())
            """)
        let report = try analyze(text)
        #expect(report.incidents.map(\.kind) == [.killedAfterRender])
        #expect(report.incidents.first?.seen == .reload)
    }

    @Test func theTimelineTellsThePidsStoryWithGaps() throws {
        let report = try analyze(Fixture.xcode, story: 4107)
        let story = report.story(of: 4107)
        #expect(story.contains("pid 4107: killed-before-render (confirmed, rule raise-failed-after-launch)"))
        #expect(story.contains("launched"))
        #expect(story.contains("foreground assertion failed: code 2, the process does not exist"))
        #expect(story.contains("+275.7 ms  fixture.log:7"))
        #expect(story.contains("fixture.log:5") && story.contains("[assertion] Error acquiring assertion"))
        #expect(try analyze(Fixture.xcode, story: 999).story(of: 999) == "No line in the input names pid 999.")
    }
}

/// A run's event log and its iOS log read together tell each death once.
@Suite struct AnalyzerMerging {
    /// The worker said hello before the race's SIGKILL, and the supervisor read it after dealing the kill: the
    /// event log has the kill before the hello, and the iOS log tells that hello as `didConnectToProcess`, a launch.
    /// A launch so soon after a kill that only the killer told is the same process finishing its launch, not a new
    /// one with the same pid.
    @Test func aHelloReadAfterTheKillIsTheSameProcess() throws {
        let events = [
            #"{"time":"2026-11-24T16:13:53.018210Z","mono":1,"event":"spawn","view":69,"pid":887,"load":56}"#,
            #"{"time":"2026-11-24T16:13:53.018259Z","mono":2,"event":"priority","view":69,"pid":887,"band":"background","nice":10,"oomScoreAdj":900,"result":"ok"}"#,
            #"{"time":"2026-11-24T16:13:53.018365Z","mono":3,"event":"inject","view":69,"pid":887,"kind":"race","oomScoreAdj":900}"#,
            #"{"time":"2026-11-24T16:13:53.018617Z","mono":4,"event":"hello","view":69,"pid":887,"spawnToHelloMs":3.088,"sandbox":"installed"}"#,
            #"{"time":"2026-11-24T16:13:53.018774Z","mono":5,"event":"death","view":69,"pid":887,"status":"killed","terminationReason":"evicted-for-memory","signal":9,"rendered":false,"attached":false,"spare":false,"band":"background","lifetimeMs":3.266,"cause":"injected"}"#,
            #"{"time":"2026-11-24T16:13:53.018819Z","mono":6,"event":"unobserved","view":69,"pid":887}"#,
            #"{"time":"2026-11-24T16:13:53.022824Z","mono":7,"event":"attach","view":69,"pid":887}"#,
            #"{"time":"2026-11-24T16:13:53.022840Z","mono":8,"event":"priority","view":69,"pid":887,"band":"foreground","nice":0,"oomScoreAdj":0,"result":"ESRCH"}"#,
        ]
        let error = #"Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}"#
        let ios = [
            "16:13:53.018210+0000 MyApp[817:817] [Process] 0x10c43770 - [PID=887] WebProcessProxy::didFinishLaunching:",
            "16:13:53.018259+0000 MyApp[817:817] [ProcessSuspension] 0x10c43770 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=887",
            "16:13:53.018617+0000 MyApp[817:817] [ProcessSuspension] 0x10c43770 - [PID=887] ProcessThrottler::didConnectToProcess:",
            "16:13:53.018774+0000 MyApp[817:817] [Process] 0x10c43770 - [PID=887] WebProcessProxy::didClose: (web process 0 crash)",
            "16:13:53.018774+0000 MyApp[817:817] [Process] 0x10c43770 - [PID=887] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash",
            "16:13:53.022840+0000 MyApp[817:817] [assertion] Error acquiring assertion: <\(error)>",
            "16:13:53.022840+0000 MyApp[817:817] [ProcessSuspension] 0x10c43770 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=887, error: \(error)",
        ].map { "2026-11-24 " + $0 }
        let report = try analyze([
            ("run.jsonl", Array((events.joined(separator: "\n") + "\n").utf8)),
            ("run.jsonl.ios.log", Array((ios.joined(separator: "\n") + "\n").utf8)),
        ])
        #expect(report.summaryOfIncidents == ["887 killed-before-render confirmed"])
        // Both files' lines are its evidence.
        #expect(Set(report.incidents.flatMap { $0.evidence.map(\.stamp.file) }).count == 2)
    }
}
