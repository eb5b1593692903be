import Glibc
import WireProtocol

@testable import Core
@testable import Process
@testable import System
import Vocabulary

/// A worker that is no process, for the core's tests in virtual time: it records what the supervisor sends it and
/// answers as `script` says, each answer and its exit arriving on the clock's next turn, as a real worker's would
/// arrive on a later wake-up of the loop.
final class FakeWorker: WorkerHandle {
    let pid: Int32
    let spawnedAt: Int
    private let clock: VirtualClock
    private(set) var channelOpen = true
    private(set) var reaped = false
    private var exit: ProcessExit?
    private(set) var sent: (signal: Int32, by: DeathCause.Sender)?
    /// Everything the supervisor sent it, in order.
    private(set) var received: [ToWorker] = []
    /// The bands the supervisor put it in, in order.
    private(set) var bands: [PriorityBand] = []
    private var inbox: [FromWorker] = []
    private var readable: () -> Void = {}
    private var exited: () -> Void = {}
    /// How it answers each message; by default, like a healthy worker (`FakeWorker.healthy`).
    var script: (ToWorker, FakeWorker) -> Void = FakeWorker.healthy
    var pendingOutput = 0
    /// The page it was last sent to, which a reload loads again and a healthy worker commits.
    var page = ""

    init(pid: Int32, clock: VirtualClock) {
        self.pid = pid
        self.clock = clock
        spawnedAt = clock.now
    }

    func watch(readable: @escaping () -> Void, exited: @escaping () -> Void) throws(SystemError) {
        self.readable = readable
        self.exited = exited
    }

    func send(_ message: ToWorker, broken: @escaping () -> Void) throws(ChannelError) {
        guard exit == nil else { throw .system(SystemError("write", errno: EPIPE)) }
        received.append(message)
        script(message, self)
    }

    /// Sends `messages` to the supervisor.
    func say(_ messages: FromWorker...) {
        guard exit == nil else { return }
        inbox += messages
        clock.soon { [weak self] in if let self, channelOpen { readable() } }
    }

    func receive() -> Bool { exit == nil }
    func next() throws(WireError) -> FromWorker? { inbox.isEmpty ? nil : inbox.removeFirst() }
    func closeChannel() { channelOpen = false }

    func signal(_ signal: Int32, by sender: DeathCause.Sender) {
        guard exit == nil else { return }
        sent = (signal, sender)
        if signal == SIGKILL { die(.signal(Int(SIGKILL))) }
    }

    /// Ends the process, as `ending` says.
    func die(_ ending: ProcessExit) {
        guard exit == nil else { return }
        exit = ending
        clock.soon { [weak self] in if let self, !reaped { exited() } }
    }

    /// On the clock's next turn, sends `messages` and crashes at once; the loop hears of the death before it reads
    /// them, as when it wakes to both and the pidfd's event comes first.
    func sayThenCrash(_ messages: FromWorker...) {
        clock.soon { [weak self] in
            guard let self, exit == nil else { return }
            inbox += messages
            crash()
            clock.soon { [weak self] in if let self, channelOpen { readable() } }
        }
    }

    /// Dies of `signal` sent by no one the supervisor knows: a crash, or a kill from outside.
    func crash(_ signal: Int32 = SIGSEGV) { die(.signal(Int(signal))) }

    func reap(wait: Bool) throws(SystemError) -> ProcessExit? {
        guard let exit, !reaped else { return nil }
        reaped = true
        return exit
    }

    func apply(_ band: PriorityBand, _ bands: PriorityBands) -> PriorityResult {
        guard exit == nil else { return .noSuchProcess }
        self.bands.append(band)
        return .applied
    }

    func residentBytes() -> Int? { exit == nil ? 1 << 20 : nil }

    func oomScoreAdjust() -> Int32? {
        guard exit == nil, let band = bands.last else { return nil }
        return PriorityBands().oomScoreAdjust(band)
    }

    /// A healthy worker: hello when launched (see `FakeLauncher`), each page fetched, committed and finished with a
    /// title, pings and title probes answered, and an exit when told to shut down.
    static func healthy(_ message: ToWorker, _ worker: FakeWorker) {
        switch message {
        case .load(let url, _):
            worker.page = url
            worker.say(.fetch(url: url, kind: .document))
        case .reload: worker.say(.fetch(url: worker.page, kind: .document))
        case .fetchReply: worker.say(.didCommit(url: worker.page), .didFinish(title: "Page"))
        case .ping(let seq): worker.say(.pong(seq: seq))
        case .titleQuery(let id): worker.say(.title(id: id, title: "Page"))
        case .shutdown: worker.die(.code(0))
        default: break
        }
    }

    /// A worker that says hello and then never answers anything: hung.
    static func hung(_ message: ToWorker, _ worker: FakeWorker) {}
}

/// Launches fake workers, each saying hello on the clock's next turn unless `silent`.
final class FakeLauncher: Launcher {
    let executable = "fake-worker"
    private let clock: VirtualClock
    private var nextPID: Int32 = 1000
    private(set) var launched: [FakeWorker] = []
    /// Sets up each new worker before it says hello: its script, or a crash.
    var prepare: (FakeWorker) -> Void = { _ in }
    /// With an errno, every launch fails with it.
    var failWith: Int32?
    var silent = false

    init(clock: VirtualClock) { self.clock = clock }

    func launch() throws(LaunchError) -> any WorkerHandle {
        if let failWith { throw LaunchError(executable: executable, underlying: SystemError("posix_spawn", errno: failWith)) }
        nextPID += 1
        let worker = FakeWorker(pid: nextPID, clock: clock)
        launched.append(worker)
        prepare(worker)
        if !silent { worker.say(.hello(pid: worker.pid, version: protocolVersion, sandbox: .installed)) }
        return worker
    }
}
