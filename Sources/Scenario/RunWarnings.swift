import Core
import Events
import System
import Vocabulary

/// What the operator is warned of, read from the run's events: each once, as the run first meets it. The core only
/// logs what happened; whether that is worth a line on standard error is decided here.
public final class RunWarnings {
    private var said: Set<Warning> = []
    private let write: (String) -> Void

    private enum Warning: Hashable {
        case noSandbox, priorityDenied, processLimit
    }

    /// Warnings go to `write`; by default, standard error.
    public init(write: @escaping (String) -> Void = { printError($0) }) {
        self.write = write
    }

    /// An `EventLog` observer.
    public func record(_ event: Event) {
        switch event.kind {
        case .hello(_, .unavailable):
            once(.noSandbox, "this kernel has no seccomp filters; workers run without their sandbox")
        case .priority(_, _, _, .notPermitted, let error, _), .priority(_, _, _, .accessDenied, let error, _):
            once(.priorityDenied, "cannot change worker priority (\(error ?? "not permitted")); continuing without it")
        case .processRefused:
            once(.processLimit, "\(Supervisor.processLimitRefusal); going on with fewer workers, each view that needs one "
                + "waiting for another to end")
        default:
            break
        }
    }

    private func once(_ warning: Warning, _ text: String) {
        guard said.insert(warning).inserted else { return }
        write("supervisor: warning: " + text)
    }
}
