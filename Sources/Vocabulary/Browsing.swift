/// What the simulated user does next while browsing a session.
public enum NavigationAction: String, Sendable, CaseIterable {
    case link, back, forward, reload
    case switchTab = "switch-tab"
}

/// The frame a navigation is for.
public enum NavigationFrame: String, Sendable, CaseIterable {
    case main, sub
}

/// What the navigation policy decided for a navigation.
public enum NavigationVerdict: String, Sendable, CaseIterable {
    case allow
    case cancel
    /// Not loaded in the tab: handed to the system (Safari, on iOS).
    case openExternally = "open-externally"
}

/// Why a tab restored without its page (an unrealized tab) was given a view and a worker.
public enum TabRealizeReason: String, Sendable, CaseIterable {
    case shown
    /// Its live state was asked for (its worker's back/forward list).
    case liveState = "live state"
    case navigation
    /// A worker a holder kept across the supervisor's restart showed its page already (`run --keep-workers`).
    case adopted
    /// One of the tabs kept live from the start (`run --live-tabs`).
    case live
}

/// Why a tab shows an error page.
public enum ErrorPageKind: String, Sendable, CaseIterable {
    /// The navigation failed before it committed, or after.
    case provisional, committed
    /// The page navigated more often than a tab allows.
    case tooManyNavigations = "too-many-navigations"
}

/// Why an internal URL (`app://internal/...`) was refused.
public enum InternalRefusal: String, Sendable, CaseIterable {
    case missingKey = "missing-key"
    case wrongKey = "wrong-key"
    case unknownPage = "unknown-page"
}

/// The files a browsing run keeps.
public enum BrowsingFile: String, Sendable, CaseIterable {
    case session, journal
}

/// Where the editor's final document was read from.
public enum DocumentSource: String, Sendable, CaseIterable {
    case worker, journal
}

/// A request a view makes of its worker, which may find the channel dead.
public enum ViewRequest: String, Sendable, CaseIterable {
    case reload, titleQuery
}

/// The signals that end a run early.
public enum StopSignal: String, Sendable, CaseIterable {
    case SIGINT, SIGTERM
}
