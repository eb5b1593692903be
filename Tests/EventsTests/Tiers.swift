import Testing
@testable import SupervisorTesting

/// This target's two tiers of process tests (see `ProcessGate`). A test may run two minutes once the gate lets it
/// in; the time limit, which also counts its wait at the gate, is the backstop for one that never returns.
@Suite(.serialized, .alone, .timeLimit(.minutes(10))) enum Processes {}
@Suite(.besideOthers, .timeLimit(.minutes(10))) enum BesideOthers {}
