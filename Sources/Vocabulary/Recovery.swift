/// How a view is brought back.
public enum RecoveryKind: String, Sendable, CaseIterable {
    /// Keep the view and reload it: a new process if the death was delivered, otherwise a reload sent to the
    /// process the view believes in, which does nothing if that process is gone.
    case reload
    /// Throw the view and its process away; load the same URL in a new view with a new process.
    case rebuild
}

/// What set a recovery off.
public enum RecoveryReason: String, Sendable, CaseIterable {
    /// The termination callback.
    case termination
    /// A hidden view whose recovery waited until it was shown.
    case shown
    /// The blank watchdog.
    case blank
    /// A worker that owed an answer past the hang timeout, under a policy that reloads then.
    case unresponsive
}
