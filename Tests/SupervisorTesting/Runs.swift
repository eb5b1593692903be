import Foundation
import Glibc
import ProcFS

/// `arguments` started in the background in `folder`, its output kept in a folder of its own.
func backgroundSupervisor(
    _ arguments: [String], in folder: TemporaryFolder, waitingInput: Bool = false
) throws -> BackgroundSupervisor {
    try BackgroundSupervisor(arguments, folder: TemporaryFolder([:]), in: folder, waitingInput: waitingInput)
}

/// Runs `supervisor` with `arguments` (words split at spaces) in `folder`, to its end, killed after a minute (status
/// 9) if it hangs.
func runSupervisor(in folder: TemporaryFolder, _ arguments: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try runCommand("/bin/sh", ["-c", "cd '\(folder.path)' && exec timeout -s KILL 60 '\(supervisorPath)' \(arguments)"])
}

/// Runs the built supervisor with `faults` (rules of `SyscallFaults`) in its environment, killed after a minute if
/// it hangs. `made` is how many calls each rule failed, as the supervisor reported at its exit.
func runSupervisorFailing(_ faults: String, _ arguments: [String], folder: TemporaryFolder) throws
    -> (status: Int32, stdout: String, stderr: String, made: [Int])
{
    let report = folder.path + "/faults-made"
    let result = try runCommand(
        "/usr/bin/timeout",
        ["-s", "KILL", "60", "/usr/bin/env", "SUPERVISOR_SYSCALL_FAULTS=report=\(report);\(faults)", supervisorPath]
            + arguments)
    let made = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) }
    return (result.status, result.stdout, result.stderr, made)
}

/// The children of `parent`, by pid and command name.
func childProcesses(of parent: Int32) -> [(pid: Int32, name: String)] {
    ProcFS.children(of: parent).map { ($0.pid, $0.command) }
}

/// Runs the built `supervisor` with `arguments`, sends it SIGINT once one of its workers runs (its first run is
/// under way, and the signals taken), and returns its exit status and standard output; nil when no worker ran
/// within `seconds`.
func interruptedSupervisor(_ arguments: [String], within seconds: Double = 10) throws -> (status: Int32, stdout: String)? {
    let supervisor = Process()
    supervisor.executableURL = URL(fileURLWithPath: supervisorPath)
    supervisor.arguments = arguments
    let out = Pipe()
    supervisor.standardOutput = out
    supervisor.standardError = FileHandle.nullDevice
    try supervisor.run()
    let started = eventually(within: seconds) {
        childProcesses(of: supervisor.processIdentifier).contains { $0.name == "WebContent" }
    }
    kill(supervisor.processIdentifier, SIGINT)
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    supervisor.waitUntilExit()
    return started ? (supervisor.terminationStatus, stdout) : nil
}
