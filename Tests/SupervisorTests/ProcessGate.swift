import CShim
import Testing

/// Tests that start processes pass a gate. Those that look at what the whole test process holds (its descriptors and
/// children, its signal mask, armed system-call faults, its limits) pass it alone: the `Processes` suite, one test at
/// a time. Those that run the `supervisor` binary and judge only what it printed and left behind pass it side by side:
/// the `BesideOthers` suite. Each side waits for the other, so nothing a side-by-side test starts is ever in the
/// process while a test counts what the process holds.
actor ProcessGate {
    static let shared = ProcessGate()

    private enum State { case open, alone, beside(Int) }
    private var state = State.open
    private var waiting: [(alone: Bool, resume: CheckedContinuation<Void, Never>)] = []

    func enter(alone: Bool) async {
        if waiting.isEmpty, admits(alone) { return take(alone) }
        await withCheckedContinuation { waiting.append((alone, $0)) }
    }

    func leave() {
        switch state {
        case .open: preconditionFailure("left a gate no one had entered")
        case .alone, .beside(1): state = .open
        case .beside(let count): state = .beside(count - 1)
        }
        // In arrival order: a test that must be alone waits for those beside others to finish, and holds back those
        // that came after it, so neither side starves.
        while let next = waiting.first, admits(next.alone) {
            waiting.removeFirst()
            take(next.alone)
            next.resume.resume()
        }
    }

    private func admits(_ alone: Bool) -> Bool {
        switch state {
        case .open: true
        case .alone: false
        case .beside: !alone
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

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope holds nothing: its test cases pass the gate one by one.
        guard testCase != nil else { return try await function() }
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
