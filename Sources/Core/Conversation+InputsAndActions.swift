import Process
import System
import Vocabulary
import WireProtocol

/// What a conversation takes in and what it asks of the core.
extension Conversation {
    package enum Input: Equatable {
        /// `message` went out; `queued` bytes wait for the worker to read them.
        case sent(ToWorker, queued: Int)
        /// A write to it failed: it is gone or going.
        case sendFailed
        /// It is to show a new page: what it sends unasked is counted afresh.
        case newPage
        /// A whole frame arrived, under what its load's client allows.
        case frame(FromWorker, Allowance)
        /// It broke the protocol: a frame that could not be decoded, or something its client found false.
        case brokeProtocol(String)
        /// A message the core found nobody wanted (no client, or one that did not ask): it counts toward a flood.
        case unwanted(FromWorker)
        /// The channel holds nothing more: the worker's end of file, or, while draining, all a dead worker left.
        case endOfFile
        /// Its exit was collected.
        case died(ProcessExit)
        /// The supervisor tells it to shut down.
        case shutDown
        /// The supervisor kills it for `verdict`.
        case kill(reason: String, verdict: TerminationStatus)
        /// A ping to see that it still answers.
        case ping
        /// Its liveness timer fired; `serving` says whether it serves a view.
        case livenessDue(serving: Bool)
        /// The answer it owed did not come in time.
        case answerOverdue
        /// The policy waited `waitedMs` more on a worker reported unresponsive, and it still has not answered.
        case stillUnresponsive(waitedMs: Int)
        /// The supervisor stopped it (SIGSTOP).
        case suspended
        /// The supervisor let it go on (SIGCONT), or gave up suspending it.
        case resumed
    }

    package enum Action: Equatable {
        case send(ToWorker)
        /// Starts the responsiveness timer: an answer is owed.
        case expectAnswer
        /// Stops it: the worker spoke, or owes nothing any more.
        case heard
        /// It owed an answer past the hang timeout: the policy chooses what follows.
        case unresponsive
        /// It answered after it was reported unresponsive.
        case responsive
        /// It answered ping `seq` (the process cache waits on such answers).
        case pong(UInt64)
        /// It answered `prepareToSuspend`: it may be stopped.
        case readyToSuspend
        /// Sets its liveness timer again.
        case watchLiveness
        /// A protocol violation, logged before the kill that follows it.
        case violation(String)
        /// SIGKILL it and record why.
        case kill(reason: String, verdict: TerminationStatus)
        case closeChannel
        /// Read what its channel holds, then say `endOfFile`: its death is reported after its last words.
        case drain
        /// It is dead and its channel closed: classify the death and recover its view.
        case reportDeath(ProcessExit)
        // What it said, checked, for the core to act on.
        case hello(Sandbox)
        /// A worker taken back answered its resynchronisation with what it shows; its list is asked for next.
        case resynced(WorkerClaim)
        case serve(url: String, kind: ResourceKind)
        case commit(url: String)
        case finished(title: String)
        case failed(provisional: Bool, error: String)
        case history(index: UInt32, urls: [String])
        case title(id: UInt32, title: String)
        /// A message for the load's client (a navigation it asks for, an input applied, a whole document).
        case relay(FromWorker)
    }
}
