import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 29, item 9(a): RunningBoard's "Specified target process does not exist" line naming no pid, the line every
/// forum thread quotes, says some process was gone: not which, nor whether it had rendered. Alone it is
/// inconclusive, and the verdict says which lines to add and how to get them; it is never "No incidents" and clear.
@Suite struct Inconclusive {
    static let bare =
        "2025-03-02 10:11:12.124000+0100 My App[4100:99002] [assertion] Error acquiring assertion: <Error "
        + #"Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"#

    /// In an Xcode copy with metadata, and as Xcode 15+ shows it, with no time.
    @Test(arguments: [bare, #"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={}>"#])
    func theBareErrorAloneIsInconclusiveAndSaysWhatToAdd(line: String) throws {
        let report = try analyze(line + "\n")
        #expect(report.incidents.isEmpty && report.unexplainedErrors == 1)
        #expect(report.verdict.hasPrefix("Inconclusive: 1 RunningBoard \"Specified target process does not exist\" error"),
                "\(report.verdict)")
        #expect(report.verdict.contains("Add WebKit's lines") && report.verdict.contains("subsystem == \"com.apple.WebKit\""))
        #expect(report.json.text.contains(#""unexplainedErrors":1"#))
    }

    /// WebKit's lines about other processes do not explain it: the error is still about a process no line names.
    @Test func linesAboutOtherProcessesLeaveItInconclusive() throws {
        let other = "2025-03-02 09:00:00.000000+0100 My App[4100:99001] [Process] 0x1 - [PID=4000] "
            + "WebProcessProxy::didFinishLaunching:\n"
        let report = try analyze(other + Self.bare + "\n")
        #expect(report.unexplainedErrors == 1)
        #expect(report.verdict.hasPrefix("Inconclusive: 1 RunningBoard"), "\(report.verdict)")
    }

    /// With WebKit's lines the same error is evidence, read as before.
    @Test func withWebKitsLinesTheErrorIsExplained() throws {
        let report = try analyze(Fixture.xcode)
        #expect(report.unexplainedErrors == 0)
        #expect(report.verdict.hasPrefix("1 kill-before-render incident"))
    }
}

extension Processes {
    @Suite struct InconclusiveCLI {
        @Test(.runningLimit(.seconds(60))) func theHTMLReportOfTheBareErrorIsNotGreen() throws {
            let folder = try TemporaryFolder(["rbs.log": Inconclusive.bare + "\n"])
            let file = folder.path + "/report.html"
            let result = try runSupervisor(["analyze", folder.path + "/rbs.log", "--html", file])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(unwrapped(result.stdout).contains("Inconclusive: 1 RunningBoard"), "\(result.stdout)")
            let page = try String(contentsOfFile: file, encoding: .utf8)
            #expect(page.contains("<header class=\"verdict other\">") && !page.contains("verdict clear\">"))
        }

        /// A CI gate on kills before render trips on the error alone (a possible one), and a gate on likely ones
        /// passes but says the input was inconclusive; neither is silent.
        @Test(.runningLimit(.seconds(60))) func aGateIsNeverSilentOnAnInconclusiveInput() throws {
            let folder = try TemporaryFolder(["rbs.log": Inconclusive.bare + "\n"])
            let possible = try runSupervisor(["analyze", folder.path + "/rbs.log", "--fail-on", "killed-before-render"])
            #expect(possible.status == 3)
            #expect(unwrapped(possible.stderr) == "supervisor: --fail-on: found 1 RunningBoard error naming no pid (each a possible "
                + "killed-before-render); exit status 3\n", "\(possible.stderr)")
            let likely = try runSupervisor(["analyze", folder.path + "/rbs.log", "--fail-on", "killed-before-render:likely"])
            #expect(likely.status == 0)
            #expect(unwrapped(likely.stderr) == "supervisor: --fail-on: found none, but 1 RunningBoard error naming no pid left the "
                + "analysis inconclusive\n", "\(likely.stderr)")
        }
    }
}
