import Foundation
import Glibc
import Testing
import Text
@testable import SupervisorTesting

extension Processes {
    /// A worker's standard error is its own pipe, not the operator's terminal: each line is passed on named by the
    /// worker's pid and made visible, and a flood of it is counted, not shown or kept.
    @Suite struct WorkerStandardError {
        /// A `--worker` script that, the first time it runs in `folder`, writes `text` to its standard error (a
        /// shell command line), then execs the real worker.
        func noisyWorker(_ command: String, in folder: TemporaryFolder) throws -> String {
            let script = folder.path + "/worker.sh"
            try """
            #!/bin/sh
            if [ ! -e \(folder.path)/launched ]; then
                : > \(folder.path)/launched
                \(command)
            fi
            exec \(workerPath) "$@"
            """.write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            return script
        }

        /// Escape sequences (a window title, here) and a line dressed as the supervisor's own error reach the
        /// operator as text they can read, under the worker's pid, and never raw; so does a last line left
        /// unended.
        @Test func aWorkersEscapesAndForgedLinesAreShownNamedAndVisible() throws {
            let folder = try TemporaryFolder([:])
            let worker = try noisyWorker(
                #"printf '\033]0;owned\007supervisor: error: the disk is on fire\nno end' >&2"#, in: folder)
            let result = try runSupervisorBounded(["run", "--worker", worker, "--loads", "2", "--log", folder.path + "/run.jsonl"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.utf8.contains(0x1B) && !result.stderr.utf8.contains(0x07))
            #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("supervisor:") })
            let pid = try #require(logEvents(folder.path + "/run.jsonl").first { $0["event"] as? String == "spawn" }?["pid"] as? Int)
            #expect(unwrapped(result.stderr) == """
                worker \(pid): ␛]0;owned␇supervisor: error: the disk is on fire
                worker \(pid): no end

                """)
        }

        /// A worker that writes 200,000 lines and one 1 MB line: its first lines are shown, the long one cut, the
        /// rest counted in one line, and the run goes on as if nothing had happened.
        @Test func aFloodOfStandardErrorIsCountedNotShown() throws {
            let folder = try TemporaryFolder([:])
            let worker = try noisyWorker(
                "head -c 1000000 /dev/zero | tr '\\0' x >&2; echo >&2; yes flood | head -n 200000 >&2", in: folder)
            let result = try runSupervisorBounded(["run", "--worker", worker, "--loads", "3", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = unwrapped(result.stderr).split(separator: "\n")
            #expect(lines.count == 21, "\(lines.prefix(3))")
            // Wrapped to the terminal's width: a word longer than a line is broken where the line ends.
            #expect(lines.first?.filter { $0 != " " }.hasSuffix(":" + String(repeating: "x", count: 160) + "…") == true)
            #expect(lines.dropFirst().prefix(19).allSatisfy { $0.hasSuffix(": flood") })
            let hidden = (1_000_000 - 160) + (200_000 - 19) * 6
            #expect(lines.last?.hasSuffix(": \(grouped(hidden)) more bytes of standard error not shown") == true, "\(lines.last ?? "")")
            #expect(try runCounts(result.stdout)["rendered"] == "3")
        }
    }
}
