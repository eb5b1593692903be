import CShim
import Foundation
import Glibc
import Process
import Synchronization
import Testing
import WireProtocol

@testable import SupervisorTesting
@testable import System

extension Processes.Holding {
    /// A holder started with a name waits there, through its lease, for the session's next supervisor: one that
    /// connects ends the lease and gets every worker's descriptors back, and the channels are whole: what a worker
    /// said before the first supervisor died is still there to read, and it answers the new one.
    @Test func aSupervisorThatComesBackTakesItsWorkersBack() throws {
        let name = Self.uniqueName()
        let first = try HolderLink(holder: productsDirectory + "/Holder", leaseMilliseconds: 5_000, name: name)
        let spawned = try (0..<3).map { _ in try Self.spawnWorker(first) }
        // Labels are kept for the next supervisor; a worker never labelled has an empty one.
        try first.label(spawned[0].pid, "tab 7")
        try first.label(spawned[1].pid, "tab 8")
        try first.label(spawned[1].pid, "tab 9")
        first.letGo()
        for worker in spawned { for index in 0...3 { worker.descriptors.take(index)?.close() } }

        let second = try #require(try HolderLink.connect(name: name), "no holder at its name")
        #expect(second.pid == first.pid)
        let (generation, held) = try second.list()
        #expect(generation == 2)
        #expect(held.map(\.pid).sorted() == spawned.map(\.pid).sorted())
        let labels = Dictionary(uniqueKeysWithValues: held.map { ($0.pid, $0.label) })
        #expect([labels[spawned[0].pid], labels[spawned[1].pid], labels[spawned[2].pid]] == ["tab 7", "tab 9", ""])
        for (index, worker) in held.enumerated() {
            let input = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.input))
            let output = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.output))
            var decoder = FrameDecoder<FromWorker>()
            guard case .hello(let pid, _, _) = try Self.read(output, &decoder) else {
                Issue.record("no hello kept in the channel of \(worker.pid)")
                continue
            }
            #expect(pid == worker.pid)
            try ToWorker.ping(seq: UInt64(index)).frame.withUnsafeBytes { try Sys.writeAll(input, $0) }
            #expect(try Self.read(output, &decoder) == .pong(seq: UInt64(index)))
        }
        // The workers end, and the second supervisor goes: with nothing to hold, the holder exits at once.
        for worker in held {
            let pidfd = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.pidfd))
            #expect(sv_pidfd_send_signal(pidfd, SIGKILL) == 0)
            #expect(Self.ended(pidfd, within: 5_000))
        }
        second.letGo()
        #expect(try first.reap() == .code(0))
    }

    /// One supervisor at a time: one that connects while the first is attached waits until the first hangs up, and
    /// then takes over; a third meanwhile is refused (its socket ends). Nobody listens at a name no holder took.
    @Test func aSecondSupervisorWaitsForTheFirstAndAThirdIsRefused() throws {
        let name = Self.uniqueName()
        #expect(try HolderLink.connect(name: name) == nil)
        let first = try HolderLink(holder: productsDirectory + "/Holder", leaseMilliseconds: 5_000, name: name)
        let worker = try Self.spawnWorker(first)
        let second = try #require(try HolderLink.connect(name: name))
        let third = try #require(try HolderLink.connect(name: name))
        let refused = #expect(throws: SystemError.self) { try third.list() }
        #expect(refused?.errno == EPIPE || refused?.errno == ECONNRESET)
        #expect(try first.list().generation == 1)
        // The second's question is answered once the first has hung up.
        let listed = Mutex<(generation: Int, pids: [Int32])?>(nil)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let waiting = second
        Thread {
            if let answer = try? waiting.list() { listed.withLock { $0 = (answer.generation, answer.workers.map(\.pid)) } }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "answered while the first was attached")
        first.letGo()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let answer = try #require(listed.withLock { $0 })
        #expect(answer.generation == 2 && answer.pids == [worker.pid])
        let pidfd = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.pidfd))
        #expect(sv_pidfd_send_signal(pidfd, SIGKILL) == 0)
        #expect(Self.ended(pidfd, within: 5_000))
        second.letGo()
        #expect(try first.reap() == .code(0))
    }

    /// Another user's process is never answered: the holder closes its connection at once and keeps its workers for
    /// its own user's supervisor. (Only root can run the test's client as another user.)
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersProcessIsNeverAnswered() throws {
        let name = Self.uniqueName()
        let holder = try HolderLink(holder: productsDirectory + "/Holder", leaseMilliseconds: 5_000, name: name)
        let worker = try Self.spawnWorker(holder)
        holder.letGo()
        let client = """
            import socket
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect("\\0\(name)")
            try:
                s.send(b"list")
                print("answered" if s.recv(256) else "refused")
            except (BrokenPipeError, ConnectionResetError):
                print("refused")
            """
        let result = try runCommand("/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "refused\n")
        let back = try #require(try HolderLink.connect(name: name))
        #expect(try back.list().workers.map(\.pid) == [worker.pid])
        let pidfd = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.pidfd))
        #expect(sv_pidfd_send_signal(pidfd, SIGKILL) == 0)
        #expect(Self.ended(pidfd, within: 5_000))
        back.letGo()
        #expect(try holder.reap() == .code(0))
    }

    /// An abstract socket name no other test or run takes.
    static func uniqueName() -> String { "supervisor-test-holder-\(getpid())-\(UUID().uuidString)" }

    /// The next message on `fd`, waiting up to 5 s for each read.
    static func read(_ fd: Int32, _ decoder: inout FrameDecoder<FromWorker>) throws -> FromWorker? {
        try read(fd, &decoder) { try $0.next() }
    }

    /// Reads `fd` into `decoder` until `found` gives a value; nil at the end, or after 5 s without a byte.
    static func read<T>(
        _ fd: Int32, _ decoder: inout FrameDecoder<FromWorker>, until found: (inout FrameDecoder<FromWorker>) throws -> T?
    ) throws -> T? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        while true {
            if let value = try found(&decoder) { return value }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5_000) == 1 else { return nil }
            let count = Glibc.read(fd, &bytes, bytes.count)
            guard count > 0 else { return nil }
            bytes.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
