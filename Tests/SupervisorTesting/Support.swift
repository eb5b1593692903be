import Foundation
import Glibc
import ProcFS
import Testing

@testable import Events
@testable import LogAnalysis
@testable import Core
@testable import Scenario
@testable import Browser
@testable import Text
import System
import TestSupport

/// The directory holding the products of this build: the test bundle, `supervisor` and `WebContent`.
let productsDirectory: String = {
    let exe = ProcFS.executable()!
    var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
    while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("WebContent").path) {
        guard dir.path != "/" else { fatalError("WebContent is not built next to \(exe)") }
        dir = dir.deletingLastPathComponent()
    }
    return dir.path
}()

/// The worker every test runs: WebContent (Embedded Swift), or with `SUPERVISOR_TEST_WORKER=portable` the same
/// sources built as ordinary Swift, which CI runs a subset of the process tests against.
let workerPath: String = {
    switch ProcessInfo.processInfo.environment["SUPERVISOR_TEST_WORKER"] {
    case nil, "embedded": productsDirectory + "/WebContent"
    case "portable": productsDirectory + "/WebContentPortable"
    case let other?: fatalError("SUPERVISOR_TEST_WORKER is embedded or portable, not '\(other)'")
    }
}()
let supervisorPath = productsDirectory + "/supervisor"

/// A fresh folder holding `files` (a content root, or scratch space), removed when the value is released.
final class TemporaryFolder {
    let path: String

    init(_ files: [String: String]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("supervisor-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var provider: ContentProvider { get throws { try ContentProvider(root: path) } }
}

func page(_ title: String, render: String = "", fault: String? = nil) -> String {
    var head = "<title>\(title)</title>"
    if !render.isEmpty { head += "<meta name=\"x-render\" content=\"\(render)\">" }
    if let fault { head += "<meta name=\"x-fault\" content=\"\(fault)\">" }
    return "<html><head>\(head)</head><body>\(title)</body></html>"
}

/// Runs a simulation to completion and returns its summary with every event it emitted. `react` sees each event as it
/// happens, on the event loop, where it may kill workers.
func simulate(
    _ configure: (inout RunConfiguration) -> Void = { _ in }, content: ContentProvider,
    react: @escaping (Event) -> Void = { _ in }
) throws -> (summary: RunSummary, events: [Event]) {
    let configuration = testConfiguration(workerPath: workerPath) {
        $0.outsideKillsPath = outsideKills
        configure(&$0)
    }
    ProcessGateTrait.expectAlone("simulate")
    return try recorded(react) { log in try Simulation(configuration: configuration, content: content, log: log) }
}

/// `simulate` on a virtual clock, with workers that behave as WebContent (`PageWorker`) and are no processes: a
/// policy's logic, run in microseconds of real time. `prepare` sets up each worker as it is launched.
func simulateVirtually(
    _ configure: (inout RunConfiguration) -> Void = { _ in }, content: ContentProvider,
    react: @escaping (Event) -> Void = { _ in }, prepare: @escaping (FakeWorker) -> Void = { _ in }
) throws -> (summary: RunSummary, events: [Event], workers: [FakeWorker]) {
    let clock = VirtualClock()
    let launcher = FakeLauncher(clock: clock)
    launcher.prepare = { worker in
        PageWorker(worker, clock: clock)
        prepare(worker)
    }
    let configuration = testConfiguration(workerPath: launcher.executable, configure)
    let (summary, events) = try recorded(react) { log in
        try Simulation(
            configuration: configuration, content: content, log: log, loop: try EventLoop(), clock: clock, launcher: launcher)
    }
    return (summary, events, launcher.launched)
}

/// A run's configuration for the tests: loads that cannot recover end as blank after a second rather than five.
private func testConfiguration(workerPath: String, _ configure: (inout RunConfiguration) -> Void) -> RunConfiguration {
    var configuration = RunConfiguration(workerPath: workerPath)
    configuration.blankTimeoutNanoseconds = 1_000_000_000
    configure(&configuration)
    return configuration
}

/// Runs the simulation `make` builds on a log that keeps every event, showing each to `react` as it happens.
private func recorded(_ react: @escaping (Event) -> Void, _ make: (EventLog) throws -> Simulation) throws -> (RunSummary, [Event]) {
    let log = EventLog()
    nonisolated(unsafe) var events: [Event] = []
    log.observers.append { event in
        events.append(event)
        react(event)
    }
    let summary = try make(log).run()
    return (summary, events)
}

/// The file every in-process run reads kill claims from (`RunConfiguration.outsideKillsPath`): each run reads only
/// what is appended after it starts. Removed when the tests exit.
let outsideKills: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("supervisor-test-kills-\(getpid())").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    atexit { unlink(outsideKills) }
    return path
}()

/// Kills `pid` as a killer outside the run does (scripts/chaos): named in the claims first, so that its death is
/// a kill from outside, not one nobody owned up to.
func killFromOutside(_ pid: Int32, _ signal: Int32 = SIGKILL, claims: String = outsideKills) {
    let fd = open(claims, O_WRONLY | O_APPEND | O_CLOEXEC)
    precondition(fd >= 0, "cannot open \(claims)")
    let line = Array("\(pid)\n".utf8)
    precondition(write(fd, line, line.count) == line.count, "cannot write \(claims)")
    close(fd)
    kill(pid, signal)
}

extension [Event] {
    func named(_ name: String) -> [Event] { filter { $0.name == name } }
}

extension Event {
    /// A key of the record as written: the tests read events by the schema, as the log's other readers may.
    subscript(key: String) -> JSON? { kind.fields.first { $0.0 == key }?.1 }

    func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }

    func int(_ key: String) -> Int? {
        if case .int(let value)? = self[key] { return value }
        return nil
    }
}

/// Open descriptors of this process of the kinds a supervisor opens (pipes, pidfds, epoll, timerfd, signalfd,
/// /dev/null), by number and target. Other kinds, such as Foundation's own, come and go on other threads.
func openSupervisorDescriptors() throws -> [String] {
    _ = dispatchTimersStarted
    let kinds = ["pipe:", "anon_inode:[pidfd]", "anon_inode:[eventpoll]", "anon_inode:[timerfd]", "anon_inode:[signalfd]", "/dev/null"]
    return ProcFS.descriptors(of: .current).compactMap { fd in
        guard let target = ProcFS.descriptorTarget(.current, fd), kinds.contains(where: target.hasPrefix) else { return nil }
        return "\(fd) \(target)"
    }.sorted()
}

/// libdispatch opens a timerfd for each of its clocks the first time a timer of that clock is armed (Task.sleep,
/// asyncAfter), and keeps it: armed by a test beside one that counts descriptors, it looked like a leak. Each is
/// armed once, before the first count.
private let dispatchTimersStarted: Void = {
    let fired = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { fired.signal() }
    DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(1)) { fired.signal() }
    Task.detached {
        try? await Task.sleep(for: .milliseconds(1), clock: .continuous)
        try? await Task.sleep(for: .milliseconds(1), clock: .suspending)
        fired.signal()
    }
    for _ in 0..<3 { fired.wait() }
}()

/// The descriptors of those kinds open now that were not open `before`, and stay open. A test that needs no gate (a
/// simulation on a virtual clock, an exit test) opens an epoll, a timerfd or a pipe beside the test that counts, for
/// as long as it runs, which on a busy machine has been over two seconds; so what is new is looked at again for up
/// to ten: a leak stays open, theirs close.
func leakedDescriptors(since before: [String]) throws -> [String] {
    var leaked: [String] = []
    _ = eventually(within: 10) {
        leaked = ((try? openSupervisorDescriptors()) ?? []).filter { !before.contains($0) }
        return leaked.isEmpty
    }
    return leaked
}

/// Children of this process that are alive, with their state letter. A zombie is already dead: one is left when a
/// process this one adopted as a subreaper (an orphaned grandchild, say of a `timeout` that killed its group) ended,
/// which says nothing of what the test started.
func childProcesses() -> [(pid: Int32, state: Character)] {
    ProcFS.children(of: getpid()).filter { $0.state != "Z" }.map { ($0.pid, $0.state) }
}

/// Workers that outlived the `supervisor` that started them: this process is their subreaper, so an orphaned
/// WebContent or Jetsam becomes its child. Alive ones only; a test beside others checks this, not `childProcesses`,
/// since the `supervisor` processes of the tests beside it are children too. The workers and Jetsam that tests
/// beside it start in this process are its children as well: each names its supervisor's pid among its arguments,
/// and those that name this process are not orphans.
func orphanedWorkers() -> [Int32] {
    let workers: Set<String> = ["WebContent", "WebContentPorta", "Jetsam"]
    let us = String(getpid())
    return ProcFS.children(of: getpid()).filter { $0.state != "Z" && workers.contains($0.command) }.map(\.pid)
        .filter { pid in
            let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))?
                .split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) }
            // One that is gone already (nil) outlived nothing.
            return arguments.map { !$0.contains(us) } ?? false
        }
}

/// Names of the descriptors a process has open.
func descriptors(of pid: Int32) -> [Int] {
    ProcFS.descriptors(of: .pid(pid)).map(Int.init)
}

/// Runs the built `supervisor` binary, killed after `seconds` (status 124) if it has not exited by then: a
/// regression that hangs fails its test instead of stalling the suite.
func runSupervisorBounded(_ arguments: [String], seconds: Int = 30) throws -> (status: Int32, stdout: String, stderr: String) {
    try runCommand("/usr/bin/timeout", ["-s", "KILL", String(seconds), supervisorPath] + arguments)
}

/// Runs the built `supervisor` binary to completion.
func runSupervisor(_ arguments: [String], input: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    try runCommand(supervisorPath, arguments, input: input)
}

/// Runs any executable to completion, with `input` on its standard input if given.
func runCommand(_ path: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    if input != nil { process.standardInput = stdin }
    try process.run()
    if let input {
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// Runs `body` with a folder on a file system of its own, `bytes` large, unmounted after: a disk that fills up.
/// Mounting needs root (CI runs as root); without it the test fails rather than passing unchecked.
func withSmallFileSystem(bytes: Int, _ body: (String) throws -> Void) throws {
    let folder = try TemporaryFolder([:])
    let mounted = try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", folder.path])
    try #require(mounted.status == 0, "cannot mount a small tmpfs (needs root): \(mounted.stderr)")
    defer { _ = try? runCommand("/bin/umount", [folder.path]) }
    try body(folder.path)
}

/// What the CLI wrote to standard error with its wrapping undone: each message on one line again. Messages are
/// wrapped at words to 100 columns, later lines indented by two.
func unwrapped(_ stderr: String) -> String {
    stderr.replacingOccurrences(of: "\n  ", with: " ")
}
