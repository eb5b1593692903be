import CShim
import Foundation
import Glibc
import ProcFS

@testable import Text

/// A `supervisor` started in the background, its output going to files in `folder`, for tests that signal it
/// mid-run. Started `in` a directory, the names it is given are relative to that; with `waitingInput` its standard
/// input is a pipe held open, so that `analyze -` waits on it.
final class BackgroundSupervisor {
    let folder: TemporaryFolder
    private let process = Process()
    private let input = Pipe()

    init(_ arguments: [String], folder: TemporaryFolder, in directory: TemporaryFolder? = nil, waitingInput: Bool = false) throws {
        self.folder = folder
        process.executableURL = URL(fileURLWithPath: supervisorPath)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory.path) }
        if waitingInput { process.standardInput = input }
        _ = FileManager.default.createFile(atPath: folder.path + "/stdout", contents: nil)
        _ = FileManager.default.createFile(atPath: folder.path + "/stderr", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: folder.path + "/stdout")
        process.standardError = FileHandle(forWritingAtPath: folder.path + "/stderr")
        try process.run()
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    var pid: Int32 { process.processIdentifier }

    /// Whether it is blocked reading its standard input (/proc/PID/syscall: read, on descriptor 0): whatever it did
    /// before its first read, opening and registering its outputs, is done.
    var readingStandardInput: Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return false }
        let words = text.split(separator: " ")
        return words.count > 1 && words[0] == "0" && words[1] == "0x0"
    }
    var stdout: String { (try? String(contentsOfFile: folder.path + "/stdout", encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: folder.path + "/stderr", encoding: .utf8)) ?? "" }

    /// Waits for the process to exit and returns its status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` and waits for the exit; returns the status as a shell tells it (128 + a signal's number).
    func end(by signal: Int32) -> Int32 {
        kill(pid, signal)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Its children that have not exited, by name: WebContent workers and Jetsam.
    func liveChildren() -> [(pid: Int32, name: String)] {
        processes().filter { $0.parent == pid && $0.state != "Z" }.map { ($0.pid, $0.name) }
    }
}

/// Every process on the machine: pid, parent, name and state letter, from /proc/PID/stat.
func processes() -> [(pid: Int32, parent: Int32, name: String, state: Character)] {
    ProcFS.pids().compactMap { ProcFS.stat(.pid($0)) }.map { ($0.pid, $0.parent, $0.command, $0.state) }
}

/// Polls `condition` every few milliseconds until it holds or `seconds` pass; returns whether it held. For
/// conditions only the file system or /proc can tell, which send no event.
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// After their supervisor was SIGKILLed: waits (bounded) until `pids` are dead, and reaps those that were
/// re-parented to this process (a child subreaper since `startSupervisorShowing`). Returns whether all died.
@discardableResult
func reapOrphans(_ pids: [Int32]) -> Bool {
    let died = eventually(within: 5) { pids.allSatisfy(isDead) }
    // Workers launched after `pids` were listed, re-parented here too.
    let adopted = { processes().filter { $0.parent == getpid() && ["WebContent", "Jetsam"].contains($0.name) }.map(\.pid) }
    let all = pids + adopted()
    _ = eventually(within: 5) { all.allSatisfy(isDead) }
    for pid in all { _ = waitpid(pid, nil, WNOHANG) }
    return died
}

/// Whether `pid` is gone or a zombie: dead either way.
func isDead(_ pid: Int32) -> Bool {
    ProcFS.stat(.pid(pid))?.isLive != true
}

/// A `supervisor run` with `views` views whose pages stay on screen, started with `arguments`, once each view has
/// rendered: the supervisor and its workers' pids. This process becomes a child subreaper first, so that workers
/// orphaned by the supervisor's death come to it, which reaps them (`reapOrphans`).
func startSupervisorShowing(views: Int, _ arguments: [String]) throws -> (Process, [Int32]) {
    try startSupervisor(
        ["run", "--loads", "\(views)", "--views", "\(views)", "--dwell", "60000"] + arguments, untilRendered: views)
}

/// `supervisor` with `arguments` and its event log on standard output (`--log /dev/stdout` is added), once workers
/// of `count` pids have rendered: the supervisor and those pids, as `startSupervisorShowing`.
func startSupervisor(_ arguments: [String], untilRendered count: Int) throws -> (Process, [Int32]) {
    _ = sv_set_child_subreaper()
    let supervisor = Process()
    supervisor.executableURL = URL(fileURLWithPath: supervisorPath)
    supervisor.arguments = arguments + ["--log", "/dev/stdout"]
    let out = Pipe()
    supervisor.standardOutput = out
    try supervisor.run()
    var buffered = ""
    var rendered: Set<Int32> = []
    while rendered.count < count {
        var ready = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let chunk = poll(&ready, 1, 10_000) == 1 ? out.fileHandleForReading.availableData : Data()
        if chunk.isEmpty {
            supervisor.terminate()
            supervisor.waitUntilExit()
            throw CancellationError()
        }
        buffered += String(decoding: chunk, as: UTF8.self)
        let lines = buffered.split(separator: "\n", omittingEmptySubsequences: false)
        buffered = String(lines.last ?? "")
        for line in lines.dropLast() where line.contains(#""event":"render""#) {
            if let range = line.range(of: #""pid":"#), let pid = Int32(line[range.upperBound...].prefix { $0.isNumber }) {
                rendered.insert(pid)
            }
        }
    }
    return (supervisor, rendered.sorted())
}
