import Testing

/// The tier the gate's own checks run in (see `ProcessGate`). A test may run two minutes once the gate lets it in;
/// the time limit, which also counts its wait at the gate, is the backstop for one that never returns.
@Suite(.serialized, .alone, .timeLimit(.minutes(10))) enum Processes {}
