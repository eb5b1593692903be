import Foundation
import Glibc
import Testing
@testable import SupervisorTesting

extension BesideOthers {
    /// The small messages of issue 29's item 20, each as a user meets it.
    @Suite struct Messages {
        /// `-3` is quoted as typed, not as the empty piece before its dash.
        @Test func aNegativeRangeIsQuotedAsTyped() throws {
            let result = try runSupervisor(["run", "--attach-delay", "-3"])
            #expect(result.status == 64)
            #expect(unwrapped(result.stderr) == "supervisor: error: '--attach-delay' takes milliseconds from 0 to 3600000, not '-3'\n")
        }

        /// The program's version after a subcommand, not a guess at an option it resembles.
        @Test func versionAfterASubcommandIsTheVersion() throws {
            let version = try runSupervisor(["--version"])
            for command in ["run", "analyze", "compare"] {
                let result = try runSupervisor([command, "--version"])
                #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result.stderr)")
                #expect(result.stdout == version.stdout && result.stdout.hasPrefix("supervisor "))
            }
        }

        @Test func helpHelpIsTheOverview() throws {
            let result = try runSupervisor(["help", "help"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.stdout == (try runSupervisor(["--help"])).stdout)
        }

        /// A small input's figures in units that show them: never `0.0 s for 0 MB (0 MB/s)`.
        @Test func statsOfASmallInputSayWhatWasRead() throws {
            let folder = try TemporaryFolder(["race.log": Fixture.xcode])
            let result = try runSupervisor(["analyze", folder.path + "/race.log", "--stats"])
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(result.stdout.split(separator: "\n").last { $0.hasPrefix("Took ") })
            let bytes = Fixture.xcode.utf8.count
            let size = bytes < 1024 ? "\(bytes) bytes" : "\(bytes >> 10) KB"
            #expect(bytes < 1 << 20 && line.contains(" for \(size); peak memory "), "\(line)")
            #expect(line.contains(" µs for ") || line.contains(" ms for "), "\(line)")
            #expect(!line.contains("MB/s") && !line.contains("0 MB") && !line.contains("0.0 s"), "\(line)")
        }

        /// Counts of four digits and more are grouped as everywhere else: tabs written, files read.
        @Test func countsAreGrouped() throws {
            let folder = try TemporaryFolder([:])
            let created = try runSupervisor(["session", "create", folder.path + "/s.session", "--tabs", "1500"])
            #expect(created.stdout == "wrote 1,500 tabs to \(folder.path)/s.session\n", "\(created.stderr)")
            let logs = try TemporaryFolder(Dictionary(uniqueKeysWithValues: (0..<1001).map { ("\($0).log", Fixture.xcode) }))
            let read = try runSupervisor(["analyze", logs.path])
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.stdout.replacingOccurrences(of: "\n", with: " ").contains(" in 1,001 files"), "\(read.stdout.prefix(300))")
        }

        /// The gate that fails a CI step says why on standard error, where CI shows it, in one line.
        @Test func failOnSaysWhyOnStandardError() throws {
            let folder = try TemporaryFolder(["race.log": Fixture.xcode])
            let result = try runSupervisor(["analyze", folder.path + "/race.log", "--fail-on", "crash,killed-before-render:likely"])
            #expect(result.status == 3)
            #expect(result.stderr == "supervisor: --fail-on: found 1 killed-before-render (likely or surer); exit status 3\n")
            let passed = try runSupervisor(["analyze", folder.path + "/race.log", "--fail-on", "crash"])
            #expect(passed.status == 0 && passed.stderr.isEmpty, "\(passed.stderr)")
        }

        /// Nothing found is said once, by the verdict.
        @Test func noIncidentIsSaidOnce() throws {
            let folder = try TemporaryFolder(["quiet.syslog": "Mar  2 10:11:12 iPhone SpringBoard[58] <Notice>: Scene update\n"])
            let result = try runSupervisor(["analyze", folder.path + "/quiet.syslog"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("\n\nNo kill-before-render incident.\n") && !result.stdout.contains("No incidents"))
            #expect(!result.stdout.contains("\n\n\n"))
        }

        /// Runs the built `supervisor` with standard output a pipe whose reader is already gone; returns the ended
        /// process and its standard error.
        static func runWithStandardOutputClosed(_ arguments: [String]) throws -> (Process, String) {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            close(ends[0])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: supervisorPath)
            process.arguments = arguments
            process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let err = Pipe()
            process.standardError = err
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process, stderr)
        }

        /// `analyze … | head`: a reader that went away ends the command by SIGPIPE, silently, as `session show`.
        @Test func aClosedPipeEndsQuietly() throws {
            let folder = try TemporaryFolder(["race.log": Fixture.xcode])
            try Session.create(folder.path + "/s.session")
            for arguments in [["analyze", folder.path + "/race.log"], ["session", "show", folder.path + "/s.session"]] {
                let (process, stderr) = try Self.runWithStandardOutputClosed(arguments)
                #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
                        "\(arguments[0]): \(process.terminationReason) \(process.terminationStatus)")
                #expect(stderr.isEmpty, "\(arguments[0]): \(stderr)")
            }
        }

        /// `analyze … --fail-on … | head`: the gate's line and status outlive the reader, so a CI step that reads
        /// only the top of the report still fails on what the gate found.
        @Test func aGateOutlivesAClosedPipe() throws {
            let folder = try TemporaryFolder(["race.log": Fixture.xcode])
            let (process, stderr) = try Self.runWithStandardOutputClosed(
                ["analyze", folder.path + "/race.log", "--fail-on", "killed-before-render"])
            #expect(process.terminationReason == .exit && process.terminationStatus == 3, "\(process.terminationStatus)")
            #expect(stderr == "supervisor: --fail-on: found 1 killed-before-render; exit status 3\n", "\(stderr)")
        }
    }
}

extension BesideOthers.Messages {
    /// Help and the README say what they mean, not the project's own shorthand for its sources: "the seed" (the
    /// blog post the project started from), its author, "the field app", "the benchmark issue".
    @Test func helpAndReadmeSpeakTheUsersWords() throws {
        let shorthand = ["the seed", "seed's", "field app", "field test app", "the field's", "benchmark issue"]
        var texts = ["README.md": try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)]
        for command in ["run", "compare", "analyze", "bench", "session", "policies"] {
            let help = try runSupervisor(["help", command])
            try #require(help.status == 0, "\(help.stderr)")
            texts["help \(command)"] = help.stdout
        }
        for (name, text) in texts {
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
            for phrase in shorthand {
                #expect(!words.contains(phrase), "\(name) says '\(phrase)'")
            }
        }
        #expect(texts["help analyze"]?.contains("blank view with no termination callback") == true)
    }
}

private enum Session {
    static func create(_ path: String) throws {
        let result = try runSupervisor(["session", "create", path, "--tabs", "3"])
        try #require(result.status == 0, "\(result.stderr)")
    }
}
