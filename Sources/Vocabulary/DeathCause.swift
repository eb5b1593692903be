/// Who ended a worker. The supervisor knows every signal it sent; of the others, the kernel says only which signal
/// it was, never who sent it (waitid(2) fills in the child's pid and uid, the `struct waitid_info` of Linux's
/// kernel/exit.h has no field for a sender). So a kill is from outside only when its killer said so: Jetsam and
/// scripts/chaos name each worker they kill before the kill (`KillClaims`). Any other kill is `unknown`: the worker
/// may have sent it to itself.
public enum DeathCause: String, CaseIterable, Sendable {
    /// An injected fault's signal (`--inject-race`, `--inject-kill`, a replayed death).
    case injected
    /// The supervisor ended it: told to shut down, or killed for a hang, a protocol violation, a flood or a
    /// shutdown it did not finish.
    case supervisor
    /// A signal the supervisor did not send, from a killer that named the worker before it sent it.
    case outside
    /// A signal nobody owned up to: a kill no killer named, or one the worker sent itself.
    case unknown
    /// It ended on its own: an exit nobody asked for, or a crash signal (taken to be its own fault).
    case worker
}
