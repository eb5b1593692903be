import CShim
import Glibc
import System
import WireProtocol
import Vocabulary

/// One live WebContent process, as the kernel sees it: its pidfd and channel, watched on an event loop.
///
/// It owns both. The pidfd is closed only after the reap, so the pid cannot be recycled while anything here still
/// names it. It leads its own process group, whose id is that pid: whatever it starts (a `--worker` script's
/// children) is killed with it, and nothing of it outlives its reap.
package final class WorkerProcess: WorkerHandle {
    package let pid: Int32
    package let channel: Channel
    /// Its standard error, passed on until its reap, and watched until its end of file.
    private var errors: StandardErrorRelay
    private var errorsToken: UInt64?
    package let spawnedAt: Int
    private let loop: EventLoop
    /// Where received bytes land on their way to the decoder: one buffer for every worker of a launcher.
    private let scratch: ScratchBuffer
    /// The process until it is reaped; nil after.
    private var child: (any WorkerExit)?
    private var exitToken: UInt64 = 0
    private var channelToken: UInt64 = 0
    package private(set) var channelOpen = true
    package private(set) var sent: (signal: Int32, by: DeathCause.Sender)?

    init(
        _ child: any WorkerExit, channel: Channel, errors: consuming StandardErrorRelay, spawnedAt: Int, loop: EventLoop,
        scratch: ScratchBuffer
    ) {
        pid = child.pid
        self.child = child
        self.channel = channel
        self.errors = errors
        self.spawnedAt = spawnedAt
        self.loop = loop
        self.scratch = scratch
    }

    deinit {
        channel.close()
    }

    package func watch(readable: @escaping () -> Void, exited: @escaping () -> Void) throws(SystemError) {
        guard !reaped else { preconditionFailure("watching a reaped worker") }
        exitToken = try loop.watch(pidfd) { _ in exited() }
        channelToken = try loop.watch(channel.readFD) { _ in readable() }
        guard let fd = errors.descriptor else { return }
        errorsToken = try loop.watch(fd) { [unowned self] _ in
            guard errors.readable(), let token = errorsToken else { return }
            loop.unwatch(fd, token: token)
            errorsToken = nil
        }
    }

    package var pendingOutput: Int { channel.pendingOutput }

    package func send(_ message: ToWorker, broken: @escaping () -> Void) throws(ChannelError) {
        try channel.send(message, on: loop, failed: broken)
    }

    package func receive() -> Bool {
        (try? channel.fill(using: &scratch.bytes)) ?? false
    }

    package func next() throws(WireError) -> FromWorker? {
        try channel.next()
    }

    package func askResync(generation: UInt64) throws(SystemError) {
        guard let child else { throw SystemError("ask a reaped worker to resynchronise", errno: ESRCH) }
        try child.signal(SIGCONT)
        guard sv_pidfd_queue_signal(child.descriptor, resyncSignal, generation) == 0 else {
            throw SystemError("pidfd_send_signal(resync)", errno: errno)
        }
    }

    package func skip(toResynced generation: UInt64) -> Bool {
        channel.skip(toResynced: generation)
    }

    package func closeChannel() {
        guard channelOpen else { return }
        channelOpen = false
        loop.unwatch(channel.readFD, token: channelToken)
        channel.stopWatchingWrites(on: loop)
        channel.close()
    }

    /// Sends `signal` through the pidfd, which cannot hit a recycled pid, and to the rest of its process group while
    /// the group's id cannot be anyone else's (`WorkerExit.signalGroup`).
    package func signal(_ signal: Int32, by sender: DeathCause.Sender) {
        guard child != nil else { return }
        if (try? child?.signal(signal)) != nil { sent = (signal, sender) }
        child?.signalGroup(signal)
    }

    package var reaped: Bool { child == nil }

    /// The pidfd, readable once the process has exited; -1 after the reap.
    package var pidfd: Int32 { child?.descriptor ?? -1 }

    /// Reaps the process once it has exited, then closes the pidfd. Between its death and the reap, while its
    /// zombie still holds the group's id, what it left in its group is killed: children that would otherwise live
    /// on holding its channel's pipes (a held worker's are the holder's to kill). What it wrote to its standard
    /// error before it died is passed on first.
    package func reap(wait: Bool) throws(SystemError) -> ProcessExit? {
        guard try child?.hasExited(wait: wait) == true else { return nil }
        child?.signalGroup(SIGKILL)
        guard let result = try child?.reap() else { return nil }
        child = nil
        loop.unwatch(nil, token: exitToken)
        if let token = errorsToken {
            loop.unwatch(errors.descriptor, token: token)
            errorsToken = nil
        }
        errors.finish()
        // What escaped its group (a setsid child) was re-parented to the supervisor when it died.
        Orphans.sweep(on: loop)
        return result
    }

    package func apply(_ band: PriorityBand, rank: Int, _ bands: PriorityBands) -> PriorityResult {
        bands.apply(band, rank: rank, to: pid)
    }

    package func residentBytes() -> Int? {
        (try? Sys.residentPages(pid)).map { $0 * Self.pageSize }
    }

    package func cpuNanoseconds() -> Int? {
        try? Sys.cpuNanoseconds(pid)
    }

    package func oomScoreAdjust() -> Int32? {
        try? Sys.oomScoreAdjust(pid)
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The buffer a launcher's workers read their channels into, one at a time on the loop's thread.
final class ScratchBuffer {
    var bytes = [UInt8](repeating: 0, count: 64 * 1024)
}
