import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 17's must-show: a sysdiagnose with a crash report, a JetsamEvent naming a WebContent pid, and exported logs
/// is one confirmed incident whose evidence spans three files: the app's WebKit lines say a new process died with an
/// RBS error naming no pid (likely, on their own), runningboardd's say launchd reported it killed, and the
/// JetsamEvent says why. The crash report is another process's and makes no incident.
enum JoinFixture {
    static let name = "sysdiagnose_2026.03.02_10-11-20-0800_iPhone-OS_iPhone_22B83"

    /// `log show --style syslog`, exported from the device's unified log.
    static let webKit = #"""
        2026-03-02 10:11:12.100000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] 0x10a2 - [PID=4107] WebProcessProxy::didFinishLaunching:
        2026-03-02 10:11:12.100200-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:ProcessSuspension] 0x10a2 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
        2026-03-02 10:11:12.950000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] 0x10a2 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
        2026-03-02 10:11:12.951000-0800  localhost MyApp[4100]: (RunningBoardServices) [com.apple.runningboard:assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>

        """#

    /// runningboardd's own lines, exported the same way.
    static let runningBoard = #"""
        2026-03-02 10:11:12.949000-0800  localhost runningboardd[33]: (RunningBoard) [com.apple.runningboard:process] [xpcservice<com.apple.WebKit.WebContent([app<application.com.example.MyApp>:4100])(501)>:4107] termination reported by launchd (2, 9, 9)

        """#

    /// A daemon's crash: read, and no WebContent incident.
    static let daemonCrash = #"""
        {"app_name":"locationd","timestamp":"2026-03-02 10:05:00.00 -0800","bug_type":"309","os_version":"iPhone OS 18.1 (22B83)","incident_id":"7A1B2C3D-0000-4000-8000-00000000B001"}
        {
          "pid" : 77,
          "procName" : "locationd",
          "procPath" : "\/usr\/libexec\/locationd",
          "parentProc" : "launchd",
          "parentPid" : 1,
          "captureTime" : "2026-03-02 10:04:59.9000 -0800",
          "exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGBUS"},
          "termination" : {"code":10,"namespace":"SIGNAL","indicator":"Bus error: 10"}
        }
        """#

    /// Writes the sysdiagnose's folder under `folder`.
    static func write(in folder: TemporaryFolder) throws {
        let root = folder.path + "/" + name
        for directory in ["crashes_and_spins", "logs", "RunningBoard", "system_logs.logarchive/00"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
        }
        let files = [
            "crashes_and_spins/JetsamEvent-2026-03-02-101113.ips": ReportFixture.jetsam,
            "crashes_and_spins/locationd-2026-03-02-100500.ips": daemonCrash,
            "logs/WebKit.log": webKit, "RunningBoard/runningboardd.log": runningBoard,
        ]
        for (path, text) in files { try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8) }
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            .write(to: URL(fileURLWithPath: root + "/system_logs.logarchive/00/0000000000000001.tracev3"))
    }
}

extension Processes {
    @Suite struct SysdiagnoseJoin {
        @Test(arguments: [false, true])
        func aJetsamReportConfirmsTheKillAndSaysWhy(packed: Bool) throws {
            let folder = try TemporaryFolder([:])
            try JoinFixture.write(in: folder)
            var input = folder.path + "/" + JoinFixture.name
            if packed {
                let tarred = try runCommand("/usr/bin/tar", ["-C", folder.path, "-czf", folder.path + "/sd.tar.gz", JoinFixture.name])
                try #require(tarred.status == 0, "\(tarred.stderr)")
                input = folder.path + "/sd.tar.gz"
            }
            let result = try runSupervisor(["analyze", input, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let incidents = try #require(json["incidents"] as? [[String: Any]])
            try #require(incidents.count == 1, "\(result.stdout)")
            let incident = incidents[0]
            #expect(incident["pid"] as? Int == 4107)
            #expect(incident["kind"] as? String == "killed-before-render")
            #expect(incident["confidence"] as? String == "confirmed", "the Jetsam report makes the likely kill certain")
            #expect((incident["detail"] as? String)?.contains("killed by Jetsam (per-process-limit, 2,210 pages = 34.5 MiB)") == true,
                    "\(incident)")
            let evidence = try #require(incident["evidence"] as? [String])
            let files = Set(evidence.map { String($0[..<$0.lastIndex(of: ":")!]) })
            #expect(files.count == 3, "\(evidence)")
            #expect(files.contains { $0.hasSuffix("JetsamEvent-2026-03-02-101113.ips") })
            #expect(files.contains { $0.hasSuffix("logs/WebKit.log") } && files.contains { $0.hasSuffix("runningboardd.log") })
            #expect(childProcesses().isEmpty)
        }

        /// Without the Jetsam report the same logs are only likely: the report is what confirms.
        @Test func withoutTheJetsamReportTheKillIsOnlyLikely() throws {
            let folder = try TemporaryFolder(["WebKit.log": JoinFixture.webKit, "runningboardd.log": JoinFixture.runningBoard])
            let result = try runSupervisor(["analyze", folder.path, "--json"])
            #expect(result.stdout.contains(#""pid":4107,"kind":"killed-before-render","confidence":"likely""#), "\(result.stdout)")
        }

        /// A WebContent crash report joins the log's "reported as a crash" and says what the crash was; the host
        /// app's own crash report is the app crashing, not a WebContent incident.
        @Test func aCrashReportConfirmsTheCrashAndTheHostAppsIsItsOwn() throws {
            let log = """
                2026-03-02 10:11:10.600000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:
                2026-03-02 10:11:11.000000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1
                2026-03-02 10:11:13.100000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

                """
            let alone = try runSupervisor(["analyze", "-", "--json"], input: log)
            #expect(alone.stdout.contains(#""kind":"crash","confidence":"likely""#), "\(alone.stdout)")
            // Another app's crash (another pid, name and coalition), as a sysdiagnose holds many: not the view's story.
            let otherApp = ReportFixture.hostAppIPS.replacingOccurrences(of: "MyApp", with: "OtherApp")
                .replacingOccurrences(of: "4100", with: "5100").replacingOccurrences(of: "977", with: "12")
            let folder = try TemporaryFolder([
                "a.log": log, "b.ips": ReportFixture.webContentIPS, "c.ips": ReportFixture.hostAppIPS, "d.ips": otherApp,
            ])
            let result = try runSupervisor(["analyze", folder.path, "--json"])
            #expect(result.stdout.contains(#""pid":4107,"kind":"crash","confidence":"confirmed","rule":"crash-report""#), "\(result.stdout)")
            #expect(result.stdout.contains("crashed: EXC_BAD_ACCESS (SIGSEGV), per its crash report"))
            #expect(result.stdout.contains(#""pid":4100,"kind":"host-app-crash","confidence":"confirmed""#))
            #expect(result.stdout.contains("MyApp crashed: EXC_CRASH (SIGABRT), per its crash report; not a WebContent process"))
            #expect(result.stdout.components(separatedBy: #""kind":"#).count == 3, "one incident each, no more")
        }
    }
}
