/// A worker's scheduling and memory-kill standing: what RunningBoard expresses with assertions, expressed with
/// `nice` and `oom_score_adj`.
public enum PriorityBand: String, Sendable, CaseIterable {
    case foreground
    /// A hidden view's worker: it holds a background assertion, so it ranks above a worker that holds none.
    case hidden
    /// No assertion at all: a worker just launched, or a spare waiting for a view. The first the killer takes.
    case background
    /// Kept alive like foreground (low oom_score_adj) but scheduled like background (high nice): a worker the
    /// user is about to see is protected from the killer without taking CPU from the views already on screen.
    case boosted
    /// Stopped (SIGSTOP) after its hidden view's grace, as WebKit's ProcessThrottler suspends a WebContent process
    /// with no activity left: no CPU at all, and the first the killer takes, as iOS's Jetsam takes suspended
    /// processes first. A band the supervisor moves workers into, never one a policy names.
    case suspended

    /// The bands a policy may name for a worker.
    public static let chosen: [PriorityBand] = [.foreground, .hidden, .background, .boosted]

    /// Protected from the killer as a view on screen is.
    public var isProtected: Bool { self == .foreground || self == .boosted }
}

/// What came of moving a worker between bands, as the event log's `priority` event writes it.
public enum PriorityAnswer: String, Sendable, CaseIterable {
    case applied = "ok"
    /// The process no longer exists: RunningBoard's "Specified target process does not exist".
    case noSuchProcess = "ESRCH"
    /// Not allowed for this user (raising priority needs CAP_SYS_NICE).
    case notPermitted = "EPERM"
    case accessDenied = "EACCES"
    /// Any other error: the event's `error` says which.
    case failed
}

/// RunningBoard's errors, word for word as iOS logs them, so that logs from this tool and from a device read the
/// same. Each is spelled as RunningBoard's client logs it in its `[assertion]` category.
public enum RunningBoardError: String, Sendable, CaseIterable {
    /// An assertion on a process that is already gone.
    case targetMissing =
        #"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"#

    /// The error alone, as WebKit's ProcessAssertion quotes it.
    public var error: String { String(rawValue.dropFirst(Self.prefix.count).dropLast()) }

    private static let prefix = "Error acquiring assertion: <"
}
