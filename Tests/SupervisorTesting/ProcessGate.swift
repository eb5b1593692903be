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
///   process's child can only be one a `supervisor` left behind (see `orphanedWorkers`). Nor does one reap a worker
///   here, held or not: once a test has made this process a reaper (`Orphans.adopt`), a reap sweeps every child it
///   did not spawn, and beside others those are the other tests' `supervisor`s.
actor ProcessGate {
    static let shared = ProcessGate(besideCapacity: ThreadExecutor.besideOthers.threads)

    private enum State { case open, alone, beside(Int) }
    private var state = State.open
    private var waiting: [(alone: Bool, resume: CheckedContinuation<Void, Never>)] = []
    /// How many tests beside others run at once: no more than have threads, so that a test let in runs at once and
    /// its running limit (see `ProcessGateTrait`) counts its own time, not a wait for a thread.
    private let besideCapacity: Int

    init(besideCapacity: Int) {
        precondition(besideCapacity > 0, "a gate that lets no test beside others in")
        self.besideCapacity = besideCapacity
    }

    func enter(alone: Bool) async {
        if waiting.isEmpty, hasRoom(alone) { return take(alone) }
        await withCheckedContinuation { waiting.append((alone, $0)) }
    }

    func leave() {
        switch state {
        case .open: preconditionFailure("left a gate no one had entered")
        case .alone, .beside(1): state = .open
        case .beside(let count): state = .beside(count - 1)
        }
        // Once open, a test that must be alone goes first; while none waits, tests beside others come in as there is
        // room. Each turn of the tiers waits for the other side to drain, so they take turns as seldom as they can.
        if case .open = state, let first = waiting.firstIndex(where: \.alone) {
            return admit(waiting.remove(at: first))
        }
        while hasRoom(false), let next = waiting.firstIndex(where: { !$0.alone }) {
            admit(waiting.remove(at: next))
        }
    }

    /// How many tests wait at the gate.
    var waitingCount: Int { waiting.count }

    private func admit(_ next: (alone: Bool, resume: CheckedContinuation<Void, Never>)) {
        take(next.alone)
        next.resume.resume()
    }

    /// A test beside others joins those running while there is room and none that must be alone waits.
    private func hasRoom(_ alone: Bool) -> Bool {
        switch state {
        case .open: alone || !waiting.contains { $0.alone }
        case .alone: false
        case .beside(let count): !alone && count < besideCapacity && !waiting.contains { $0.alone }
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

/// `.alone` or `.besideOthers` on a suite: each of its test cases passes the process gate that way, and must end
/// within its running limit once let in.
///
/// Swift Testing's `.timeLimit` counts from when a test case is started, which for a test case here is long before
/// it runs: it waits at the gate, behind the other tier, for as long as the whole other tier takes. A limit that counts
/// that wait fails a quick test on a busy machine, and it did. The running limit counts only the test's own run; the
/// tiers keep a far longer `.timeLimit` as the backstop for a test that never returns.
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
        let limit = test.traits.compactMap { ($0 as? RunningLimitTrait)?.limit }.min() ?? RunningLimitTrait.standard
        await ProcessGate.shared.enter(alone: alone)
        do {
            try await Self.$isBesideOthers.withValue(!alone) {
                try await Self.withRunningLimit(limit, onExceeding: {
                    Issue.record("Running limit exceeded: still running \(limit) after the process gate let it in")
                }, function)
            }
        } catch {
            await ProcessGate.shared.leave()
            throw error
        }
        await ProcessGate.shared.leave()
    }

    /// Whether the test running is one beside others.
    @TaskLocal static var isBesideOthers = false

    /// Records an issue in a test beside others that is about to run a worker in this process, which only a test
    /// alone may do (see `ProcessGate`): a reap here would kill the other tests' `supervisor`s.
    static func expectAlone(_ what: String) {
        if isBesideOthers { Issue.record("\(what) runs workers in the test process: only a test in `Processes` may") }
    }

    /// Runs `function`, and `onExceeding` if it has not returned within `limit`. The clock runs on the shared
    /// threads, since the gate's threads may all be held by tests that block.
    static func withRunningLimit(
        _ limit: Duration, onExceeding: @escaping @Sendable () -> Void, _ function: @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: globalConcurrentExecutor) {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                onExceeding()
            }
            defer { group.cancelAll() }
            try await function()
        }
    }
}

/// How long a process test may run once the process gate lets it in (see `ProcessGateTrait`).
struct RunningLimitTrait: TestTrait {
    /// The limit of a test that names none.
    static let standard = Duration.seconds(120)
    let limit: Duration
}

extension Trait where Self == RunningLimitTrait {
    /// A limit other than the standard two minutes on how long a process test may run once let in.
    static func runningLimit(_ limit: Duration) -> Self { RunningLimitTrait(limit: limit) }
}

extension Trait where Self == ProcessGateTrait {
    /// Its test cases run with no other process test.
    static var alone: Self { ProcessGateTrait(alone: true) }
    /// Its test cases run beside each other, never beside one that must be alone.
    static var besideOthers: Self { ProcessGateTrait(alone: false) }
}

