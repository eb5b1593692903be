import Testing
@testable import SupervisorTesting

/// This target's two tiers of process tests (see `ProcessGate`).
@Suite(.serialized, .alone, .timeLimit(.minutes(2))) enum Processes {}
@Suite(.besideOthers, .timeLimit(.minutes(2))) enum BesideOthers {}
