/// Whether the supervisor is waiting on nothing but its timers: what lets `compare` pass its waits (an attach
/// delay, a fetch's latency, a blank timeout, a replayed death 158 s after launch) in simulated time.
extension Supervisor {
    /// True when every worker has said hello, owes no answer and nothing of a load (a fetch, a result, a title, a
    /// history) but the results of pages whose answers the supervisor holds back, is not being shut down, no view
    /// waits for a process, and the run is not stopping: until a timer fires, nothing the policy could act on can
    /// happen.
    package var quiet: Bool {
        guard !stopping, waitingForProcess.isEmpty else { return false }
        return workers.values.allSatisfy { $0.conversation.quiet(holding: $0.answersHeld) }
    }
}
