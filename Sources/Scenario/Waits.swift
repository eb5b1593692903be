/// How a run passes a wait on its own timers (an attach delay, a fetch's latency, the next arrival, a blank
/// timeout) while no process has anything to do.
public enum Waits: String, Sendable, CaseIterable {
    /// Waited out, as on a device: what `run` does, and what needs a killer outside the run (Jetsam, chaos), a
    /// journal's disk writes, or a page that acts on its own clock after it rendered (`busy`, `grow`, a fault).
    case real
    /// Passed in simulated time: the run's clock moves on to the next timer (`Supervisor.quiet`, `EventLoop.run`).
    /// What a process does (a spawn, a render, an exit) still takes the real time it takes.
    case simulated
}
