import CShim
import Glibc
import Process
import System

/// One live WebContent process as the supervisor sees it.
///
/// It owns its pidfd and channel. The pidfd is closed only after the reap, so the pid cannot be recycled while
/// anything here still names it. It leads its own process group, whose id is that pid: whatever it starts (a
/// `--worker` script's children) is killed with it, and nothing of it outlives its reap.
final class WorkerProcess {
    let pid: Int32
    let channel: Channel
    let spawnedAt: Int
    /// The process until it is reaped; nil after.
    private var child: ChildProcess?
    var pidfdToken: UInt64 = 0
    var channelToken: UInt64 = 0
    var channelOpen = true

    var helloAt: Int?
    var rendered = false
    /// Views it has served; more than one when the policy reuses workers.
    var views = 0
    /// Resident memory when it last rendered.
    var residentBytes = 0
    /// The band last applied; nil until the first one is.
    var band: PriorityBand?
    /// Its liveness check while busy, or its grace after shutdown.
    var timer: TimerID?
    /// The responsiveness timer: armed while an answer is owed.
    var hangTimer: TimerID?
    var lastPing: UInt64 = 0
    var lastPong: UInt64 = 0
    var owed = Owed()
    /// Messages it sent that nothing asked for, since it last took a view or a navigation.
    var unsolicited = 0
    /// A history or document it is sending in pieces, as far as it has arrived.
    var incoming: Incoming?
    /// The last document it fetched, how the scheme handler answered, and why it refused, if it did.
    var lastDocument: (url: String, status: UInt16, refusal: String?)?
    /// Bytes of fetch replies sent that it may not have read yet: it asked for them, so they do not count
    /// toward its unread backlog.
    var replyBytes = 0
    /// The supervisor told it to exit: a clean exit is then not a failed launch, even before hello.
    var shutdownRequested = false
    /// Set when the supervisor kills the worker on purpose; it names the death instead of the SIGKILL.
    var verdict: TerminationStatus?
    /// The last signal the supervisor sent it, and why: a death by any other signal came from outside.
    private(set) var sent: (signal: Int32, by: DeathCause.Sender)?
    /// The view this worker renders for; nil once the view let it go.
    weak var view: View?

    init(_ child: consuming ChildProcess, channel: Channel, spawnedAt: Int) {
        pid = child.pid
        self.child = consume child
        self.channel = channel
        self.spawnedAt = spawnedAt
    }

    deinit {
        channel.close()
    }

    /// The pidfd, readable once the process has exited: for an event loop to watch, before the reap.
    var pidfd: Int32 {
        guard let descriptor = child?.descriptor else { preconditionFailure("the pidfd of a reaped worker") }
        return descriptor
    }

    /// Sends `signal` through the pidfd, which cannot hit a recycled pid, and to the rest of its process group:
    /// until the reap, its pid (the group's id) cannot be anyone else's. `sender` says whose doing the death is.
    func signal(_ signal: Int32, by sender: DeathCause.Sender = .supervisor) {
        guard child != nil else { return }
        if (try? child?.signal(signal)) != nil { sent = (signal, sender) }
        Sys.signalGroup(pid, signal)
    }

    var reaped: Bool { child == nil }

    /// Answers the worker owes, and what it may still ask. Anything else it sends unasked counts toward a flood.
    struct Owed {
        /// A document fetch for each navigation sent.
        var fetches = 0
        /// A result (finish or fail) for each document answered.
        var results = 0
        var titles = 0
        var histories = 0
        /// Sub-resources the page being loaded may still fetch.
        var resources = 0
        /// Navigations the page last rendered may still ask for.
        var navigations = 0
    }

    /// A value the worker sends in pieces, as far as it has arrived.
    enum Incoming {
        case history(index: UInt32, count: Int, urls: [String])
        case document(length: Int, text: [UInt8])
    }

    /// Reaps the process once it has exited (waiting for that with `wait`), then closes the pidfd. Between its
    /// death and the reap, while its zombie still holds the group's id, what it left in its group is killed:
    /// children that would otherwise live on holding its channel's pipes.
    func reap(wait: Bool = false) throws(SystemError) -> (code: Int32, status: Int32)? {
        guard try child?.hasExited(wait: wait) == true else { return nil }
        Sys.signalGroup(pid, SIGKILL)
        guard let result = try child?.reap() else { return nil }
        child = nil
        return result
    }
}
