import Process
import System
import WireProtocol
import Vocabulary

/// A worker as the supervisor keeps account of it: the process (`handle`), the conversation with it, and what it
/// was given and did.
package final class Worker {
    package let handle: any WorkerHandle
    package var pid: Int32 { handle.pid }
    /// What it owes and is owed, and whether its channel and process live: changed only by the core's `step`.
    package internal(set) var conversation: Conversation
    package internal(set) var rendered = false
    /// Its sandbox, as its hello said; nil before.
    package internal(set) var sandbox: Sandbox?
    /// Views it has served; more than one when the policy reuses workers.
    var views = 0
    /// Resident memory when it last rendered.
    var residentBytes = 0
    /// The band last applied; nil until the first one is. Its rank in that band (0: the most recent, the last of the
    /// band the killer takes), and what it is ranked by (`Supervisor+Ranks`).
    package internal(set) var band: PriorityBand?
    package internal(set) var rank = 0
    var rankKey = (0, 0)
    /// Its liveness check while busy, or its grace after shutdown.
    var timer: TimerID?
    /// The responsiveness timer while an answer is owed; then the policy's wait, once it was found unresponsive.
    var hangTimer: TimerID?
    /// Why the supervisor ended it, when its verdict alone does not say (`TerminationReason.of`).
    var endedFor: TerminationReason?
    /// Its wait for `readyToSuspend`; when it was stopped.
    var suspendTimer: TimerID?
    var suspendedAt: Int?
    /// The next reading of its memory, under a policy with a memory limit.
    var memoryTimer: TimerID?
    /// The end of its CPU window, under a policy with a CPU limit while its view is hidden.
    var cpuWindowEnd: TimerID?
    /// Answers to its document fetches the supervisor holds back for their latency: what it waits on.
    var answersHeld = 0
    /// When it was warned that its memory neared the limit.
    var memoryWarnedAt: Int?
    /// When it was last found unresponsive.
    var unresponsiveAt: Int?
    /// The last document it fetched, how the scheme handler answered, and why it refused, if it did.
    package internal(set) var lastDocument: (url: String, status: UInt16, refusal: String?)?
    /// The site of the last page it committed: what the process cache keys it by.
    var site: Site?
    /// The load it last served, whose client still answers it after its view let it go.
    var load: Load?
    var client: (any LoadClient)? { (view?.load ?? load)?.client }
    /// The view this worker renders for; nil once the view let it go.
    package internal(set) weak var view: View?

    /// What a worker taken back said it shows, until its list has come and a view has taken it or it was refused.
    var claim: WorkerClaim?

    init(_ handle: any WorkerHandle, limits: Conversation.Limits, resyncing generation: UInt64? = nil) {
        self.handle = handle
        conversation = Conversation(pid: handle.pid, limits: limits, resyncing: generation)
    }

    /// Its exit has been collected.
    package var reaped: Bool { conversation.reaped }
    /// Messages can still be sent to it.
    package var channelOpen: Bool { conversation.channelOpen }
    var verdict: TerminationStatus? { conversation.verdict }
}
