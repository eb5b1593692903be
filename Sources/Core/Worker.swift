import Process
import System
import WireProtocol
import Vocabulary

/// A worker as the supervisor keeps account of it: the process (`handle`), and what it owes, what it was told
/// and what it did.
package final class Worker {
    package let handle: any WorkerHandle
    package var pid: Int32 { handle.pid }
    /// Where it is in its life. It goes one way; its reap is its handle's.
    package enum Stage: Equatable {
        /// Spawned; its hello not heard yet.
        case launching
        /// Said hello: it serves its view, or waits as a spare.
        case ready(helloAt: Int)
        /// Told to shut down (before its hello, if `helloAt` is nil): a clean exit is then not a failed launch.
        case exiting(helloAt: Int?)
        /// Killed by the supervisor: `verdict` names its death, not the SIGKILL.
        case killed(verdict: TerminationStatus, toldToExit: Bool)
    }
    package private(set) var stage = Stage.launching
    package internal(set) var rendered = false
    /// Its sandbox, as its hello said; nil before.
    package internal(set) var sandbox: Sandbox?
    /// The system call its sandbox caught, as its trap handler reported it.
    var forbiddenCall: Int32?
    /// Views it has served; more than one when the policy reuses workers.
    var views = 0
    /// Resident memory when it last rendered.
    var residentBytes = 0
    /// The band last applied; nil until the first one is.
    package internal(set) var band: PriorityBand?
    /// Its liveness check while busy, or its grace after shutdown.
    var timer: TimerID?
    /// The responsiveness timer: armed while an answer is owed.
    var hangTimer: TimerID?
    var lastPing: UInt64 = 0
    var lastPong: UInt64 = 0
    package var owed = Owed()
    /// Messages it sent that nothing asked for, since it last took a view or a navigation.
    var unsolicited = 0
    /// A history or document it is sending in pieces, as far as it has arrived.
    var incoming: Incoming?
    /// The last document it fetched, how the scheme handler answered, and why it refused, if it did.
    package internal(set) var lastDocument: (url: String, status: UInt16, refusal: String?)?
    /// The URL of the document it fetched last, until it commits it: the one commit it may send.
    var uncommitted: String?
    /// Bytes of fetch replies sent that it may not have read yet: it asked for them, so they do not count
    /// toward its unread backlog.
    var replyBytes = 0
    /// The load it last served, whose client still answers it after its view let it go.
    var load: Load?
    var client: (any LoadClient)? { (view?.load ?? load)?.client }
    /// The view this worker renders for; nil once the view let it go.
    package internal(set) weak var view: View?

    init(_ handle: any WorkerHandle) {
        self.handle = handle
    }

    package var reaped: Bool { handle.reaped }

    /// When it said hello; nil before (and once killed, when nothing more is heard from it).
    var helloAt: Int? {
        switch stage {
        case .launching, .killed: nil
        case .ready(let at): at
        case .exiting(let at): at
        }
    }

    var toldToExit: Bool {
        switch stage {
        case .launching, .ready: false
        case .exiting: true
        case .killed(_, let told): told
        }
    }

    var verdict: TerminationStatus? { if case .killed(let verdict, _) = stage { verdict } else { nil } }

    func saidHello(at time: Int) {
        switch stage {
        case .launching: stage = .ready(helloAt: time)
        case .exiting(nil): stage = .exiting(helloAt: time)
        case .ready, .exiting, .killed: break
        }
    }

    func toldToShutDown() {
        switch stage {
        case .launching: stage = .exiting(helloAt: nil)
        case .ready(let at): stage = .exiting(helloAt: at)
        case .killed(let verdict, _): stage = .killed(verdict: verdict, toldToExit: true)
        case .exiting: break
        }
    }

    /// Records that the supervisor kills it for `verdict`; false if it already did.
    func killed(for verdict: TerminationStatus) -> Bool {
        guard self.verdict == nil else { return false }
        stage = .killed(verdict: verdict, toldToExit: toldToExit)
        return true
    }
    package var channelOpen: Bool { handle.channelOpen }

    /// Answers the worker owes, and what it may still ask. Anything else it sends unasked counts toward a flood.
    package struct Owed {
        /// A document fetch for each navigation sent.
        var fetches = 0
        /// A result (finish or fail) for each document answered.
        var results = 0
        var titles = 0
        var histories = 0
        /// Sub-resources the page being loaded may still fetch.
        var resources = 0
        /// Navigations the page last rendered may still ask for.
        package var navigations = 0
    }

    /// A value the worker sends in pieces, as far as it has arrived.
    enum Incoming {
        case history(index: UInt32, count: Int, urls: [String])
        case document(length: Int, text: [UInt8])
    }
}
