import Glibc
import Testing
import TestSupport
import Vocabulary
import WireProtocol

@testable import Core
@testable import Process
@testable import SupervisorTesting

/// The conversation with one worker, alone: inputs in, actions out, with no supervisor, clock or process.
@Suite struct ConversationMachine {
    static let pid: Int32 = 4242
    static let limits = SupervisorSettings().conversationLimits
    static let hello = FromWorker.hello(pid: pid, version: protocolVersion, sandbox: .installed)
    static let page = "app://local/a.html"
    static let killed = ProcessExit.signal(Int(SIGKILL))

    /// A worker that said hello and was sent a load it has not answered: it owes a fetch.
    func loading() -> Conversation {
        var conversation = Conversation(pid: Self.pid, limits: Self.limits)
        #expect(conversation.take(.frame(Self.hello, .init())) == [.hello(.installed)])
        #expect(conversation.take(.sent(.load(url: Self.page, replace: false), queued: 0)) == [.expectAnswer])
        #expect(conversation.owed.fetches == 1 && (conversation.answer == .awaited))
        return conversation
    }

    /// Reaped while its channel still holds what it sent: that is read first, nothing is sent to it meanwhile, and
    /// its death is reported once, after its last words.
    @Test func aDeathBeforeTheEndOfItsChannelIsReportedAfterWhatItSent() {
        var conversation = loading()
        #expect(conversation.take(.died(Self.killed)) == [.heard, .drain])
        #expect(conversation.link == .draining(Self.killed) && conversation.reaped && !conversation.channelOpen)
        // What it asked before it died is still heard; nothing reaches a dead worker.
        #expect(conversation.take(.frame(.fetch(url: Self.page, kind: .document), .init())) == [.serve(url: Self.page, kind: .document)])
        #expect(conversation.take(.sent(.ping(seq: 1), queued: 0)).isEmpty && (conversation.answer == .none))
        #expect(conversation.take(.endOfFile) == [.closeChannel, .reportDeath(Self.killed)])
        #expect(conversation.link == .ended(Self.killed))
        for input: Conversation.Input in [
            .endOfFile, .died(Self.killed), .answerOverdue, .livenessDue(serving: true), .ping,
            .kill(reason: "late", verdict: .unresponsive), .frame(.didFinish(title: "late"), .init()),
            .brokeProtocol("late"), .sendFailed,
        ] {
            #expect(conversation.take(input).isEmpty, "\(input)")
        }
    }

    /// Its channel ends first: closed at once, no frame read after, and the death reported when it is reaped.
    @Test func anEndOfFileBeforeTheDeathClosesTheChannelThenTheDeathIsReported() {
        var conversation = loading()
        #expect(conversation.take(.endOfFile) == [.heard, .closeChannel])
        #expect(conversation.link == .hungUp && !conversation.channelOpen && !conversation.reaped)
        #expect(conversation.take(.frame(.fetch(url: Self.page, kind: .document), .init())).isEmpty)
        #expect(conversation.take(.sent(.ping(seq: 1), queued: 0)).isEmpty)
        #expect(conversation.take(.died(.code(0))) == [.reportDeath(.code(0))])
        #expect(conversation.take(.died(.code(0))).isEmpty)
    }

    /// It owed an answer when it died: the wait for it ends with the death, and no kill comes after it.
    @Test func anAnswerOwedAtDeathIsNeverWaitedForAfter() {
        var conversation = loading()
        _ = conversation.take(.died(Self.killed))
        #expect(conversation.take(.endOfFile) == [.closeChannel, .reportDeath(Self.killed)])
        #expect((conversation.answer == .none) && conversation.owed.fetches == 1)
        #expect(conversation.take(.answerOverdue).isEmpty)
    }

    /// What a dead worker left in its channel broke the protocol: the death is named for that and reported once.
    @Test func aViolationInWhatADeadWorkerLeftEndsItsConversation() {
        var conversation = loading()
        _ = conversation.take(.died(Self.killed))
        let reason = "a second hello"
        let verdict = TerminationStatus.protocolViolation(reason: reason)
        #expect(conversation.take(.frame(Self.hello, .init())) == [
            .violation(reason), .kill(reason: "protocol violation", verdict: verdict), .closeChannel, .reportDeath(Self.killed),
        ])
        #expect(conversation.verdict == verdict && conversation.link == .ended(Self.killed))
        #expect(conversation.take(.endOfFile).isEmpty)
    }

    /// The supervisor kills once: the channel is closed with the kill, and a second reason changes nothing.
    @Test func aKillHappensOnceAndClosesTheChannel() {
        var conversation = loading()
        #expect(conversation.take(.answerOverdue) == [.unresponsive])
        #expect(conversation.take(.stillUnresponsive(waitedMs: 0)) == [
            .heard, .kill(reason: "no answer within 3000 ms", verdict: .unresponsive), .closeChannel,
        ])
        #expect(conversation.take(.kill(reason: "again", verdict: .launchFailed(reason: "again"))).isEmpty)
        #expect(conversation.verdict == .unresponsive && conversation.link == .hungUp)
        #expect(conversation.take(.died(Self.killed)) == [.reportDeath(Self.killed)])
    }

    /// An answer owed past the timeout is reported, not punished: the policy chooses. An answer after that makes
    /// the worker responsive again; a worker still silent when the policy's wait ends is killed, its reason
    /// counting both waits.
    @Test func anOverdueAnswerIsReportedThenHeardOrGivenUpOn() {
        var answered = loading()
        #expect(answered.take(.answerOverdue) == [.unresponsive] && answered.answer == .overdue)
        #expect(answered.take(.answerOverdue).isEmpty)
        #expect(answered.take(.frame(.pong(seq: 0), Conversation.Allowance())).prefix(2) == [.heard, .responsive])
        #expect(answered.answer == .none && answered.take(.stillUnresponsive(waitedMs: 500)).isEmpty)

        var silent = loading()
        _ = silent.take(.answerOverdue)
        #expect(silent.take(.stillUnresponsive(waitedMs: 500)) == [
            .heard, .kill(reason: "no answer within 3500 ms", verdict: .unresponsive), .closeChannel,
        ])
    }

    /// Its first message must be a hello of this protocol naming its own pid.
    @Test(arguments: [
        (FromWorker.didFinish(title: "x"), "message \(FromWorker.didFinish(title: "x").tag) before hello"),
        (.hello(pid: 1, version: protocolVersion, sandbox: .installed), "hello names pid 1"),
        (.hello(pid: 4242, version: protocolVersion + 1, sandbox: .installed),
         "protocol version \(protocolVersion + 1), expected \(protocolVersion)"),
    ])
    func aFirstMessageThatIsNoTrueHelloIsAViolation(message: FromWorker, reason: String) {
        var conversation = Conversation(pid: Self.pid, limits: Self.limits)
        #expect(conversation.take(.frame(message, .init())) == [
            .violation(reason), .kill(reason: "protocol violation", verdict: .protocolViolation(reason: reason)), .closeChannel,
        ])
    }

    /// The liveness timer: a worker with no hello by then is a failed launch; a busy one is pinged, and only a pong
    /// it was pinged for is taken.
    @Test func livenessKillsASilentLaunchAndPingsABusyWorker() {
        var silent = Conversation(pid: Self.pid, limits: Self.limits)
        let reason = "no hello within 1000 ms"
        #expect(silent.take(.livenessDue(serving: true)) == [
            .kill(reason: reason, verdict: .launchFailed(reason: reason)), .closeChannel,
        ])
        var busy = loading()
        #expect(busy.take(.livenessDue(serving: false)).isEmpty)
        #expect(busy.take(.livenessDue(serving: true)) == [.send(.ping(seq: 1)), .watchLiveness])
        #expect(busy.take(.frame(.pong(seq: 1), .init())) == [.heard, .pong(1)])
        #expect(busy.take(.frame(.pong(seq: 2), .init())).isEmpty && busy.unsolicited == 1)
    }

    /// Sixteen messages nothing asked for can cross requests in flight; the seventeenth is a flood.
    @Test func aFloodOfUnaskedMessagesIsCutOff() {
        var conversation = loading()
        for _ in 0..<Conversation.maxUnsolicited {
            #expect(conversation.take(.unwanted(.inputApplied(seq: 1, digest: 0))).isEmpty)
        }
        let reason = "flood of 17 unsolicited messages (last: \(FromWorker.didFinish(title: "").tag))"
        #expect(conversation.take(.frame(.didFinish(title: ""), .init())).contains(.violation(reason)))
    }

    /// Replies it asked for do not count toward its unread backlog; anything else over the limit is a worker that
    /// does not read its input.
    @Test func aBacklogOfUnreadInputBeyondTheRepliesItAskedForIsAKill() {
        var conversation = loading()
        _ = conversation.take(.frame(.fetch(url: Self.page, kind: .document), .init()))
        let reply = [UInt8](repeating: 0, count: 1 << 20)
        let limit = Self.limits.maxUnreadBytes
        #expect(conversation.take(.sent(.fetchReply(status: 200, mime: "text/html", length: 1 << 20, body: reply), queued: limit + (1 << 20))).isEmpty)
        let over = limit + (1 << 20) + 1
        #expect(conversation.take(.sent(.unload, queued: over)) == [
            .kill(reason: "does not read its input: \(over) bytes queued", verdict: .unresponsive), .closeChannel,
        ])
    }

    /// A commit must be of the document it was given, once.
    @Test func onlyTheDocumentItWasGivenMayCommitAndOnce() {
        var conversation = loading()
        _ = conversation.take(.frame(.fetch(url: Self.page, kind: .document), .init()))
        #expect(conversation.take(.frame(.didCommit(url: Self.page), .init())) == [.commit(url: Self.page)])
        let reason = "a commit of \(Self.page), where the document it was given to commit is none"
        #expect(conversation.take(.frame(.didCommit(url: Self.page), .init())).first == .violation(reason))
    }
}

/// The same conversation inside the supervisor, with a fake worker in virtual time.
@Suite struct OwedAtDeath {
    /// A blank page's worker owes the title the watchdog asked for and crashes instead of answering: its death is
    /// reported once, the answer it owed is not waited for (no kill when the hang timeout would have passed), and
    /// the view is rebuilt.
    @Test func aWorkerThatOwesAnAnswerWhenItDiesIsMournedOnceAndNeverKilledForIt() throws {
        let rig = CoreRig(.rebuild)
        var launches = 0
        rig.launcher.prepare = { worker in
            launches += 1
            guard launches == 1 else { return }
            worker.script = { message, worker in
                if case .titleQuery = message { worker.crash() } else { FakeWorker.blank(message, worker) }
            }
        }
        let (load, view, _) = rig.open()
        rig.run(untilMs: 2_999)
        let dead = try #require(rig.launcher.launched.first)
        let worker = try #require(rig.supervisor.workers[dead.pid])
        rig.run(untilMs: 3_000)
        #expect(dead.received.contains(.titleQuery(id: UInt32(view.id))) && dead.reaped)
        #expect(worker.conversation.owed.titles == 1 && worker.conversation.answer == .none)
        #expect(worker.conversation.link == .ended(.signal(Int(SIGSEGV))))
        rig.run(untilMs: 10_000)
        #expect(rig.named("death").filter { $0.pid == dead.pid }.count == 1)
        #expect(rig.named("death").first?.string("status") == "crashed")
        #expect(rig.named("kill").isEmpty)
        #expect(rig.launcher.launched.count == 2 && load.visibleAt != nil)
    }
}
