import Process
import Vocabulary
import WireProtocol

/// The conversation with one worker as a value: what each side owes the other, whether its channel and its process
/// live, and what it has said. It takes inputs (a message sent, a frame, the end of the channel, the death, a timer)
/// and returns actions (send, kill, close, report, or a fact for the core to act on); the core applies them and
/// nothing else changes it. A worker is untrusted: every frame is checked against what it was asked.
package struct Conversation {
    /// The channel and the process together: a reaped worker with an open channel cannot be written.
    package enum Link: Equatable {
        /// The channel is open; the process has not been reaped.
        case open
        /// Reaped while its channel still held what it sent: that is read before its death is reported, and
        /// nothing more is sent.
        case draining(ProcessExit)
        /// The channel is closed (its end of file, a write that broke, or the supervisor hanging up); the process
        /// has not been reaped.
        case hungUp
        /// Reaped, its channel closed: nothing more comes of it.
        case ended(ProcessExit)
    }

    /// Where it is in its life. It goes one way.
    package enum Stage: Equatable {
        /// Spawned; its hello not heard yet.
        case launching
        /// Taken back from a holder after the supervisor before died (issue 34): it said hello to that one, and
        /// owes this one its answer to resynchronisation `generation`, before which nothing it sent is read.
        case resyncing(generation: UInt64)
        /// Said hello: it serves its view, or waits as a spare.
        case ready
        /// Told to shut down, after its hello or before: a clean exit is then not a failed launch.
        case exiting(saidHello: Bool)
        /// Killed by the supervisor: `verdict` names its death, not the SIGKILL.
        case killed(verdict: TerminationStatus, toldToExit: Bool)
    }

    /// Answers the worker owes, and what it may still ask. Anything else it sends unasked counts toward a flood.
    package struct Owed: Equatable {
        /// A document fetch for each navigation sent, a result (finish or fail) for each document answered, a title
        /// for each probe and a history for each query.
        var fetches = 0, results = 0, titles = 0, histories = 0
        /// Sub-resources the page being loaded may still fetch.
        var resources = 0
        /// Navigations the page last rendered may still ask for.
        var navigations = 0

        /// Nothing of a load (a fetch, a result, a title, a history) is owed.
        var settled: Bool { fetches == 0 && results == 0 && titles == 0 && histories == 0 }
    }

    /// Whether it owes an answer: WebKit's responsiveness timer, and what follows it.
    package enum Answer: Equatable {
        /// Nothing is owed; no timer runs.
        case none
        /// An answer is owed, and the responsiveness timer runs.
        case awaited
        /// Owed past the hang timeout: it was reported unresponsive, and the policy's choice waits on it. An answer
        /// now makes it responsive again.
        case overdue
    }

    /// Whether it runs, as WebKit's ProcessThrottler suspends a process whose pages are hidden with nothing to do.
    package enum Suspension: Equatable {
        case running
        /// Told to prepare (`prepareToSuspend`): its answer, or the supervisor's patience, and it is stopped.
        case preparing
        /// Stopped: no responsiveness timer runs, and what it owes is owed from its resumption.
        case suspended
    }

    /// A value the worker sends in pieces, as far as it has arrived.
    enum Incoming: Equatable {
        case history(index: UInt32, count: Int, urls: [String])
        case document(length: Int, text: [UInt8])
    }

    /// What the load's client lets a worker send: the longest document it could expect, and how many navigations a
    /// rendered page may ask for.
    package struct Allowance: Equatable {
        package var longestDocument: Int
        package var navigationsPerPage: Int

        package init(longestDocument: Int = pieceBytes, navigationsPerPage: Int = 0) {
            self.longestDocument = longestDocument
            self.navigationsPerPage = navigationsPerPage
        }
    }

    /// The bounds the supervisor holds every worker to.
    package struct Limits {
        /// Bytes queued for it, beyond the fetch replies it asked for, before it counts as not reading its input.
        var maxUnreadBytes: Int
        /// How long an answer may take, and how long its hello, for the reasons a kill gives.
        var hangTimeoutMs: Int
        var helloTimeoutMs: Int
    }

    let pid: Int32
    let limits: Limits
    package internal(set) var link = Link.open
    package internal(set) var stage = Stage.launching
    package internal(set) var owed = Owed()
    var incoming: Incoming?
    /// The document it fetched last, until it commits it: the one commit it may send.
    var uncommitted: String?
    /// Bytes of fetch replies sent that it may not have read yet: it asked for them, so they do not count toward
    /// its unread backlog.
    var replyBytes = 0
    var lastPing: UInt64 = 0
    var lastPong: UInt64 = 0
    /// Messages it sent that nothing asked for, since its last new page.
    var unsolicited = 0
    package internal(set) var answer = Answer.none
    package internal(set) var suspension = Suspension.running
    /// The system call its sandbox caught, as its trap handler reported it.
    package internal(set) var forbiddenCall: Int32?

    init(pid: Int32, limits: Limits, resyncing generation: UInt64? = nil) {
        self.pid = pid
        self.limits = limits
        if let generation { stage = .resyncing(generation: generation) }
    }

    static let maxUnsolicited = 16
    static let maxResourcesPerPage = 64

    package var saidHello: Bool {
        switch stage {
        case .launching, .killed: false
        case .ready, .resyncing: true
        case .exiting(let saidHello): saidHello
        }
    }

    package var toldToExit: Bool {
        switch stage {
        case .launching, .resyncing, .ready: false
        case .exiting: true
        case .killed(_, let told): told
        }
    }

    package var verdict: TerminationStatus? { if case .killed(let verdict, _) = stage { verdict } else { nil } }

    /// Messages can still be sent to it.
    package var channelOpen: Bool { link == .open }
    /// What it sent can still be read.
    var readable: Bool {
        switch link {
        case .open, .draining: true
        case .hungUp, .ended: false
        }
    }
    /// Its exit has been collected.
    package var reaped: Bool {
        switch link {
        case .open, .hungUp: false
        case .draining, .ended: true
        }
    }

    /// Waits on nothing but the supervisor: it said hello, owes no answer or piece, is not being shut down, and
    /// owes no result but those of the `held` documents whose answers the supervisor holds back (a fetch's latency).
    func quiet(holding held: Int = 0) -> Bool {
        stage == .ready && answer == .none && incoming == nil
            && owed.fetches == 0 && owed.titles == 0 && owed.histories == 0 && owed.results <= held
    }

    /// Takes one input and returns what the core must do, in order.
    package mutating func take(_ input: Input) -> [Action] {
        switch input {
        case .sent(let message, let queued): return sent(message, queued: queued)
        case .sendFailed: return hangUp()
        case .newPage:
            unsolicited = 0
            return []
        case .frame(let message, let allowance): return frame(message, allowance)
        case .brokeProtocol(let reason): return violation(reason)
        case .unwanted(let message): return readable ? unasked(message) : []
        case .endOfFile:
            switch link {
            case .open: return hangUp()
            case .draining(let exit): return end(exit, [.closeChannel])
            case .hungUp, .ended: return []
            }
        case .died(let exit):
            switch link {
            case .open:
                link = .draining(exit)
                return silence() + [.drain]
            case .hungUp: return end(exit, [])
            case .draining, .ended: return []
            }
        case .shutDown: return shutDown()
        case .kill(let reason, let verdict): return kill(reason: reason, verdict: verdict)
        case .ping: return ping()
        case .livenessDue(let serving): return livenessDue(serving: serving)
        case .answerOverdue:
            guard answer == .awaited else { return [] }
            answer = .overdue
            return [.unresponsive]
        case .stillUnresponsive(let waited):
            guard answer == .overdue else { return [] }
            return kill(reason: "no answer within \(limits.hangTimeoutMs + waited) ms", verdict: .unresponsive)
        case .suspended:
            guard suspension == .preparing, link == .open else { return [] }
            suspension = .suspended
            // The time it spends stopped is no hang: its timer stops, and starts afresh when it is resumed.
            return answer == .awaited ? [.heard] : []
        case .resumed:
            let wasStopped = suspension == .suspended
            suspension = .running
            return wasStopped && answer == .awaited && link == .open ? [.expectAnswer] : []
        }
    }

    private mutating func sent(_ message: ToWorker, queued: Int) -> [Action] {
        guard link == .open else { return [] }
        var actions: [Action] = []
        switch message {
        case .load, .reload, .goTo, .restoreHistory(_, 1..., _):
            owed.fetches += 1
            actions += expectAnswer()
        case .historyQuery:
            owed.histories += 1
            actions += expectAnswer()
        case .fetchReply(_, _, _, let body), .fetchData(let body):
            replyBytes += body.count
        case .titleQuery:
            owed.titles += 1
            actions += expectAnswer()
        case .prepareToSuspend:
            suspension = .preparing
        case .ping, .input, .documentQuery:
            actions += expectAnswer()
        default:
            break
        }
        // A worker that does not read its input must not make the supervisor hold its backlog forever.
        if queued - min(queued, replyBytes) > limits.maxUnreadBytes {
            actions += kill(reason: "does not read its input: \(queued) bytes queued", verdict: .unresponsive)
        }
        return actions
    }

    /// WebKit's responsiveness timer: started when the supervisor sends something that needs an answer (a ping, a
    /// load, a title probe, typed input), stopped by any message from the worker.
    private mutating func expectAnswer() -> [Action] {
        guard answer == .none, link == .open else { return [] }
        answer = .awaited
        return suspension == .suspended ? [] : [.expectAnswer]
    }

    /// It spoke: nothing is owed any more, and if it was reported unresponsive, it is responsive again.
    mutating func heard() -> [Action] {
        let overdue = answer == .overdue
        return silence() + (overdue ? [.responsive] : [])
    }

    /// No answer is awaited any more.
    mutating func silence() -> [Action] {
        guard answer != .none else { return [] }
        answer = .none
        return [.heard]
    }

    private mutating func hangUp() -> [Action] {
        guard link == .open else { return [] }
        link = .hungUp
        return silence() + [.closeChannel]
    }

    /// Reaped and its channel closed: the one place a death is reported.
    private mutating func end(_ exit: ProcessExit, _ first: [Action]) -> [Action] {
        link = .ended(exit)
        return first + [.reportDeath(exit)]
    }

    private mutating func shutDown() -> [Action] {
        switch stage {
        case .launching: stage = .exiting(saidHello: false)
        case .ready, .resyncing: stage = .exiting(saidHello: true)
        case .killed(let verdict, _): stage = .killed(verdict: verdict, toldToExit: true)
        case .exiting: break
        }
        return [.send(.shutdown)] + silence()
    }

    /// The supervisor's kill: once, and never of a worker whose exit was collected (its pid may be another's).
    mutating func kill(reason: String, verdict: TerminationStatus) -> [Action] {
        guard self.verdict == nil else { return [] }
        stage = .killed(verdict: verdict, toldToExit: toldToExit)
        switch link {
        case .open:
            link = .hungUp
            return silence() + [.kill(reason: reason, verdict: verdict), .closeChannel]
        case .hungUp: return silence() + [.kill(reason: reason, verdict: verdict)]
        // What a dead worker left in its channel broke the protocol: its death is named for that, and reported now.
        case .draining(let exit): return end(exit, [.kill(reason: reason, verdict: verdict), .closeChannel])
        case .ended: return []
        }
    }

    mutating func violation(_ reason: String) -> [Action] {
        guard readable, verdict == nil else { return [] }
        return [.violation(reason)] + kill(reason: "protocol violation", verdict: .protocolViolation(reason: reason))
    }

    private mutating func ping() -> [Action] {
        guard link == .open else { return [] }
        lastPing += 1
        return [.send(.ping(seq: lastPing))]
    }

    /// A busy worker is pinged every interval, so that a hung one is found even when nothing else is asked of it;
    /// one that has not said hello by the first check is killed as a failed launch.
    private mutating func livenessDue(serving: Bool) -> [Action] {
        switch link {
        case .open, .hungUp: break
        case .draining, .ended: return []
        }
        switch stage {
        case .launching, .exiting(saidHello: false):
            let reason = "no hello within \(limits.helloTimeoutMs) ms"
            return kill(reason: reason, verdict: .launchFailed(reason: reason))
        case .resyncing(let generation):
            let reason = "no answer to resynchronisation \(generation) within \(limits.helloTimeoutMs) ms"
            return kill(reason: reason, verdict: .unresponsive)
        case .ready where serving && suspension == .suspended: return [.watchLiveness]
        case .ready where serving: return ping() + [.watchLiveness]
        case .ready, .exiting, .killed: return []
        }
    }
}
