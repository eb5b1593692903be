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
    }
}

/// How the gate lets the tiers in, on gates of their own: no process is started.
@Suite struct GateOrder {
    /// A test beside others never runs while one that must be alone does, and the other way round.
    @Test func theGateKeepsTheTiersApart() async {
        let gate = ProcessGate(besideCapacity: 4)
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

    /// Once a test that must be alone leaves, another that must be alone goes first, even one that came after
    /// a test beside others: the tiers take turns as seldom as they can.
    @Test func aTestThatMustBeAloneGoesFirst() async {
        let gate = ProcessGate(besideCapacity: 4)
        await gate.enter(alone: true)
        let order = Entries()
        let beside = Task {
            await gate.enter(alone: false)
            await order.add("beside")
        }
        while await gate.waitingCount < 1 { await Task.yield() }
        let alone = Task {
            await gate.enter(alone: true)
            await order.add("alone")
        }
        while await gate.waitingCount < 2 { await Task.yield() }
        await gate.leave()
        await alone.value
        #expect(await order.entries == ["alone"])
        await gate.leave()
        await beside.value
        #expect(await order.entries == ["alone", "beside"])
        await gate.leave()
    }
}

extension GateOrder {
    /// Tests beside others come in only as there is room: a third waits for one of two to leave.
    @Test func testsBesideOthersComeInAsThereIsRoom() async {
        let gate = ProcessGate(besideCapacity: 2)
        await gate.enter(alone: false)
        await gate.enter(alone: false)
        let third = Task { await gate.enter(alone: false) }
        for _ in 0..<1000 where await gate.waitingCount == 0 { await Task.yield() }
        #expect(await gate.waitingCount == 1)
        await gate.leave()
        await third.value
        #expect(await gate.waitingCount == 0)
        await gate.leave()
        await gate.leave()
    }

    /// The running limit is told of a test still running past it (this one runs until it is told), and not of
    /// one that returned within it.
    @Test(.timeLimit(.minutes(1))) func theRunningLimitIsToldOfATestStillRunningPastIt() async throws {
        let (told, tell) = AsyncStream.makeStream(of: Void.self)
        try await ProcessGateTrait.withRunningLimit(.milliseconds(20), onExceeding: { tell.yield() }) {
            for await _ in told { return }
        }
        let (quick, tellQuick) = AsyncStream.makeStream(of: Void.self)
        try await ProcessGateTrait.withRunningLimit(.milliseconds(200), onExceeding: { tellQuick.yield() }) {}
        try await Task.sleep(for: .milliseconds(400))
        tellQuick.finish()
        var toldOfQuick = false
        for await _ in quick { toldOfQuick = true }
        #expect(!toldOfQuick)
    }
}

/// The order in which tests entered a gate.
private actor Entries {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
