import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 33, item 5: the rest of a sysdiagnose (ps.txt, crashes_and_spins.log) and older or mangled shapes (iOS 9–10
/// syslog lines, WebKit2's `WebProcess`, reports quoted in an e-mail or without their header lines), each read.
@Suite struct SysdiagnoseShapes {
    static let sysdiagnose = "sysdiagnose_2025.03.02_10-20-00+0100_iPhone-OS_iPhone_22B83"

    /// `ps axwww -o user,uid,prsna,pid,ppid,flags,%cpu,%mem,pri,ni,vsz,rss,wchan,tt,stat,start,time,command`: launchd,
    /// WebContent 4107 and 4120 (as an ExtensionKit extension), a command with spaces.
    static func listing(_ pids: [Int]) -> String {
        var text = """
            USER               UID PRSNA   PID  PPID        F  %CPU %MEM PRI NI       VSZ    RSS WCHAN    TT  STAT STARTED      TIME COMMAND
            root                 0     -     1     0     4004   0.0  0.2  37  0 408963232  12336 -        ??  Ss    9:12AM   0:41.37 /sbin/launchd
            mobile             501     -  4100     1     4004   1.2  2.9  47  0 410117488 184320 -        ??  Ss   10:10AM   0:12.01 /private/var/containers/Bundle/Application/5F2C9A1E/My App.app/My App -launched

            """
        for pid in pids {
            text += "mobile             501     -  \(pid)     1     4004   0.0  0.7  4  0 409000000  46284 -        ??  Ss   10:10AM   0:01.20 "
                + "/System/Library/ExtensionKit/Extensions/WebContentExtension.appex/com.apple.WebKit.WebContent\n"
        }
        return text
    }

    @Test func aListingsRowsAreReadColumnByColumn() {
        let listing = ProcessListing(Array(Self.listing([4107, 4120]).utf8))
        #expect(listing.pids == [1, 4100, 4107, 4120])
        #expect(listing.webContent.map(\.pid) == [4107, 4120])
        #expect(listing.webContent.first.map(ProcessListing.words) == "4107 (priority 4, 45.2 MiB)")
        #expect(ProcessListing.looksLike(Array(Self.listing([]).utf8)))
        #expect(!ProcessListing.looksLike(Array("USER said: PID and COMMAND\n".utf8)))
        #expect(SysdiagnoseName.parse("x/\(Self.sysdiagnose)/ps.txt")?.build == "22B83")
        #expect(SysdiagnoseName.parse(Self.sysdiagnose)?.time == 1_740_907_200_000_000)
    }

    /// A process gone when raised, by the logs' word alone: listed alive at capture, it was not gone, and the
    /// incident is withdrawn with a note; not listed, it was gone by then, as its detail says.
    @Test func psTxtSaysWhichGoneProcessesWereNot() throws {
        let log = Fixture.launched(Fixture.failure("WebProcess Background Assertion",
            error: #"Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={}"#))
        let gone = try analyze(log)
        try #require(gone.summaryOfIncidents == ["4107 gone-when-raised confirmed"])
        // A confirmed end stands; an inferred one (macOS's ambiguous error beside an end) is what a listing can undo.
        let vague = Fixture.launched(Fixture.failure(error: AppSideAndMacOSForms.serviceError) + "\n"
            + "2025-03-02 10:11:12.400000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash")
        try #require(try analyze(vague).summaryOfIncidents == ["4107 killed-before-render likely"])
        let ps = "\(Self.sysdiagnose)/ps.txt"
        let alive = try analyzeNoting([("a.log", Array(vague.utf8)), (ps, Array(Self.listing([4107]).utf8))])
        #expect(alive.report.incidents.isEmpty, "\(alive.report.summaryOfIncidents)")
        #expect(alive.notes.contains { $0.contains("1 WebContent process alive at capture: 4107 (priority 4, 45.2 MiB)")
            && $0.contains("withdrawn, as alive: 4107") }, "\(alive.notes)")
        let absent = try analyzeNoting([("a.log", Array(log.utf8)), (ps, Array(Self.listing([4120]).utf8))])
        #expect(absent.report.summaryOfIncidents == ["4107 gone-when-raised confirmed"])
        #expect(absent.report.incidents.first?.detail.hasSuffix("; gone by capture (ps.txt)") == true)
    }

    @Test func crashesAndSpinsSaysWhichReportsStayedOnTheDevice() throws {
        let summary = """

            APPLYING PREDICATE (NOT lastPathComponent BEGINSWITH "stacks-") AND (lastPathComponent ENDSWITH "ips"):
            /private/var/mobile/Library/Logs/CrashReporter/JetsamEvent-2025-03-01-101655.ips, File past date limit
            /private/var/mobile/Library/Logs/CrashReporter/JetsamEvent-2025-03-02-101113.ips, Added to Candidate logs
            /private/var/mobile/Library/Logs/CrashReporter/locationd-2025-03-01-101655.ips, File past date limit


            ENFORCING SIZE LIMIT OF 20 MB ON FILTERED CANDIDATES:

            /var/mobile/Library/Logs/CrashReporter/JetsamEvent-2025-03-02-101113.ips, Added

            ** DONE Enforcing size limit **

            """
        let read = try analyzeNoting([("summaries/crashes_and_spins.log", Array(summary.utf8))])
        #expect(read.notes == ["summaries/crashes_and_spins.log: 1 WebContent or Jetsam report left on the device, "
            + "not in the bundle: JetsamEvent-2025-03-01-101655.ips (file past date limit)"], "\(read.notes)")
        #expect(read.report.formatLines == [.diagnosticReport: summary.utf8.count { $0 == 10 }])
    }

    /// iOS 9–10: the kernel's jetsam snapshot as a WebContent process is reported terminated is a kill, with the pid
    /// or without; a termination alone is no incident.
    @Test func iOS10SyslogLinesTellAKill() throws {
        let lines = """
            Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x10a2b3c40 - ProcessThrottler::didConnectToProcess(4107)
            Mar  2 10:11:14 iPhone kernel[0] <Notice>: jetsam: kernel termination snapshot being created
            Mar  2 10:11:14 iPhone SpringBoard[58] <Notice>: process com.apple.WebKit.WebContent[4107] is now terminated

            """
        #expect(try analyze(lines).summaryOfIncidents == ["4107 killed likely"])
        #expect(try analyze(lines.replacingOccurrences(of: "[4107] is", with: " is")).summaryOfIncidents == ["- killed likely"])
        let alone = lines.split(separator: "\n").filter { !$0.contains("snapshot") }.joined(separator: "\n") + "\n"
        #expect(try analyze(alone).incidents.isEmpty)
    }

    /// WebKit2's content process before OS X 10.9 was `WebProcess` (`com.apple.WebProcess`).
    @Test func webKit2sWebProcessIsWebContent() throws {
        let report = KillReports.textKill.replacingOccurrences(of: "com.apple.WebKit.WebContent [4107]", with: "WebProcess [4107]")
            .replacingOccurrences(of: "Identifier:          com.apple.WebKit.WebContent", with: "Identifier:          com.apple.WebProcess")
        #expect(report.contains("WebProcess [4107]"))
        #expect(try analyze([("old.crash", Array(report.utf8))]).summaryOfIncidents == ["4107 killed confirmed"])
    }

    /// A report pasted into an e-mail: behind `> `, after a line of prose, or without the lines naming its process.
    @Test func mangledReportsAreRead() throws {
        let quoted = KillReports.textKill.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
        let prose = "Hi, the crash report from the user's phone is below.\n\n" + KillReports.textKill
        let nested = quoted.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
        for text in [quoted, prose, nested] {
            #expect(try analyze([("mail.txt", Array(text.utf8))]).summaryOfIncidents == ["4107 killed confirmed"], "\(text)")
        }
        let headless = KillReports.textKill.split(separator: "\n").drop { !$0.hasPrefix("Exception Type") }.joined(separator: "\n") + "\n"
        let read = try analyzeNoting([("cut.crash", Array(headless.utf8))])
        #expect(read.report.incidents.isEmpty)
        #expect(read.notes == ["cut.crash: a crash report that names no process and pid (its header lines are missing): "
            + "nothing in it can be joined to a process"])
    }
}
