import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

extension Processes {
    /// Issue 29, item 4: what this tool wrote (a replay schedule, an HTML report, an SVG chart) left in the folder of
    /// logs is not evidence: it is skipped, with one note, and the incident the logs show stays what it is.
    @Suite struct OwnOutputs {
        @Test(.runningLimit(.seconds(60))) func aScheduleAReportAndAChartInTheLogFolderAreSkippedWithOneNote() throws {
            let folder = try TemporaryFolder([:])
            let logs = folder.path + "/logs"
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
            try Fixture.xcode.write(toFile: logs + "/race.log", atomically: true, encoding: .utf8)
            let written = try runSupervisor([
                "analyze", logs + "/race.log", "--replay", logs + "/incidents.json", "--html", logs + "/report.html",
                "--svg", logs + "/lanes.svg",
            ])
            try #require(written.status == 0, "\(written.stderr)")
            let result = try runSupervisor(["analyze", logs, "--json", "--fail-on", "killed-before-render:likely"])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(try analyzedFiles(result.stdout) == [logs + "/race.log"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let incidents = try #require(json["incidents"] as? [[String: Any]])
            #expect(incidents.map { "\($0["pid"] ?? "-") \($0["kind"] ?? "-") \($0["confidence"] ?? "-")" }
                == ["4107 killed-before-render confirmed"])
            let stderr = unwrapped(result.stderr)
            #expect(stderr.components(separatedBy: "supervisor: warning: skipped 3 files this tool wrote, which are not "
                + "evidence:").count == 2, "\(stderr)")
            for (name, kind) in [("incidents.json", "a replay schedule"), ("lanes.svg", "a chart drawn by supervisor"),
                                 ("report.html", "a report written by supervisor")] {
                #expect(stderr.contains("\(logs)/\(name) (\(kind))"), "\(stderr)")
            }
        }
    }
}
