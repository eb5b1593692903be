import Foundation
import Glibc
import Synchronization
import Testing

extension Processes {
    /// The checks the two tiers rest on, run where nothing else runs.
    @Suite struct TierChecks {
        /// A live process named as a worker, this process's child, is what `orphanedWorkers` reports (a worker a
        /// `supervisor` left behind comes to this process); once it is dead it no longer is.
        @Test func aLiveWorkerChildIsAnOrphanUntilItDies() throws {
            let folder = try TemporaryFolder([:])
            let impostor = folder.path + "/WebContent"
            try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: impostor)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: impostor)
            child.arguments = ["30"]
            try child.run()
            #expect(orphanedWorkers() == [child.processIdentifier])
            // SIGKILL: a signal mask blocked in this process (SIGTERM, say) is the child's too.
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            #expect(orphanedWorkers().isEmpty)
        }

        /// A test beside others never runs while one that must be alone does, and the other way round.
        @Test func theGateKeepsTheTiersApart() async {
            let gate = ProcessGate()
            await gate.enter(alone: false)
            await gate.enter(alone: false)
            let entered = Mutex(false)
            let alone = Task {
                await gate.enter(alone: true)
                entered.withLock { $0 = true }
            }
            await Task.yield()
            #expect(!entered.withLock { $0 })
            await gate.leave()
            await Task.yield()
            #expect(!entered.withLock { $0 })
            await gate.leave()
            await alone.value
            #expect(entered.withLock { $0 })
            await gate.leave()
        }
    }
}
