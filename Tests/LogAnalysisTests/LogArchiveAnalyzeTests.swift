import Foundation
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import SupervisorTesting

extension BesideOthers {
    /// `analyze` on Apple's binary unified log (issue 33, must show): a raced run's iOS log written as a device keeps
    /// it, a `.logarchive`, tells the same incidents as its text, each with its band at death from RunningBoard's
    /// roles.
    @Suite struct LogArchiveAnalyze {
        /// Each incident whole but for its evidence (which names the file and line it was read from).
        static func incidents(_ result: (status: Int32, stdout: String, stderr: String)) throws -> [String] {
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let incidents = try #require(json["incidents"] as? [[String: Any]])
            let fields = ["kind", "pid", "confidence", "rule", "firstSeen", "lastSeen", "userSaw", "detail", "recovery"]
            return incidents.map { incident in fields.map { "\(incident[$0] ?? "-")" }.joined(separator: " | ") }.sorted()
        }

        /// Each death's band, from the run's event log.
        static func deathBands(_ log: String) throws -> [Int: PriorityBand] {
            var bands: [Int: PriorityBand] = [:]
            for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") where line.contains(#""event":"death""#) {
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if let pid = event["pid"] as? Int, let band = (event["band"] as? String).flatMap(PriorityBand.init) { bands[pid] = band }
            }
            return bands
        }

        /// A raced run of 40 loads in 3 views with Jetsam on, its event log `run.jsonl` and iOS log beside it.
        static func racedRun(race: String, seed: Int) throws -> (folder: TemporaryFolder, log: String) {
            let content = try TemporaryFolder(["a.html": page("A"), "b.html": page("B", render: "memory=24MB")])
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisor([
                "run", "--loads", "40", "--views", "3", "--hidden", "1", "--inject-race", race, "--jetsam=budget=60",
                "--content", content.path, "--seed", "\(seed)", "--log", log, "--log-format", "ios",
            ])
            try #require(run.status == 0, "\(run.stderr)")
            return (folder, log)
        }

        @Test func aRacedRunsLogarchiveTellsWhatItsTextTells() throws {
            let (folder, log) = try Self.racedRun(race: "1/8", seed: 7)
            let text = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            let archive = folder.path + "/system_logs.logarchive"
            let written = try IOSLogArchive.write(text, to: archive)
            #expect(written == text.split(separator: "\n").count)
            let fromText = try Self.incidents(try runSupervisor(["analyze", log + ".ios.log", "--json"]))
            let fromArchive = try runSupervisor(["analyze", archive, "--json"])
            #expect(!fromArchive.stderr.contains("convert") && !fromArchive.stderr.contains("log show"), "\(fromArchive.stderr)")
            #expect(fromText.contains { $0.hasPrefix("killed-before-render") }, "\(fromText)")
            #expect(try Self.incidents(fromArchive) == fromText)
            // Each with the band RunningBoard had it in when it died: the band our event log gives its death.
            let truth = try Self.deathBands(log)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(fromArchive.stdout.utf8)) as? [String: Any])
            let kills = try #require(json["incidents"] as? [[String: Any]]).filter { $0["kind"] as? String == "killed-before-render" }
            #expect(!kills.isEmpty)
            for kill in kills {
                let pid = try #require(kill["pid"] as? Int), band = try #require(truth[pid])
                let expected = band.isProtected ? "foreground" : band.runningBoard.role == "None" ? "suspended" : "background"
                #expect((kill["bandAtDeath"] as? String)?.hasPrefix(expected + " (RunningBoard role ") == true, "\(kill)")
            }
            // Its messages as `log show` prints them: the text's, line for line.
            let shown = try runSupervisor(["log", "show", archive])
            let messages = try shown.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["eventMessage"] as? String
            }
            let lines = text.split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 4)[4]) }
            #expect(messages.compactMap { $0 }.sorted() == lines.sorted())
        }
    }
}

extension BesideOthers.LogArchiveAnalyze {
    /// A sysdiagnose tar's order need not put the strings before the tracev3 files that need them: either way the
    /// kill in its unified log is found, reading the tar again from its start; from a pipe, which cannot be read
    /// again, the archive is said, not read. AppleDouble `._` members are passed over.
    @Test(arguments: [true, false]) func aTarsLogarchiveIsReadWhateverItsOrder(stringsFirst: Bool) throws {
        let (files, _) = IOSLogArchive.files(sysdiagnoseUnifiedLog)
        let ordered = stringsFirst ? Array(files.dropFirst()) + [files[0]] : files
        var tar: [UInt8] = []
        for (path, bytes) in ordered { tar += TarFixture.member("sd/system_logs.logarchive/" + path, data: bytes) }
        tar += TarFixture.member("sd/system_logs.logarchive/Persist/._0000000000000001.tracev3", data: [0, 5, 22, 7])
        tar += [UInt8](repeating: 0, count: 1024)
        let folder = try TemporaryFolder([:])
        try Data(tar).write(to: URL(fileURLWithPath: folder.path + "/sd.tar"))
        let read = try runSupervisor(["analyze", folder.path + "/sd.tar", "--json"])
        #expect(read.stderr.isEmpty, "\(read.stderr)")
        #expect(read.stdout.contains(#""pid":5120,"kind":"killed-before-render","confidence":"confirmed""#), "\(read.stdout)")
        let piped = try runCommand("/bin/sh", ["-c", "cat '\(folder.path)/sd.tar' | '\(supervisorPath)' analyze - --json"])
        #expect(piped.stderr.contains("a tar read from a pipe") && !piped.stdout.contains(#""pid":5120"#), "\(piped.stderr)")
    }
}

extension BesideOthers.LogArchiveAnalyze {
    /// The real iOS 15 file, as a sysdiagnose holds it: analyzed as a folder and as a `.tar.gz`, with no note telling
    /// the user to convert it; it holds nothing of WebKit's, and that is what is said.
    @Test func theRealIOSFileInASysdiagnoseIsReadWithoutConverting() throws {
        let folder = try TemporaryFolder([:])
        let archive = folder.path + "/sysdiagnose_2022.06.01/system_logs.logarchive"
        try FileManager.default.createDirectory(atPath: archive + "/Persist", withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/unified-log/0000000000000f85.tracev3").standardizedFileURL.path
        try FileManager.default.copyItem(atPath: fixture, toPath: archive + "/Persist/0000000000000f85.tracev3")
        let tarred = try runCommand("/usr/bin/tar", ["-C", folder.path, "-czf", folder.path + "/sd.tar.gz", "sysdiagnose_2022.06.01"])
        try #require(tarred.status == 0, "\(tarred.stderr)")
        for input in [folder.path + "/sysdiagnose_2022.06.01", folder.path + "/sd.tar.gz"] {
            let result = try runSupervisor(["analyze", input, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("convert") && !result.stderr.contains("on a Mac"), "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect((json["files"] as? [String])?.contains { $0.hasSuffix("system_logs.logarchive") } == true)
            #expect((json["incidents"] as? [Any])?.isEmpty == true)
            if input.hasSuffix("sysdiagnose_2022.06.01") {
                // Its 47 chunksets passed over (none of their processes is WebKit's, RunningBoard's or the kernel's,
                // and without uuidtext files none is known to be an app), said in one line.
                #expect(unwrapped(result.stderr).contains("nothing of WebKit, RunningBoard, the kernel or an app: 0 entries and 47 "
                    + "chunksets of other processes passed over; without its uuidtext files no process is known to be an app"),
                        "\(result.stderr)")
            }
        }
    }
}
