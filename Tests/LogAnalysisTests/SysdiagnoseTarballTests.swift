import Foundation
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import SupervisorTesting

extension BesideOthers.LogArchiveAnalyze {
    /// Issue 33's must-show: a sysdiagnose `.tar.gz` of ours (a raced run's iOS log as a logarchive, a JetsamEvent and
    /// a crash report of two of its kills, the first gzip-compressed as a member, `ps.txt`, crashes_and_spins.log)
    /// tells the same incidents as the same evidence in text form, each kill before render with its band at death.
    @Test func aSysdiagnoseTarballTellsWhatItsTextTells() throws {
        let (folder, log) = try Self.racedRun(race: "1/6", seed: 11)
        let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let deaths = events.filter { $0["event"] as? String == "death" && $0["rendered"] as? Bool == false }
        try #require(deaths.count >= 2, "the race killed fewer than two processes before render")
        let alive = Set(events.filter { $0["event"] as? String == "spawn" }.compactMap { $0["pid"] as? Int })
            .subtracting(events.filter { $0["event"] as? String == "death" }.compactMap { $0["pid"] as? Int })
        let name = "sysdiagnose_2099.01.01_00-00-00+0000_iPhone-OS_iPhone_22B83"
        let reports = [
            "crashes_and_spins/JetsamEvent-2099-01-01-000000.ips": Self.jetsamReport(deaths[0]),
            "crashes_and_spins/com.apple.WebKit.WebContent-2099-01-01-000000.ips": Self.crashReport(deaths[1]),
            "ps.txt": SysdiagnoseShapes.listing(alive.sorted()),
            "summaries/crashes_and_spins.log": "\nAPPLYING PREDICATE (lastPathComponent ENDSWITH \"ips\"):\n"
                + "/private/var/mobile/Library/Logs/CrashReporter/JetsamEvent-2099-01-01-000000.ips, Added to Candidate logs\n",
        ]
        let text = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
        // The same evidence twice: the log as text beside the reports, and as a logarchive beside them.
        let asText = try TemporaryFolder([:])
        try Self.write(reports.merging(["logs/device.log": text]) { $1 }, under: asText.path + "/" + name)
        let packed = folder.path + "/" + name
        _ = try IOSLogArchive.write(text, to: packed + "/system_logs.logarchive")
        try Self.write(reports, under: packed)
        let jetsam = packed + "/crashes_and_spins/JetsamEvent-2099-01-01-000000.ips"
        try #require(try runCommand("/bin/gzip", [jetsam]).status == 0)
        try #require(try runCommand("/usr/bin/tar", ["-C", folder.path, "-czf", folder.path + "/sd.tar.gz", name]).status == 0)

        let fromText = try runSupervisor(["analyze", asText.path + "/" + name, "--json"])
        let fromTar = try runSupervisor(["analyze", folder.path + "/sd.tar.gz", "--json"])
        #expect(!fromTar.stderr.contains("not read"), "\(fromTar.stderr)")
        let incidents = try Self.incidents(fromText)
        let packedIncidents = try Self.incidents(fromTar)
        #expect(packedIncidents == incidents, "\(Set(packedIncidents).symmetricDifference(incidents).sorted())")
        #expect(incidents.contains { $0.contains("killed by Jetsam (per-process-limit") }, "\(incidents)")
        #expect(incidents.contains { $0.contains("RUNNINGBOARD 0xdead10cc: held a file or database lock") }, "\(incidents)")
        #expect(incidents.allSatisfy { $0.contains("gone by capture") }, "\(incidents)")
        for result in [fromText, fromTar] {
            #expect(result.stderr.contains("\(alive.count) WebContent process"), "\(result.stderr)")
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fromTar.stdout.utf8)) as? [String: Any])
        let kills = try #require(json["incidents"] as? [[String: Any]]).filter { $0["kind"] as? String == "killed-before-render" }
        let truth = try Self.deathBands(log)
        #expect(kills.count >= 2)
        for kill in kills {
            let pid = try #require(kill["pid"] as? Int), band = try #require(truth[pid])
            let expected = band.isProtected ? "foreground" : band.runningBoard.role == "None" ? "suspended" : "background"
            #expect((kill["bandAtDeath"] as? String)?.hasPrefix(expected + " (RunningBoard role ") == true, "\(kill)")
        }
    }

    static func write(_ files: [String: String], under root: String) throws {
        for (path, body) in files {
            try FileManager.default.createDirectory(
                atPath: (root + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try body.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
        }
    }

    /// `2026-11-29 10:11:12.50 +0000` for a death's ISO time (`2026-11-29T10:11:12.501234Z`).
    static func reportTime(_ death: [String: Any]) -> String {
        let iso = death["time"] as? String ?? ""
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(11) + " +0000"
    }

    /// A JetsamEvent report of `death`: its pid killed for the per-process limit.
    static func jetsamReport(_ death: [String: Any]) -> String {
        let time = reportTime(death)
        return ReportFixture.jetsam.replacingOccurrences(of: "4107", with: "\(death["pid"] as? Int ?? 0)")
            .replacingOccurrences(of: "4120", with: "999991")
            .replacingOccurrences(of: "2026-03-02 10:11:13.00 -0800", with: time)
            .replacingOccurrences(of: "2026-03-02 10:11:12.96 -0800", with: time)
    }

    /// A text crash report of `death`: a SIGKILL, for RunningBoard's reason.
    static func crashReport(_ death: [String: Any]) -> String {
        KillReports.textKill.replacingOccurrences(of: "4107", with: "\(death["pid"] as? Int ?? 0)")
            .replacingOccurrences(of: "2025-03-02 10:11:12.3000 +0100", with: reportTime(death))
            .replacingOccurrences(of: "Responsible:         My App [4100]\n", with: "")
    }
}
