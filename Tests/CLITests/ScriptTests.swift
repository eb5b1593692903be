import Foundation
import Glibc
import ProcFS
import Testing
@testable import SupervisorTesting

/// The repository's root, where scripts/ lives.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
    .standardized.path

/// A folder of stand-ins put first on a script's PATH: `swift` fails at once, so a script that goes past its checks
/// by mistake stops in its build instead of starting a run; `files` adds or replaces stand-ins.
func standIns(_ files: [String: String] = [:]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder(["swift": "#!/bin/sh\necho 'stand-in swift: no build here' >&2\nexit 97\n"].merging(files) { $1 })
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        chmod(folder.path + "/" + name, 0o755)
    }
    return folder
}

/// Runs `scripts/NAME` with the stand-ins first on its PATH, killed after `seconds` (status 137) so that a script
/// that does more than it was asked fails its test instead of stalling the suite.
func runScript(
    _ name: String, _ arguments: [String], standIns: TemporaryFolder, environment: [String: String] = [:], seconds: Int = 30
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = try scriptProcess(name, arguments, standIns: standIns, environment: environment, seconds: seconds)
    let (out, err) = (Pipe(), Pipe())
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

func scriptProcess(
    _ name: String, _ arguments: [String], standIns: TemporaryFolder, environment: [String: String], seconds: Int
) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    // SIGINT at its default, as in a terminal's foreground job: the test runner may have it ignored, and an
    // ignored signal stays ignored across exec.
    process.arguments = ["-s", "KILL", String(seconds), "/usr/bin/env", "--default-signal=INT", "\(repositoryRoot)/scripts/\(name)"]
        + arguments
    var variables = ProcessInfo.processInfo.environment
    variables["PATH"] = standIns.path + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
    process.environment = variables.merging(environment) { $1 }
    return process
}

extension Processes {
    /// scripts/chaos, scripts/fuzz and scripts/bench as a user meets them: help, mistakes, Ctrl-C, reports. None of
    /// these runs chaos, a fuzzer or a benchmark: a stand-in `swift` stops any script that would.
    @Suite struct Scripts {
        @Test(arguments: [("chaos", ["--help"]), ("fuzz", ["--help"]), ("fuzz", ["--list"])])
        func helpFitsWithWordsWhole(script: String, arguments: [String]) throws {
            let result = try runScript(script, arguments, standIns: standIns())
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count > 8)
            #expect(overlong(result.stdout).isEmpty, "\(overlong(result.stdout))")
            #expect(fitsWithWordsWhole(result.stdout))
        }

        /// Its own usage, not the `supervisor bench` help it would print after a release build.
        @Test func benchHelpIsTheScripts() throws {
            let result = try runScript("bench", ["--iterations", "3", "--help"], standIns: standIns())
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Builds in release mode"))
            #expect(result.stdout.contains("  scripts/bench --help\n") && !result.stdout.contains("USAGE"))
            #expect(fitsWithWordsWhole(result.stdout))
        }

        /// A mistake is a usage error (64) in one message, before any build: more views than `supervisor run`
        /// takes, and hangs asked of the mode that makes none.
        @Test func chaosUsageErrors() throws {
            let tools = try standIns()
            for arguments in [
                ["--views", "100000"], ["--kill-supervisor-every", "3", "--hang-every", "2"],
                ["--kill-supervisor-every", "3", "--views", "2000000"],
            ] {
                let result = try runScript("chaos", arguments, standIns: tools)
                #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
                #expect(unwrapped(result.stderr).split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(result.stderr.hasPrefix("chaos: '--") && fitsWithWordsWhole(result.stderr), "\(result.stderr)")
            }
            // 5,000 tabs are a session's, not views: accepted, and so the stand-in build is reached.
            let tabs = try runScript("chaos", ["--kill-supervisor-every", "3", "--views", "5000"], standIns: tools)
            #expect(tabs.status == 1 && tabs.stderr.contains("stand-in swift"), "\(tabs.stderr)")
        }

        /// Ctrl-C during a run: one line naming the folder its files are kept in, status 130, no traceback; the
        /// supervisor it started is ended with it.
        @Test func chaosInterruptedSaysWhereItsFilesAre() throws {
            let scratch = try TemporaryFolder([:])
            let ready = scratch.path + "/ready"
            try #require(mkfifo(ready, 0o600) == 0)
            let bin = try TemporaryFolder(["supervisor": "#!/bin/sh\necho started > \"$CHAOS_TEST_READY\"\nexec sleep 60\n"])
            chmod(bin.path + "/supervisor", 0o755)
            let tools = try standIns([
                "swift": "#!/bin/sh\ncase \"$*\" in *--show-bin-path*) echo '\(bin.path)' ;; esac\nexit 0\n",
            ])
            let process = try scriptProcess(
                "chaos", ["--duration", "30"], standIns: tools,
                environment: ["CHAOS_TEST_READY": ready, "TMPDIR": scratch.path], seconds: 60)
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Awaits the stand-in supervisor's line, for at most 30 s.
            let fd = open(ready, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            try #require(fd >= 0)
            defer { close(fd) }
            var event = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            try #require(poll(&event, 1, 30_000) == 1, "the stand-in supervisor never started")
            // SIGINT to the script itself (timeout's child, env having run it), as a terminal sends it.
            let script = try #require(ProcFS.children(of: process.processIdentifier).first?.pid)
            kill(script, SIGINT)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 130, "\(stderr)")
            #expect(!stderr.contains("Traceback") && unwrapped(stderr).split(separator: "\n").count == 1, "\(stderr)")
            let kept = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("chaos-") }
            #expect(kept.count == 1 && stderr.contains("\(scratch.path)/\(kept.first ?? "?")"), "\(stderr) \(kept)")
            #expect(childProcesses().isEmpty)
        }

        /// The reports of both modes over figures wider than any run gives: every line within 100 columns, every
        /// word kept whole; a run that failed names the folder it kept, one that held removes it.
        @Test func chaosReportsFitWithWordsWhole() throws {
            let scratch = try TemporaryFolder([:])
            let program = """
                import json, os, sys
                sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
                import chaos_report, chaos_restarts
                big, work = 12345678901234, sys.argv[2]
                failures = ["kills not classified killed/SIGKILL: " + str([(4107 + i, "sandbox-violation") for i in range(5)]),
                            "views not rendered again: %d blank, %d failed" % (big, big),
                            "workers outlived their supervisors: " + str(list(range(big, big + 5)))]
                kills = {"kills": big, "detected": big, "hangs": big, "hangsDetected": big, "zombiesSeen": big,
                         "fdDelta": -big, "rssGrowthPercent": 123456.78, "lostInputs": big, "duplicateInputs": big,
                         "killToRenderedMs": {"p50": 1234567.891, "p99": 98765432.1, "count": big}, "loads": big,
                         "blank": big, "failed": big, "typedInputs": big, "leftovers": big, "outsideKills": big,
                         "rssKiB": {"start": big, "end": big}, "ok": False, "failures": failures}
                number = {"count": big, "bytes": big}
                restarts = {"supervisorKills": big, "restarts": big, "finalExitStatus": 137, "tornLogLines": big,
                            "inputs": {"typed": big, "acknowledged": big, "unacknowledgedAtKills": big,
                                       "finalDocument": big, "lost": big, "duplicated": big},
                            "sessions": {"compared": big, "equal": big, "lastSaveLogged": big, "saveLineLost": big,
                                         "wholeUnlogged": big, "unlogged": big},
                            "tornTails": {"session": number, "journal": number},
                            "workersGoneAfterSupervisorKillMs": {"max": 1234.5, "p50": 12.25, "count": big,
                                                                 "workersAtKills": big, "boundMs": 100.0},
                            "workerKills": {"sent": big, "checked": big, "detected": big},
                            "zombiesSeen": big, "leftovers": big, "loads": big, "blank": big, "failed": big,
                            "keepWorkers": True,
                            "restartCost": {
                                "restartToFirstEventMs": {"p50": 1234567.891, "max": 98765432.1},
                                "restartToVisibleMs": {"p50": 1234567.891, "max": 98765432.1, "count": big},
                                "adoption": {"heldAtKills": big, "reclaimed": big, "adopted": big, "refused": big,
                                             "unanswered": big, "adoptedShare": 0.9999, "refusals": {},
                                             "restartToLastAdoptMs": {"p50": 1234567.891, "max": 98765432.1}}},
                            "ok": False, "failures": failures}
                out = {}
                for name, report, lines in [("kills", kills, lambda: chaos_report.kill_lines(kills)),
                                            ("restarts", restarts, lambda: chaos_restarts.summary_lines(restarts))]:
                    os.makedirs(work + "/" + name)
                    chaos_report.finish(report, work + "/" + name)
                    wrapped, wrap = lines(), chaos_report.wrapped
                    chaos_report.wrapped = chaos_restarts.wrapped = lambda lines: lines
                    out[name] = {"wrapped": wrapped, "original": lines()}
                    chaos_report.wrapped = chaos_restarts.wrapped = wrap
                ok = dict(kills, ok=True, failures=[])
                os.makedirs(work + "/ok")
                chaos_report.finish(ok, work + "/ok")
                out["ok"] = {"lines": chaos_report.kill_lines(ok), "workDirectory": ok["workDirectory"]}
                print(json.dumps(out))
                """
            let result = try runCommand("/usr/bin/env", ["python3", "-c", program, repositoryRoot, scratch.path])
            try #require(result.status == 0, "\(result.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
            for mode in ["kills", "restarts"] {
                let wrapped = try #require(out[mode]?["wrapped"] as? [String])
                let original = try #require(out[mode]?["original"] as? [String])
                #expect(!overlong(original.joined(separator: "\n")).isEmpty, "the figures are not wide: \(mode)")
                #expect(fitsWithWordsWhole(wrapped.joined(separator: "\n")), "\(mode): \(wrapped)")
                #expect(words(wrapped) == words(original), "\(mode): \(wrapped)")
                #expect(wrapped.last == "    \(scratch.path)/\(mode)" || wrapped.joined(separator: " ")
                    .contains("kept in \(scratch.path)/\(mode)"), "\(mode): \(wrapped)")
                #expect(FileManager.default.fileExists(atPath: "\(scratch.path)/\(mode)"))
            }
            #expect((out["ok"]?["lines"] as? [String])?.last == "chaos: ok")
            #expect(out["ok"]?["workDirectory"] is NSNull)
            #expect(!FileManager.default.fileExists(atPath: "\(scratch.path)/ok"))
        }
    }
}
