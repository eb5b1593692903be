import Events
import Vocabulary

/// A line of our event log as the supervisor writes it: `event` at `time` (ISO 8601, UTC, as the log writes it),
/// with every key its schema requires.
func eventLine(_ time: String, _ event: SupervisorEvent, view: Int? = nil, pid: Int32? = nil) -> String {
    guard let wall = parseISOTime(time) else { preconditionFailure("not an ISO time: \(time)") }
    return Event(event, monotonic: wall, wall: wall, view: view, pid: pid).json.text
}

extension SupervisorEvent {
    /// A worker's death by SIGKILL, as a test's log needs it: `cause` says who sent it.
    static func killed(rendered: Bool, attached: Bool = false, cause: DeathCause = .injected) -> SupervisorEvent {
        .death(Death(
            status: .killed, terminationReason: .evictedForMemory, exit: .signal(9), reason: nil, rendered: rendered, attached: attached, spare: false,
            band: attached ? .foreground : .background, lifetimeMs: 3, cause: cause, shutdown: false))
    }
}
