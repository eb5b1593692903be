import CShim
import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Core
@testable import Process
@testable import System
@testable import SupervisorTesting

/// What a worker says is checked against what the supervisor asked for, and what the kernel cannot say (who sent a
/// signal) is never made up: in virtual time, with fake workers.
@Suite struct UntrustedWorker {
    /// A worker whose page commits a URL nobody sent it to, after fetching the document it was sent to: it is cut
    /// off as a protocol violation, the commit is never logged nor told to the load's client, and the view is
    /// rebuilt on a sound worker.
    @Test func aCommitOfAnotherURLThanTheDocumentIsAProtocolViolation() throws {
        let rig = CoreRig(.guarded)
        rig.launcher.prepare = { worker in
            guard rig.launcher.launched.count == 1 else { return }
            worker.script = { message, worker in
                guard case .fetchReply = message else { return FakeWorker.healthy(message, worker) }
                worker.say(.didCommit(url: "https://evil.example/stolen"), .didFinish(title: "Stolen"))
            }
        }
        let (_, _, client) = rig.open()
        rig.run(untilMs: 100)
        let violation = try #require(rig.named("protocol-violation").first)
        #expect(violation.string("reason")?.contains("https://evil.example/stolen") == true)
        #expect(rig.named("death").first?.string("status") == "protocol-violation")
        #expect(!rig.named("commit").contains { $0.string("url") == "https://evil.example/stolen" })
        #expect(client.renders.map(\.title) == ["Page"])
    }

    /// A worker that fetched the URL it then commits, when the load was to another: the document matches, the
    /// navigation does not, and the client says so.
    @Test func aCommitOfADocumentNoNavigationWasToIsAProtocolViolation() throws {
        let rig = CoreRig(.guarded)
        rig.launcher.prepare = { worker in
            guard rig.launcher.launched.count == 1 else { return }
            worker.script = { message, worker in
                switch message {
                case .load: worker.say(.fetch(url: "https://evil.example/stolen", kind: .document))
                case .fetchReply: worker.say(.didCommit(url: "https://evil.example/stolen"), .didFinish(title: "Stolen"))
                default: FakeWorker.healthy(message, worker)
                }
            }
        }
        let (_, _, client) = rig.open()
        rig.run(untilMs: 100)
        #expect(rig.named("protocol-violation").first?.string("reason")?.contains("no navigation") == true)
        #expect(!rig.named("commit").contains { $0.string("url") == "https://evil.example/stolen" })
        #expect(client.renders.map(\.title) == ["Page"])
    }

    /// One commit a document: a second is a lie about a navigation that never happened.
    @Test func aSecondCommitOfTheSameDocumentIsAProtocolViolation() throws {
        let rig = CoreRig(.rebuild)
        rig.launcher.prepare = { worker in
            guard rig.launcher.launched.count == 1 else { return }
            worker.script = { message, worker in
                guard case .fetchReply = message else { return FakeWorker.healthy(message, worker) }
                worker.say(.didCommit(url: worker.page), .didCommit(url: worker.page), .didFinish(title: "Page"))
            }
        }
        rig.open()
        rig.run(untilMs: 100)
        #expect(rig.named("commit").count == 1)
        #expect(rig.named("protocol-violation").first?.string("reason")?.contains("given to commit is none") == true)
    }

    /// A worker that SIGKILLs itself after each render: the kernel reports a kill, but nobody claimed it, so its
    /// cause is `unknown` and it counts toward the crash loop like a crash. With a claim for each kill, the same
    /// deaths are kills from outside, and the load is rebuilt every time.
    @Test(arguments: [false, true])
    func aKillNobodyClaimedCountsTowardTheCrashLoop(claimed: Bool) throws {
        let rig = CoreRig(.guarded)
        var claims: Set<Int32> = []
        rig.supervisor.claimedKill = { claims.remove($0) != nil }
        var kills = 0
        rig.supervisor.log.observers.append { event in
            guard event.name == "visible", kills < 8, let pid = event.pid,
                let worker = rig.launcher.launched.first(where: { $0.pid == pid })
            else { return }
            kills += 1
            if claimed { claims.insert(pid) }
            worker.crash(SIGKILL)
        }
        let (_, _, client) = rig.open()
        rig.run(untilMs: 5_000)
        let causes = Set(rig.named("death").filter { $0.int("signal") == 9 }.compactMap { $0.string("cause") })
        #expect(causes == [claimed ? "outside" : "unknown"])
        if claimed {
            #expect(kills == 8 && rig.named("crash-loop").isEmpty && rig.named("recovery").count == 8)
        } else {
            // The fourth kill within the window is one more than the three restarts a load gets.
            #expect(kills == 4 && rig.named("crash-loop").count == 1)
            #expect(client.endings.first?.error?.hasPrefix("crash-loop") == true)
        }
    }

    /// EAGAIN at a launch (the process limit): said once, and the view waits for a process instead of failing;
    /// when one of the run's workers ends, it gets its worker and renders.
    @Test func aLaunchRefusedForWantOfAProcessWaitsForAWorkerToEnd() throws {
        let rig = CoreRig(.rebuild)
        let first = rig.open(index: 0)
        rig.run(untilMs: 10)
        rig.launcher.failWith = EAGAIN
        let second = rig.open(index: 1)
        rig.run(untilMs: 20)
        #expect(second.view.worker == nil && rig.supervisor.waitsForProcess(second.view))
        #expect(rig.named("termination").isEmpty && rig.supervisor.failure == nil)
        rig.launcher.failWith = nil
        rig.supervisor.close(first.view)
        rig.run(untilMs: 30)
        #expect(second.view.worker != nil && second.client.renders.count == 1)
        #expect(!rig.supervisor.waitsForProcess(second.view))
    }

    /// With none of the run's workers alive to make room, the retries end: after a second of refusals the run
    /// stops with one reason.
    @Test func aProcessLimitThatLeavesRoomForNoWorkerStopsTheRun() throws {
        let rig = CoreRig(.rebuild)
        rig.launcher.failWith = EAGAIN
        let (_, view, _) = rig.open()
        rig.run(untilMs: 500)
        #expect(rig.supervisor.failure == nil && rig.supervisor.waitsForProcess(view))
        rig.run(untilMs: 1_200)
        #expect(rig.supervisor.failure?.hasPrefix("cannot start a worker: the system refused a new process") == true)
        #expect(rig.named("abort").count == 1)
    }
}
