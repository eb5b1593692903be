import Glibc
import WireProtocol

import Core
import Process
import System
import Vocabulary

/// A worker that is no process, for the core's tests in virtual time: it records what the supervisor sends it and
/// answers as `script` says, each answer and its exit arriving on the clock's next turn, as a real worker's would
/// arrive on a later wake-up of the loop.
package final class FakeWorker: WorkerHandle {
    package let pid: Int32
    package let spawnedAt: Int
    private let clock: VirtualClock
    package private(set) var channelOpen = true
    package private(set) var reaped = false
    private var exit: ProcessExit?
    package private(set) var sent: (signal: Int32, by: DeathCause.Sender)?
    /// Everything the supervisor sent it, in order.
    package private(set) var received: [ToWorker] = []
    /// The bands the supervisor put it in, in order, and its rank in the last.
    package private(set) var bands: [PriorityBand] = []
    package private(set) var rank = 0
    private var inbox: [FromWorker] = []
    private var readable: () -> Void = {}
    private var exited: () -> Void = {}
    /// How it answers each message; by default, like a healthy worker (`FakeWorker.healthy`).
    package var script: (ToWorker, FakeWorker) -> Void = FakeWorker.healthy
    package var pendingOutput = 0
    /// Its resident memory while it lives.
    package var resident = 1 << 20
    /// CPU time it has used, as a test sets it.
    package var cpu = 0
    /// What reading its channel fails with once what it sent before is read: a frame it garbled.
    private var garbled: WireError?
    /// Stopped (SIGSTOP): it answers nothing until continued.
    private var stopped = false
    /// Stopped by SIGSTOP, not yet continued.
    package var isStopped: Bool { stopped }
    /// What it was sent while stopped: read once it goes on, as a real process reads its pipe.
    private var held: [ToWorker] = []
    /// The page it was last sent to, which a reload loads again and a healthy worker commits.
    package var page = ""

    package init(pid: Int32, clock: VirtualClock) {
        self.pid = pid
        self.clock = clock
        spawnedAt = clock.now
    }

    package func watch(readable: @escaping () -> Void, exited: @escaping () -> Void) throws(SystemError) {
        self.readable = readable
        self.exited = exited
    }

    package func send(_ message: ToWorker, broken: @escaping () -> Void) throws(ChannelError) {
        guard exit == nil else { throw .system(SystemError("write", errno: EPIPE)) }
        received.append(message)
        if stopped { held.append(message) } else { script(message, self) }
    }

    /// Sends `messages` to the supervisor.
    package func say(_ messages: FromWorker...) {
        guard exit == nil else { return }
        inbox += messages
        clock.soon { [weak self] in if let self, channelOpen { readable() } }
    }

    package func receive() -> Bool { exit == nil }
    package func next() throws(WireError) -> FromWorker? {
        if !inbox.isEmpty { return inbox.removeFirst() }
        if let garbled { throw garbled }
        return nil
    }

    /// How it answers a request to resynchronise (issue 34), once continued; by default it says nothing.
    package var resync: (UInt64, FakeWorker) -> Void = { _, _ in }

    package func askResync(generation: UInt64) throws(SystemError) {
        guard exit == nil else { throw SystemError("pidfd_send_signal(resync)", errno: ESRCH) }
        proceed()
        resync(generation, self)
    }

    /// Its channel holds only whole frames, the answer first.
    package func skip(toResynced generation: UInt64) -> Bool { true }

    /// Writes a frame the supervisor cannot read, after what it said before.
    package func corrupt(_ error: WireError) {
        guard exit == nil else { return }
        garbled = error
        clock.soon { [weak self] in if let self, channelOpen { readable() } }
    }
    package func closeChannel() { channelOpen = false }

    package func signal(_ signal: Int32, by sender: DeathCause.Sender) {
        guard exit == nil else { return }
        sent = (signal, sender)
        switch signal {
        case SIGSTOP: stopped = true
        case SIGCONT: proceed()
        default: die(.signal(Int(signal)))
        }
    }

    /// Goes on after a stop, reading what it was sent meanwhile.
    private func proceed() {
        stopped = false
        let pending = held
        held = []
        for message in pending { script(message, self) }
    }

    /// Ends the process, as `ending` says.
    package func die(_ ending: ProcessExit) {
        guard exit == nil else { return }
        exit = ending
        clock.soon { [weak self] in if let self, !reaped { exited() } }
    }

    /// On the clock's next turn, sends `messages` and crashes at once; the loop hears of the death before it reads
    /// them, as when it wakes to both and the pidfd's event comes first.
    package func sayThenCrash(_ messages: FromWorker...) {
        clock.soon { [weak self] in
            guard let self, exit == nil else { return }
            inbox += messages
            crash()
            clock.soon { [weak self] in if let self, channelOpen { readable() } }
        }
    }

    /// Dies of `signal` sent by no one the supervisor knows: a crash, or a kill from outside.
    package func crash(_ signal: Int32 = SIGSEGV) { die(.signal(Int(signal))) }

    package func reap(wait: Bool) throws(SystemError) -> ProcessExit? {
        guard let exit, !reaped else { return nil }
        reaped = true
        return exit
    }

    package func apply(_ band: PriorityBand, rank: Int, _ bands: PriorityBands) -> PriorityResult {
        guard exit == nil else { return .noSuchProcess }
        self.bands.append(band)
        self.rank = rank
        return .applied
    }

    package func residentBytes() -> Int? { exit == nil ? resident : nil }

    package func cpuNanoseconds() -> Int? { exit == nil ? cpu : nil }

    package func oomScoreAdjust() -> Int32? {
        guard exit == nil, let band = bands.last else { return nil }
        return PriorityBands().oomScoreAdjust(band, rank: rank)
    }

    /// A healthy worker: hello when launched (see `FakeLauncher`), each page fetched (a restored list's current
    /// one too, when its first piece holds it), committed and finished with a title, pings and title probes
    /// answered, and an exit when told to shut down.
    package static func healthy(_ message: ToWorker, _ worker: FakeWorker) {
        switch message {
        case .load(let url, _):
            worker.page = url
            worker.say(.fetch(url: url, kind: .document))
        case .reload: worker.say(.fetch(url: worker.page, kind: .document))
        case .restoreHistory(let index, _, let urls) where urls.indices.contains(Int(index)):
            worker.page = urls[Int(index)]
            worker.say(.fetch(url: worker.page, kind: .document))
        case .fetchReply: worker.say(.didCommit(url: worker.page), .didFinish(title: "Page"))
        case .ping(let seq): worker.say(.pong(seq: seq))
        case .prepareToSuspend: worker.say(.readyToSuspend)
        case .titleQuery(let id): worker.say(.title(id: id, title: "Page"))
        case .shutdown: worker.die(.code(0))
        default: break
        }
    }

    /// A worker that says hello and then never answers anything: hung.
    package static func hung(_ message: ToWorker, _ worker: FakeWorker) {}
}
