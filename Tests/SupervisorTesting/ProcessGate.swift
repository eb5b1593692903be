import CShim
import Testing

/// Tests that start processes pass a gate. Those that look at what the whole test process holds (its descriptors and
/// children, its signal mask, armed system-call faults, its limits) pass it alone, one at a time. Those that run the
/// `supervisor` binary and judge only what it printed, wrote and left behind pass it side by side. Each side waits for
/// the other, so nothing a side-by-side test starts is ever in the process while a test counts what the process holds.
///
/// Each test target that starts processes declares the two tiers as suites, in its `Tiers.swift`, and nests its
/// process suites in them (`extension Processes { @Suite struct … }`):
/// - `Processes` (`.serialized`, `.alone`): `swift test --filter '\.Processes/'` runs every such test, alone.
/// - `BesideOthers` (`.besideOthers`): none of its tests starts a worker of its own, so a live worker that is this
///   process's child can only be one a `supervisor` left behind (see `orphanedWorkers`).
actor ProcessGate {
    static let shared = ProcessGate()

    private enum State { case open, alone, beside(Int) }
    private var state = State.open
    private var waiting: [(alone: Bool, resume: CheckedContinuation<Void, Never>)] = []

    func enter(alone: Bool) async {
        if admits(alone) { return take(alone) }
        await withCheckedContinuation { waiting.append((alone, $0)) }
    }

    func leave() {
        switch state {
        case .open: preconditionFailure("left a gate no one had entered")
        case .alone, .beside(1): state = .open
        case .beside(let count): state = .beside(count - 1)
        }
        guard case .open = state else { return }
        // Once open, a test that must be alone goes first, then every test beside others at once: each turn of the
        // tiers waits for the other side to drain, so they take turns as seldom as they can.
        if let first = waiting.firstIndex(where: \.alone) {
            admit(waiting.remove(at: first))
        } else {
            while !waiting.isEmpty { admit(waiting.removeFirst()) }
        }
    }

    /// How many tests wait at the gate.
    var waitingCount: Int { waiting.count }

    private func admit(_ next: (alone: Bool, resume: CheckedContinuation<Void, Never>)) {
        take(next.alone)
        next.resume.resume()
    }

    /// A test beside others joins those running unless one that must be alone is waiting.
    private func admits(_ alone: Bool) -> Bool {
        switch state {
        case .open: waiting.isEmpty
        case .alone: false
        case .beside: !alone && !waiting.contains { $0.alone }
        }
    }

    private func take(_ alone: Bool) {
        switch state {
        case .open: state = alone ? .alone : .beside(1)
        case .beside(let count): state = .beside(count + 1)
        case .alone: preconditionFailure("entered a gate held by a test that must be alone")
        }
    }
}

/// `.alone` or `.besideOthers` on a suite: each of its test cases passes the process gate that way.
struct ProcessGateTrait: SuiteTrait, TestTrait, TestScoping {
    let alone: Bool
    var isRecursive: Bool { true }

    /// The suites too, not only their test cases (the default for a recursive trait): see `provideScope`.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { self }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope holds nothing but the threads its tests run on: its test cases pass the gate one
        // by one.
        guard testCase != nil else {
            let threads = alone ? ThreadExecutor.alone : .besideOthers
            return try await withTaskExecutorPreference(threads) { try await function() }
        }
        // A worker orphaned by a `supervisor` comes to this process (see `orphanedWorkers`), not to init.
        if !alone { _ = sv_set_child_subreaper() }
        await ProcessGate.shared.enter(alone: alone)
        do {
            try await function()
        } catch {
            await ProcessGate.shared.leave()
            throw error
        }
        await ProcessGate.shared.leave()
    }
}

extension Trait where Self == ProcessGateTrait {
    /// Its test cases run with no other process test.
    static var alone: Self { ProcessGateTrait(alone: true) }
    /// Its test cases run beside each other, never beside one that must be alone.
    static var besideOthers: Self { ProcessGateTrait(alone: false) }
}
