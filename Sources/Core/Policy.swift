import Process

/// How the supervisor watches, prioritises and recovers views. A policy is data: a new one is a few lines here, and
/// `compare` puts every policy in front of the same faults.
public struct Policy: Sendable, Equatable {
    /// When the app learns that a view's worker died.
    public enum Observe: String, Sendable {
        /// From the moment of spawn, through the pidfd.
        case spawn
        /// Only once the view is attached to the window, as WKWebView apps wire their termination observer.
        /// A death before that is unobserved: the view goes on believing its process is alive.
        case attach
    }

    public enum Recovery: String, Sendable {
        /// Keep the view and reload it: a new process if the death was delivered, otherwise a reload sent to the
        /// process the view believes in, which does nothing if that process is gone.
        case reload
        /// Throw the view and its process away; load the same URL in a new view with a new process.
        case rebuild
    }

    public let name: String
    public var observe = Observe.attach
    /// The band of a worker whose view is about to be shown but has not attached yet.
    public var launchBand = PriorityBand.background
    /// The band of a worker whose view is hidden.
    public var hiddenBand = PriorityBand.hidden
    /// What the termination callback does; nil: nothing.
    public var onTermination: Recovery?
    /// Recover a hidden view only when it is next shown (WebKit's behaviour without a delegate).
    public var recoverWhenVisible = false
    /// At most one recovery per view in this window (WebKit: 30 s).
    public var recoveryCooldownNanoseconds = 0
    /// What a blank-watchdog hit (an empty title) does; nil: no watchdog.
    public var onBlank: Recovery?
    /// Recoveries of one load before it is given up, whatever the deaths were.
    public var maxRecoveries = 3
    /// The crash-loop limit: a load whose workers crash (anything but a kill from outside: a signal, an exit, a
    /// failed launch, a protocol violation, a hang) more than `crashRestarts` times within `crashWindowNanoseconds`
    /// is not restarted again; its view shows an internal error page. Restarts after the first in the window wait
    /// `crashBackoffNanoseconds` × 2^(n-2), so the n-th restart waits longer than the one before.
    public var crashRestarts = 3
    public var crashWindowNanoseconds = 5_000_000_000
    public var crashBackoffNanoseconds = 100_000_000
    /// Keep launched workers waiting for the next view, as Chromium keeps a spare renderer: one is launched when
    /// none is left, and reuse keeps up to this many.
    public var spareWorkers = 0
    /// A closed view's healthy worker unloads its page and becomes a spare, as WebKit's process cache and
    /// Chromium's renderer reuse do: the next view skips a launch, and the system a teardown.
    public var reuseWorkers = false

    public init(name: String) { self.name = name }

    public static let none = Policy(name: "none")

    public static let reload = with(Policy(name: "reload")) {
        $0.onTermination = .reload
        $0.onBlank = .reload
    }

    public static let rebuild = with(Policy(name: "rebuild")) {
        $0.onTermination = .rebuild
        $0.onBlank = .rebuild
    }

    /// The private always-foreground flag: no worker is ever backgrounded; otherwise like reload.
    public static let alwaysForeground = with(Policy(name: "always-foreground")) {
        $0.onTermination = .reload
        $0.onBlank = .reload
        $0.launchBand = .foreground
        $0.hiddenBand = .foreground
    }

    /// WebKit with no navigation delegate: reload if visible, else when next visible, at most once per 30 s.
    public static let webkitDefault = with(Policy(name: "webkit-default")) {
        $0.onTermination = .reload
        $0.recoverWhenVisible = true
        $0.recoveryCooldownNanoseconds = 30_000_000_000
    }

    /// Ours: observe from spawn; protect a view about to be shown from the killer from spawn on, as Chromium boosts
    /// a pending view (the boosted band: foreground oom_score_adj, background nice, so it does not take CPU from
    /// the supervisor and the views already on screen), then band by visibility; rebuild a visible view at once on
    /// any death, and a hidden one when it is shown (rebuilding hidden tabs under memory pressure only feeds the
    /// killer). Kills from outside are recovered every time: each one is the OS's doing, not the page's; crashes
    /// are bounded by the crash-loop limit. A spare worker, reused from closed views, makes every new view start
    /// warm.
    public static let guarded = with(Policy(name: "guarded")) {
        $0.observe = .spawn
        $0.launchBand = .boosted
        $0.recoverWhenVisible = true
        $0.onTermination = .rebuild
        $0.onBlank = .rebuild
        $0.maxRecoveries = .max
        $0.spareWorkers = 2
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
