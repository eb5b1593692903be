/// The built-in policies, each written as the fields it sets beyond the defaults: what `supervisor policies`
/// prints, and what a user's policy may start from (`base=guarded`).
extension Policy {
    public static let none = Policy(name: "none")

    public static let reload = with(Policy(name: "reload")) {
        $0.detect = .both
        $0.recover = .reload
    }

    public static let rebuild = with(Policy(name: "rebuild")) {
        $0.detect = .both
        $0.recover = .rebuild
    }

    /// The private always-foreground flag: no worker is ever backgrounded; otherwise like reload.
    public static let alwaysForeground = with(Policy(name: "always-foreground")) {
        $0.launchBand = .foreground
        $0.hiddenBand = .foreground
        $0.detect = .both
        $0.recover = .reload
        $0.suspends = false
    }

    /// WebKit with no navigation delegate: reload if visible, else when next visible, as often as WebKit reloads
    /// by itself (`RecentCrashes`); a hung process is left alone, as WebKit leaves one that has pages.
    public static let webkitDefault = with(Policy(name: "webkit-default")) {
        $0.detect = .callback
        $0.delegate = false
        $0.recover = .reload
        $0.recoverWhenVisible = true
        $0.recoveryCooldownNanoseconds = 30_000_000_000
        $0.unresponsive = .ignore
    }

    /// Ours: observe from spawn; protect a view about to be shown from the killer from spawn on, as Chromium boosts
    /// a pending view (the boosted band: foreground oom_score_adj, background nice, so it does not take CPU from
    /// the supervisor and the views already on screen), then band by visibility; rebuild a visible view at once on
    /// any death, and a hidden one when it is shown (rebuilding hidden tabs under memory pressure only feeds the
    /// killer). Kills from outside are recovered every time: each one a killer claimed is the OS's doing, not the
    /// page's; crashes, and kills nobody claimed, are bounded by the crash-loop limit. A spare worker, reused from
    /// closed views, makes every new view start warm.
    public static let guarded = with(Policy(name: "guarded")) {
        $0.observe = .spawn
        $0.launchBand = .boosted
        $0.detect = .both
        $0.recover = .rebuild
        $0.recoverWhenVisible = true
        $0.maxRecoveries = .max
        $0.spareWorkers = 1
        $0.reuseWorkers = true
    }

    public static let all: [Policy] = [.none, .reload, .rebuild, .alwaysForeground, .webkitDefault, .guarded]

    public static func named(_ name: String) -> Policy? { all.first { $0.name == name } }
}

private func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var value = value
    change(&value)
    return value
}
