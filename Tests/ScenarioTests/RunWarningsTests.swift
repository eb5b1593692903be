import Testing
import Vocabulary

@testable import Events
@testable import Scenario

/// The core logs what happened; the run's warnings are read from those events, each said once.
@Suite struct RunWarningLines {
    @Test func eachWarningIsSaidOnceAsTheRunFirstMeetsIt() {
        var lines: [String] = []
        let warnings = RunWarnings { lines.append($0) }
        let denied = SupervisorEvent.priority(
            band: .background, nice: 10, oomScoreAdj: 800, result: .notPermitted, error: "setpriority: Permission denied",
            rbs: nil)
        let kinds: [SupervisorEvent] = [
            .hello(spawnToHelloMs: 1, sandbox: .installed), denied, .processRefused,
            .hello(spawnToHelloMs: 1, sandbox: .unavailable), denied, .processRefused,
            .hello(spawnToHelloMs: 1, sandbox: .unavailable),
        ]
        for (index, kind) in kinds.enumerated() { warnings.record(Event(kind, monotonic: index, wall: index)) }
        #expect(lines == [
            "supervisor: warning: cannot change worker priority (setpriority: Permission denied); continuing without it",
            "supervisor: warning: the system refused a new process (ulimit -u, or the kernel's limit); going on with "
                + "fewer workers, each view that needs one waiting for another to end",
            "supervisor: warning: this kernel has no seccomp filters; workers run without their sandbox",
        ])
    }
}
