import CShim
import Glibc
import ProcFS
import Process
import Testing
import WireProtocol

@testable import SupervisorTesting
@testable import System

extension Processes.Holding {
    /// A supervisor dies mid-stream both ways: it had read the first bytes of a frame the worker sent, and written
    /// the first bytes of one to it. The next supervisor takes the worker back from the holder and queues the resync
    /// signal with its generation: the worker drops what it had not read, answers with what it has (its page,
    /// finished, its list, its last input and digest), and from then on the channel is in step: the half frame
    /// was never read as a message, and the next ping is answered. The half frame is either already read by the
    /// worker, or (the worker stopped meanwhile) still in the pipe when the signal comes.
    @Test(arguments: [false, true])
    func aFrameCutInHalfByTheSupervisorsDeathIsNeverMisread(stoppedMeanwhile: Bool) throws {
        let name = Self.uniqueName()
        let first = try HolderLink(holder: productsDirectory + "/Holder", leaseMilliseconds: 5_000, name: name)
        let worker = try Self.spawnWorker(first)
        let input = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.input))
        let output = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.output))
        var decoder = FrameDecoder<FromWorker>()
        guard case .hello = try Self.read(output, &decoder) else { throw CancellationError() }

        // The first supervisor shows a page and types into it.
        let url = "app://local/a.html"
        try Self.write(input, ToWorker.load(url: url, replace: false))
        #expect(try Self.read(output, &decoder) == .fetch(url: url, kind: .document))
        let html = Array(page("A").utf8)
        try Self.write(input, ToWorker.fetchReply(status: 200, mime: "text/html", length: UInt32(html.count), body: html))
        #expect(try Self.read(output, &decoder) == .didCommit(url: url))
        #expect(try Self.read(output, &decoder) == .didFinish(title: "A"))
        try Self.write(input, ToWorker.input(seq: 1, text: "hi"))
        let digest = documentDigest("hi".utf8)
        #expect(try Self.read(output, &decoder) == .inputApplied(seq: 1, digest: digest))

        // It dies having read 3 bytes of a pong and written 7 of an input.
        try Self.write(input, ToWorker.ping(seq: 99))
        var partial = [UInt8](repeating: 0, count: 3)
        var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5_000) == 1 && Glibc.read(output, &partial, 3) == 3)
        let workerPidfd = try #require(worker.descriptors.borrow(HolderLink.HeldWorker.pidfd))
        if stoppedMeanwhile {
            #expect(sv_pidfd_send_signal(workerPidfd, SIGSTOP) == 0)
            #expect(eventually(within: 5) { ProcFS.stat(.pid(worker.pid))?.state == "T" })
        }
        let cut = Array(ToWorker.input(seq: 2, text: "lost").frame.prefix(7))
        try cut.withUnsafeBytes { try Sys.writeAll(input, $0) }
        first.letGo()

        let second = try #require(try HolderLink.connect(name: name))
        let (generation, held) = try second.list()
        let taken = try #require(held.first)
        let pidfd = try #require(taken.descriptors.borrow(HolderLink.HeldWorker.pidfd))
        let newInput = try #require(taken.descriptors.borrow(HolderLink.HeldWorker.input))
        let newOutput = try #require(taken.descriptors.borrow(HolderLink.HeldWorker.output))
        #expect(sv_pidfd_queue_signal(pidfd, resyncSignal, UInt64(generation)) == 0)
        if stoppedMeanwhile { #expect(sv_pidfd_send_signal(pidfd, SIGCONT) == 0) }
        var taker = FrameDecoder<FromWorker>()
        #expect(try Self.readResynced(newOutput, &taker, generation: UInt64(generation)))
        #expect(try taker.next() == .resynced(
            generation: UInt64(generation), url: url, title: "A", finished: true, historyIndex: 0, historyCount: 1,
            inputSeq: 1, digest: digest))
        try Self.write(newInput, ToWorker.ping(seq: 5))
        #expect(try Self.read(newOutput, &taker) == .pong(seq: 5))
        try Self.write(newInput, ToWorker.documentQuery)
        #expect(try Self.read(newOutput, &taker) == .document(length: 2, text: Array("hi".utf8)), "the half input was read")

        #expect(sv_pidfd_send_signal(pidfd, SIGKILL) == 0)
        #expect(Self.ended(pidfd, within: 5_000))
        second.letGo()
        #expect(try first.reap() == .code(0))
    }

    static func write(_ fd: Int32, _ message: ToWorker) throws {
        try message.frame.withUnsafeBytes { try Sys.writeAll(fd, $0) }
    }

    /// Reads `fd` until the `resynced` frame answering `generation` is next in `decoder`.
    static func readResynced(_ fd: Int32, _ decoder: inout FrameDecoder<FromWorker>, generation: UInt64) throws -> Bool {
        try read(fd, &decoder) { $0.skip(toResynced: generation) ? true : nil } ?? false
    }
}
