import Testing

/// The tier the gate's own checks run in (see `ProcessGate`).
@Suite(.serialized, .alone, .timeLimit(.minutes(2))) enum Processes {}
