import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 29, item 1: a crash report of a SIGKILL is a report of a kill. Beside the seed's signature it confirms the
/// kill before render and says RunningBoard's reason, decoded; alone it is a kill, never a crash.
@Suite struct KillReports {
    /// WebContent pid 4107 killed by RunningBoard, as an older `.crash` writes it, at the moment of the Xcode fixture.
    static let textKill = """
        Incident Identifier: 7A1B2C3D-0000-4000-8000-00000000B001
        Hardware Model:      iPhone12,1
        Process:             com.apple.WebKit.WebContent [4107]
        Path:                /System/Library/Frameworks/WebKit.framework/XPCServices/com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent
        Identifier:          com.apple.WebKit.WebContent
        Parent Process:      launchd [1]
        Responsible:         My App [4100]
        Date/Time:           2025-03-02 10:11:12.3000 +0100
        OS Version:          iPhone OS 17.4 (21E219)
        Report Version:      104

        Exception Type:  EXC_CRASH (SIGKILL)
        Exception Codes: 0x0000000000000000, 0x0000000000000000
        Termination Reason: RUNNINGBOARD 0xdead10cc

        Triggered by Thread:  0

        """

    /// The same kill as a JSON `.ips`: the termination's code written as a number, as these reports do.
    static let ipsKill = #"""
        {"app_name":"com.apple.WebKit.WebContent","timestamp":"2025-03-02 10:11:12.30 +0100","bundleID":"com.apple.WebKit.WebContent","bug_type":"309","os_version":"iPhone OS 18.1 (22B83)","incident_id":"7A1B2C3D-0000-4000-8000-00000000B002"}
        {
          "pid" : 4107,
          "procName" : "com.apple.WebKit.WebContent",
          "parentProc" : "launchd",
          "parentPid" : 1,
          "responsibleProc" : "My App",
          "responsiblePid" : 4100,
          "captureTime" : "2025-03-02 10:11:12.3000 +0100",
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGKILL"},
          "termination" : {"flags":6,"code":3735883980,"namespace":"RUNNINGBOARD","indicator":"dead10cc"},
          "faultingThread" : 0
        }
        """#

    @Test(arguments: [("kill.crash", textKill), ("kill.ips", ipsKill)])
    func aSIGKILLReportConfirmsTheKillBeforeRenderAndSaysRunningBoardsReason(name: String, text: String) throws {
        let report = try analyze([("console.log", Array(Fixture.xcode.utf8)), (name, Array(text.utf8))])
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.count(.killedBeforeRender, atLeast: .likely) == 1, "--fail-on killed-before-render:likely counts it")
        #expect(report.count(.crash) == 0)
        let detail = try #require(report.incidents.first?.detail)
        #expect(detail.contains("killed: EXC_CRASH (SIGKILL), per its crash report; its termination reason: "
            + "RUNNINGBOARD 0xdead10cc: held a file or database lock while suspended"), "\(detail)")
        #expect(report.verdict.hasPrefix("1 kill-before-render incident: pid 4107"), "\(report.verdict)")
    }

    @Test(arguments: [("kill.crash", textKill), ("kill.ips", ipsKill)])
    func aSIGKILLReportAloneIsAKillNotACrash(name: String, text: String) throws {
        let report = try analyze([(name, Array(text.utf8))])
        #expect(report.summaryOfIncidents == ["4107 killed confirmed"])
        let incident = try #require(report.incidents.first)
        #expect(incident.rule == .crashReport && incident.seen == .unknown)
        #expect(incident.detail.hasPrefix("killed: EXC_CRASH (SIGKILL)"), "\(incident.detail)")
        #expect(report.verdict == "No kill-before-render incident; killed: 1.")
    }

    /// A report of any other signal is still a crash: the kill is read from the signal, not from any report.
    @Test func aSIGSEGVReportBesideTheSignatureIsStillACrash() throws {
        let segv = Self.textKill.replacingOccurrences(of: "EXC_CRASH (SIGKILL)", with: "EXC_BAD_ACCESS (SIGSEGV)")
        let report = try analyze([("console.log", Array(Fixture.xcode.utf8)), ("segv.crash", Array(segv.utf8))])
        #expect(report.summaryOfIncidents == ["4107 crash confirmed"])
    }
}

/// Issue 29, item 9(b): a WebContent crash report alone says nothing of the view, so what the user saw is unknown,
/// as a Jetsam report alone already says; a process seen from its launch and never used saw nothing.
@Suite struct CrashReportAlone {
    @Test func aWebContentCrashReportAloneLeavesWhatTheUserSawUnknown() throws {
        let report = try analyze([("x.ips", Array(ReportFixture.webContentIPS.utf8))])
        #expect(report.summaryOfIncidents == ["4107 crash confirmed"])
        #expect(report.incidents.first?.userSaw == "unknown")
        #expect(report.text.contains(" unknown "), "\(report.text)")
    }

    @Test func aProcessSeenFromItsLaunchAndNeverUsedSawNothing() throws {
        let log = Fixture.launched(
            "2025-03-02 10:11:13.000000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)")
        let report = try analyze(log)
        #expect(report.summaryOfIncidents == ["4107 crash likely"])
        #expect(report.incidents.first?.userSaw == "none")
    }
}
