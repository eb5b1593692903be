import Foundation
import Glibc
import Testing

@testable import LogAnalysis
@testable import Process
@testable import Scenario
@testable import Browser
@testable import System
@testable import SupervisorTesting

extension Processes {
    /// Which worker build runs: the CLI's `--worker`, and the tests' own `SUPERVISOR_TEST_WORKER`, under which CI
    /// runs a subset of the process tests against the portable worker. Each is checked on the running process.
    @Suite struct WorkerChoice {
        @Test(arguments: [
            (nil, "WebContent"), ("embedded", "WebContent"), ("portable", "WebContentPortable"),
            (productsDirectory + "/WebContentPortable", "WebContentPortable"),
        ] as [(String?, String)])
        func theWorkerOptionPicksTheBuildThatRuns(argument: String?, executable: String) throws {
            let folder = try TemporaryFolder([:])
            let worker = argument.map { ["--worker", $0] } ?? []
            let supervisor = try BackgroundSupervisor(["run", "--loads", "1000000", "--dwell", "50"] + worker, folder: folder)
            // A child seen between posix_spawn and its exec still runs the supervisor's image: wait for the exec.
            var running: String?
            let started = eventually(within: 10) {
                running = supervisor.liveChildren().lazy
                    .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0.pid)/exe") }
                    .first { !$0.hasSuffix("/supervisor") }
                return running != nil
            }
            kill(supervisor.pid, SIGTERM)
            _ = supervisor.wait()
            #expect(started, "\(supervisor.stderr)")
            #expect(running == productsDirectory + "/" + executable)
        }

        @Test func theTestsRunTheWorkerTheEnvironmentNames() throws {
            let chosen = ProcessInfo.processInfo.environment["SUPERVISOR_TEST_WORKER"] ?? "embedded"
            let driver = try WorkerDriver()
            _ = try driver.receive()
            let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(driver.worker.pid)/exe")
            #expect(running == productsDirectory + (chosen == "portable" ? "/WebContentPortable" : "/WebContent"))
        }
    }
}
