import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// A sysdiagnose-shaped folder in `folder`: a WebContent crash report and a JetsamEvent report in
/// crashes_and_spins/, a console log in logs/, and the binary unified log (an app's launch of a WebContent process,
/// and runningboardd's report of its end). Returns the folder's name.
func writeSysdiagnose(in folder: TemporaryFolder) throws -> String {
    let name = "sysdiagnose_2026.03.02_10-11-14-0800_iPhone-OS_iPhone_22B83"
    let root = folder.path + "/" + name
    for directory in ["crashes_and_spins", "logs"] {
        try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
    }
    let files = [
        "crashes_and_spins/com.apple.WebKit.WebContent-2026-03-02-101113.ips": ReportFixture.webContentIPS,
        "crashes_and_spins/JetsamEvent-2026-03-02-101113.ips": ReportFixture.jetsam,
        "logs/console.log": Fixture.xcode,
    ]
    for (path, text) in files { try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8) }
    try IOSLogArchive.write(sysdiagnoseUnifiedLog, to: root + "/system_logs.logarchive")
    return name
}

/// The unified log of `writeSysdiagnose`: pid 5120, launched, dies before WebKit can raise it to the foreground.
let sysdiagnoseUnifiedLog = """
    2026-03-02 10:10:01.000000-0800 supervisor[812:1a2b] [Process] 0x10c4779b0 - [PID=5120] WebProcessProxy::didFinishLaunching:
    2026-03-02 10:10:01.000100-0800 supervisor[812:1a2b] [ProcessSuspension] 0x10c4779b0 - ProcessAssertion::acquireSync \
    Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=5120
    2026-03-02 10:10:01.004000-0800 supervisor[812:1a2b] [ProcessSuspension] 0x10c4779b0 - ProcessAssertion: Failed to \
    acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5120, error: Error \
    Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" \
    UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
    2026-03-02 10:10:01.400000-0800 supervisor[812:1a2b] [Process] 0x10c4779b0 - [PID=5120] WebProcessProxy::didClose: (web process 0 crash)
    """

/// The `files` of `analyze --json`'s report.
func analyzedFiles(_ stdout: String) throws -> [String] {
    let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    return try #require(json["files"] as? [String])
}

extension BesideOthers {
    /// What a user brings besides a console log: a sysdiagnose, packed or not, a `.gz` log, a big folder.
    @Suite struct AnalyzeInputs {
        @Test func aSysdiagnoseTarGzIsReadMemberByMemberWithoutACopyOnDisk() throws {
            let folder = try TemporaryFolder([:])
            let name = try writeSysdiagnose(in: folder)
            let tarred = try runCommand("/usr/bin/tar", ["-C", folder.path, "-czf", folder.path + "/sd.tar.gz", name])
            try #require(tarred.status == 0, "\(tarred.stderr)")
            // The analysis runs in an empty folder with an empty TMPDIR, which it must leave empty.
            let scratch = try TemporaryFolder([:])
            let result = try runCommand("/usr/bin/env", [
                "-C", scratch.path, "TMPDIR=\(scratch.path)", supervisorPath, "analyze", folder.path + "/sd.tar.gz", "--json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let archive = folder.path + "/sd.tar.gz:" + name
            #expect(try analyzedFiles(result.stdout) == [
                archive + "/crashes_and_spins/com.apple.WebKit.WebContent-2026-03-02-101113.ips",
                archive + "/crashes_and_spins/JetsamEvent-2026-03-02-101113.ips", archive + "/logs/console.log",
                archive + "/system_logs.logarchive",
            ])
            #expect(result.stdout.contains(#""formats":{"xcode-console":7,"log-show-ndjson":4,"crash-report":38,"jetsam-report":67}"#))
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
            // The binary unified log is read, with no note telling the user to convert it: its kill is found.
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.stdout.contains(#""pid":5120,"kind":"killed-before-render","confidence":"confirmed""#))
            #expect(orphanedWorkers().isEmpty)
        }

        /// The unpacked folder reads the same.
        @Test func aSysdiagnoseFolderIsReadLikeAnyDirectory() throws {
            let folder = try TemporaryFolder([:])
            let name = try writeSysdiagnose(in: folder)
            let unpacked = try runSupervisor(["analyze", folder.path + "/" + name, "--json"])
            #expect(unpacked.status == 0, "\(unpacked.stderr)")
            #expect(try analyzedFiles(unpacked.stdout).map { $0.dropFirst(folder.path.count + name.count + 2) } == [
                "system_logs.logarchive", "crashes_and_spins/JetsamEvent-2026-03-02-101113.ips",
                "crashes_and_spins/com.apple.WebKit.WebContent-2026-03-02-101113.ips", "logs/console.log",
            ])
            #expect(unpacked.stderr.isEmpty, "\(unpacked.stderr)")
            #expect(unpacked.stdout.contains(#""pid":5120,"kind":"killed-before-render","confidence":"confirmed""#))
        }

        /// A gzip file is told by its magic bytes, whatever its name; a damaged one is read as far as it goes, and
        /// without gzip on PATH the error says what is missing.
        @Test func aGzipLogIsUnpackedThroughGzip() throws {
            let folder = try TemporaryFolder(["console": Fixture.xcode])
            let packed = try runCommand("/bin/sh", ["-c", "gzip -c '\(folder.path)/console' > '\(folder.path)/console.txt'"])
            try #require(packed.status == 0)
            let result = try runSupervisor(["analyze", folder.path + "/console.txt", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#""pid":4107,"kind":"killed-before-render","confidence":"confirmed""#))
            #expect(result.stdout.contains(#""formats":{"xcode-console":7}"#))

            let whole = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/console.txt"))
            try whole.prefix(whole.count - 12).write(to: URL(fileURLWithPath: folder.path + "/cut.gz"))
            let cut = try runSupervisor(["analyze", folder.path + "/cut.gz"])
            #expect(cut.status == 0, "\(cut.stderr)")
            #expect(unwrapped(cut.stderr).contains("cut.gz is damaged or cut short: what came before the damage was read"))

            let missing = try runCommand("/usr/bin/env", ["PATH=/nonexistent", supervisorPath, "analyze", folder.path + "/console.txt"])
            #expect(missing.status == 1)
            #expect(unwrapped(missing.stderr) == "supervisor: error: cannot read '\(folder.path)/console.txt': it is gzip-compressed, "
                + "and no 'gzip' program was found on PATH to unpack it\n")
            #expect(orphanedWorkers().isEmpty)
        }

        /// Member names longer than a tar header holds, in GNU's form (`././@LongLink`) and in pax's (macOS tar).
        @Test(arguments: ["gnu", "pax"])
        func longMemberNamesAreReadWhole(format: String) throws {
            let folder = try TemporaryFolder([:])
            let deep = "sysdiagnose/" + String(repeating: "a-folder-with-a-long-name/", count: 6) + "console.log"
            try FileManager.default.createDirectory(
                atPath: folder.path + "/" + (deep as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Fixture.xcode.write(toFile: folder.path + "/" + deep, atomically: true, encoding: .utf8)
            let tarred = try runCommand("/usr/bin/tar", ["--format=\(format)", "-C", folder.path, "-cf", folder.path + "/x.tar", "sysdiagnose"])
            try #require(tarred.status == 0, "\(tarred.stderr)")
            let result = try runSupervisor(["analyze", folder.path + "/x.tar", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try analyzedFiles(result.stdout) == [folder.path + "/x.tar:" + deep])
            #expect(result.stdout.contains(#""pid":4107,"kind":"killed-before-render""#))
        }

        /// 5,000 logs in a folder, read under a limit of 256 descriptors: each is opened only while it is read.
        @Test func fiveThousandFilesReadUnderADescriptorLimitOf256() throws {
            let folder = try TemporaryFolder([:])
            let logs = folder.path + "/logs"
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
            // One quiet launch per file: 5,000 two-line files cut from one by split(1), which is quicker than 5,000 writes.
            let quiet = Fixture.launched("").split(separator: "\n").prefix(2).joined(separator: "\n") + "\n"
            try String(repeating: quiet, count: 5000).write(toFile: folder.path + "/all", atomically: false, encoding: .utf8)
            let split = try runCommand("/usr/bin/split", [
                "-l", "2", "--numeric-suffixes=10000", "-a", "5", "--additional-suffix=.log", folder.path + "/all", logs + "/",
            ])
            try #require(split.status == 0, "\(split.stderr)")
            try Fixture.xcode.write(toFile: logs + "/12345.log", atomically: false, encoding: .utf8)
            let result = try runCommand("/bin/sh", ["-c", "ulimit -n 256 && exec '\(supervisorPath)' analyze '\(logs)' --json"])
            #expect(result.status == 0, "\(result.stderr)")
            let files = try analyzedFiles(result.stdout)
            #expect(files.count == 5000 && files.first == logs + "/10000.log" && files.last == logs + "/14999.log")
            #expect(result.stdout.contains(#""pid":4107,"kind":"killed-before-render","confidence":"confirmed""#))
        }

        /// In a folder, a file that cannot be read and a symbolic link that leads nowhere are skipped with one
        /// warning; named on its own, the unreadable file is an error. (The test runs as root, so the command runs
        /// without the capabilities that let root read any file.)
        @Test func unreadableFilesInAFolderAreSkippedWithOneWarning() throws {
            let folder = try TemporaryFolder([:])
            let logs = folder.path + "/logs"
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
            try Fixture.xcode.write(toFile: logs + "/a.log", atomically: false, encoding: .utf8)
            try Fixture.syslog.write(toFile: logs + "/b.log", atomically: false, encoding: .utf8)
            #expect(chmod(logs + "/b.log", 0) == 0)
            try FileManager.default.createSymbolicLink(atPath: logs + "/c.log", withDestinationPath: logs + "/gone.log")
            let unprivileged = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", supervisorPath, "analyze"]
            let result = try runCommand(unprivileged[0], Array(unprivileged.dropFirst()) + [logs, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try analyzedFiles(result.stdout) == [logs + "/a.log"])
            #expect(result.stdout.contains(#""pid":4107,"kind":"killed-before-render""#))
            #expect(unwrapped(result.stderr) == "supervisor: warning: skipped 2 files that cannot be read: \(logs)/b.log "
                + "(Permission denied), \(logs)/c.log (it is a symbolic link that leads nowhere)\n")
            let named = try runCommand(unprivileged[0], Array(unprivileged.dropFirst()) + [logs + "/b.log"])
            #expect(named.status == 1)
            #expect(unwrapped(named.stderr) == "supervisor: error: cannot read '\(logs)/b.log': Permission denied\n")
        }

        /// A `.tar.gz` cut short inside its only member, a JetsamEvent report, after its metadata line or a part of
        /// its body: "No incidents." and exit 0 broke `help analyze`'s promise of exit 1 when no input has a line it
        /// can place. A report that names no process places none; whole, the same archive is read.
        @Test(arguments: [0, 200])
        func anArchiveCutShortWithNothingReadIsAnError(bodyBytes: Int) throws {
            let report = Array(ReportFixture.jetsam.utf8)
            let metadata = try #require(report.firstIndex(of: 10)) + 1
            let whole = TarFixture.member("sd/JetsamEvent.ips", data: report) + TarFixture.end
            let folder = try TemporaryFolder([:])
            for (name, bytes) in [("cut.tar", Array(whole.prefix(512 + metadata + bodyBytes))), ("whole.tar", whole)] {
                try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/" + name))
                let packed = try runCommand("/bin/sh", ["-c", "gzip '\(folder.path)/\(name)'"])
                try #require(packed.status == 0, "\(packed.stderr)")
            }
            let cut = try runSupervisor(["analyze", folder.path + "/cut.tar.gz"])
            #expect(cut.status == 1 && cut.stdout.isEmpty, "\(cut.stdout)")
            #expect(unwrapped(cut.stderr) == "supervisor: warning: \(folder.path)/cut.tar.gz is damaged or cut short: what "
                + "came before the damage was read\nsupervisor: error: \(folder.path)/cut.tar.gz:sd/JetsamEvent.ips: no line "
                + "in a format analyze reads\n")
            let read = try runSupervisor(["analyze", folder.path + "/whole.tar.gz"])
            #expect(read.status == 0 && read.stdout.contains("jetsam-report"), "\(read.stderr)")
        }

        /// A folder is read within itself: `loop -> ..` read the parent folder's logs, and a link to a file outside
        /// read that file. A link to a file inside is read (a log's other name); one out of the folder, or to a
        /// folder, is not followed, and said.
        @Test func symbolicLinksLeadingOutOfTheFolderOrToAFolderAreNotFollowed() throws {
            let folder = try TemporaryFolder(["outside.log": Fixture.xcode])
            let logs = folder.path + "/logs"
            try FileManager.default.createDirectory(atPath: logs + "/sub", withIntermediateDirectories: true)
            let quiet = "Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1 - [PID=4200] WebProcessProxy::didFinishLaunching:\n"
            try quiet.write(toFile: logs + "/in.log", atomically: false, encoding: .utf8)
            try quiet.write(toFile: logs + "/sub/deep.log", atomically: false, encoding: .utf8)
            for (link, target) in [("loop", ".."), ("escape.log", "../outside.log"), ("alias.log", "sub/deep.log"), ("again", "sub")] {
                try FileManager.default.createSymbolicLink(atPath: logs + "/" + link, withDestinationPath: target)
            }
            let result = try runSupervisor(["analyze", logs, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            // The file reached by a link inside and by its own name is read once, or its lines would count twice.
            #expect(try analyzedFiles(result.stdout) == [logs + "/alias.log", logs + "/in.log"])
            #expect(!result.stdout.contains("killed-before-render"), "the log outside the folder was read")
            #expect(unwrapped(result.stderr) == "supervisor: warning: did not follow 3 symbolic links that lead out of "
                + "the directory analyzed or to a directory: \(logs)/again, \(logs)/escape.log, \(logs)/loop\n"
                + "supervisor: warning: read once 1 file reached by two names: \(logs)/sub/deep.log (as \(logs)/alias.log)\n")
        }

        /// A binary file in a folder is passed over, said once; the logs beside it are read.
        @Test func binaryFilesArePassedOver() throws {
            let folder = try TemporaryFolder(["a.log": Fixture.xcode])
            try Data((0..<4096).map { UInt8($0 % 7) }).write(to: URL(fileURLWithPath: folder.path + "/b.bin"))
            let result = try runSupervisor(["analyze", folder.path, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try analyzedFiles(result.stdout) == [folder.path + "/a.log"])
            #expect(unwrapped(result.stderr) == "supervisor: warning: passed over 1 binary file: \(folder.path)/b.bin\n")
            // Named, it is read as it is (the user asked for it), and nothing in it is in a format analyze reads.
            let named = try runSupervisor(["analyze", folder.path + "/b.bin", "--json"])
            #expect(named.status == 1, "\(named.stderr)")
            #expect(unwrapped(named.stderr) == "supervisor: error: \(folder.path)/b.bin: no line in a format analyze reads\n")
        }
    }
}

extension Processes {
    /// gzip is a child of the analysis while it reads: it is reaped, and its pipe closed, whether it ran to its end
    /// or was stopped early (a tar archive ends before gzip's output does).
    @Suite struct GzipChild {
        @Test func noProcessOrDescriptorOutlivesTheReading() throws {
            let folder = try TemporaryFolder(["console.log": Fixture.xcode])
            // b.tar.gz holds a megabyte of zeros after the archive's end: reading stops there, with gzip still writing.
            _ = try runCommand("/bin/sh", ["-c", "cd '\(folder.path)' && gzip -c console.log > a.gz && "
                + "{ tar -cf - console.log; head -c 1048576 /dev/zero; } | gzip > b.tar.gz"])
            let before = try openSupervisorDescriptors()
            for name in ["a.gz", "b.tar.gz"] {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name)))
                let (report, notes) = try readInputs([(name, bytes)])
                #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"] && notes.isEmpty, "\(name)")
                #expect(childProcesses().isEmpty, "\(name)")
                // Foundation may close descriptors of its own in between: only new ones are leaks.
                let leaked = try leakedDescriptors(since: before)
                #expect(leaked.isEmpty, "\(name): \(leaked)")
            }
        }
    }
}
