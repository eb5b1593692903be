import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Core
@testable import SupervisorTesting

/// Workers taken back from a holder after the supervisor's restart (issue 34), in virtual time: each must answer
/// its resynchronisation, stamped with this supervisor's generation, and send its list; a view adopts it with
/// nothing loaded again, and a worker that answers wrongly or not at all is killed.
@Suite struct Reclaim {
    static let list = ["app://local/a.html", "app://local/b.html"]

    /// A worker taken back that answers as `answer` says, and sends `list` at `index` when asked for its list.
    static func heldWorker(
        _ rig: CoreRig, pid: Int32 = 500, index: UInt32 = 1,
        answer: @escaping (UInt64, FakeWorker) -> Void = { generation, worker in
            worker.say(.resynced(
                generation: generation, url: list[1], title: "B", finished: true, historyIndex: 1, historyCount: 2,
                inputSeq: 0, digest: documentDigestBasis))
        }
    ) -> FakeWorker {
        let worker = FakeWorker(pid: pid, clock: rig.clock)
        worker.resync = answer
        worker.script = { message, worker in
            if case .historyQuery = message { worker.say(.history(index: index, count: 2, urls: list)) }
        }
        return worker
    }

    @Test func anHonestWorkerIsAdoptedShowingItsPageWithNothingLoadedAgain() throws {
        let rig = CoreRig(.guarded)
        let held = Self.heldWorker(rig)
        var claims: [WorkerClaim] = []
        var settled = 0
        let client = RecordingClient(rig.supervisor, url: Self.list[1])
        let load = Load(index: 0, client: client, startedAt: 0)
        rig.supervisor.shown(load)
        rig.supervisor.reclaimed = { worker, claim in
            claims.append(claim)
            rig.supervisor.open(load, adopting: (worker, claim))
        }
        rig.supervisor.reclaimsSettled = { settled += 1 }
        rig.supervisor.reclaim(held, generation: 2)
        rig.run(untilMs: 5)

        let claim = WorkerClaim(
            url: Self.list[1], title: "B", finished: true, historyIndex: 1, history: Self.list, inputSeq: 0,
            digest: documentDigestBasis)
        #expect(claims == [claim])
        #expect(settled == 1)
        // Asked for its list, and nothing else: no load, no restore.
        #expect(held.received == [.historyQuery])
        let view = try #require(load.view)
        #expect(view.title == "B" && view.url == Self.list[1] && view.worker?.pid == 500)
        let steps = ["reclaim", "view-open", "adopt", "attach", "visible"]
        #expect(rig.events.map(\.name).filter(steps.contains) == steps)
        #expect(rig.named("adopt").first?.string("url") == Self.list[1])
        #expect(rig.named("reclaim").first?.int("generation") == 2)
        #expect(rig.named("spawn").isEmpty && rig.named("load").isEmpty && rig.launcher.launched.isEmpty)
    }

    /// What answers another generation is no answer to this one: the channel found it, so the worker lies.
    @Test func anAnswerStampedWithAnotherGenerationIsAViolation() {
        let rig = CoreRig(.guarded)
        let held = Self.heldWorker(rig) { generation, worker in
            worker.say(.resynced(
                generation: generation + 1, url: Self.list[1], title: "B", finished: true, historyIndex: 1,
                historyCount: 2, inputSeq: 0, digest: documentDigestBasis))
        }
        var adopted = 0
        var settled = 0
        rig.supervisor.reclaimed = { _, _ in adopted += 1 }
        rig.supervisor.reclaimsSettled = { settled += 1 }
        rig.supervisor.reclaim(held, generation: 2)
        rig.run(untilMs: 5)
        #expect(adopted == 0 && settled == 1)
        #expect(held.sent?.signal == SIGKILL)
        #expect(rig.named("protocol-violation").first?.string("reason")?.contains("resynchronisation 2") == true)
        #expect(rig.named("death").first?.string("status") == "protocol-violation")
    }

    @Test func aWorkerThatNeverAnswersIsKilledAfterAPingInterval() {
        let rig = CoreRig(.guarded)
        let held = Self.heldWorker(rig) { _, _ in }
        var settled = 0
        rig.supervisor.reclaimsSettled = { settled += 1 }
        rig.supervisor.reclaim(held, generation: 3)
        rig.run(untilMs: 999)
        #expect(held.sent == nil && settled == 0)
        rig.run(untilMs: 1_001)
        #expect(held.sent?.signal == SIGKILL && settled == 1)
        #expect(rig.named("kill").first?.string("reason") == "no answer to resynchronisation 3 within 1000 ms")
        #expect(rig.named("death").first?.string("status") == "unresponsive")
    }

    /// Its list must be at the index it resynchronised at: a worker that says two things is refused.
    @Test func aListAtAnotherIndexIsRefused() {
        let rig = CoreRig(.guarded)
        let held = Self.heldWorker(rig, index: 0)
        var adopted = 0
        rig.supervisor.reclaimed = { _, _ in adopted += 1 }
        rig.supervisor.reclaim(held, generation: 2)
        rig.run(untilMs: 5)
        #expect(adopted == 0 && held.sent?.signal == SIGKILL)
        let reason = rig.named("adoption-refused").first?.string("reason")
        #expect(reason == "its list's index is 0, not the 1 it resynchronised at")
    }

    /// With nothing to adopt workers, every one taken back is refused, not kept unaccounted for.
    @Test func withNoAdopterEveryWorkerTakenBackIsRefused() {
        let rig = CoreRig(.guarded)
        let held = Self.heldWorker(rig)
        rig.supervisor.reclaim(held, generation: 2)
        rig.run(untilMs: 5)
        #expect(held.sent?.signal == SIGKILL)
        #expect(rig.named("adoption-refused").first?.string("reason") == "nothing here adopts workers")
    }

    /// Each worker taken back enters its band first; rewriting the others' ranks at each would cost a write per
    /// worker per worker. They wait until the last is settled, and are then written once each, right.
    @Test func ranksAreWrittenOnceTheLastWorkerIsSettled() throws {
        let rig = CoreRig(.guarded)
        let held = (0..<3).map { Self.heldWorker(rig, pid: 500 + $0) }
        rig.supervisor.reclaimed = { worker, claim in
            let load = Load(index: 0, client: RecordingClient(rig.supervisor, url: claim.url), startedAt: 0)
            rig.supervisor.open(load, adopting: (worker, claim))
        }
        for worker in held { rig.supervisor.reclaim(worker, generation: 2) }
        rig.run(untilMs: 5)
        // Newest first, as hidden tabs never shown rank. Each was applied on entering and when its view attached;
        // the first two once more when the last was settled, not once for each that entered after them.
        #expect(held.map(\.rank) == [2, 1, 0])
        #expect(held.map(\.bands.count) == [3, 3, 2], "\(held.map(\.bands))")
    }

    /// A spare taken back (no page, no list, no input) goes back to the pool while the policy keeps one, and the
    /// next view takes it: nothing is launched for the view, only the spare that replaces it once it rendered.
    @Test func aSpareTakenBackIsTheNextViewsSpare() throws {
        var policy = Policy.guarded
        policy.spareWorkers = 1
        let rig = CoreRig(policy)
        let spare = FakeWorker(pid: 600, clock: rig.clock)
        spare.resync = { generation, worker in
            worker.say(.resynced(
                generation: generation, url: "", title: "", finished: false, historyIndex: 0, historyCount: 0,
                inputSeq: 0, digest: documentDigestBasis))
        }
        spare.script = { message, worker in
            if case .historyQuery = message { worker.say(.history(index: 0, count: 0, urls: [])) }
            else { FakeWorker.healthy(message, worker) }
        }
        rig.supervisor.reclaim(spare, generation: 2)
        rig.run(untilMs: 5)
        #expect(rig.named("adopt").first?.string("url") == "" && rig.named("adoption-refused").isEmpty)
        let (_, view, _) = rig.open()
        rig.run(untilMs: 10)
        #expect(view.worker?.pid == 600)
        #expect(rig.launcher.launched.count == rig.named("spare").count)
        #expect(rig.named("spare-taken").count == 1)
    }
}
