import Process
import Vocabulary

/// How the supervisor watches, prioritises and recovers views: a small set of named choices. A policy is data: the
/// built-ins are values of these fields, and a user's policy (`--policy observe=spawn,recover=rebuild`, or a JSON
/// file) is read into the same fields, so `compare` puts every one in front of the same faults. Each default is
/// written here once; the option table that reads and prints policies takes its defaults from `Policy(name:)`.
public struct Policy: Sendable, Equatable {
    /// When the app learns that a view's worker died.
    public enum Observe: String, Sendable, CaseIterable {
        /// From the moment of spawn, through the pidfd.
        case spawn
        /// Only once the view is attached to the window, as WKWebView apps wire their termination observer.
        /// A death before that is unobserved: the view goes on believing its process is alive.
        case attach
    }

    /// How a dead or blank view is found.
    public enum Detection: String, Sendable, CaseIterable {
        /// The termination callback, as the observer delivers it.
        case callback
        /// The blank watchdog: an app's own timer that reads the title and calls an empty one blank, whatever
        /// the process is doing.
        case watchdog
        case both = "callback+watchdog"
        case none

        public var byCallback: Bool { self == .callback || self == .both }
        public var byWatchdog: Bool { self == .watchdog || self == .both }
    }

    public typealias Recovery = RecoveryKind

    /// What befalls a worker that owes an answer past the hang timeout. It is reported `unresponsive` first, and
    /// `responsive` if it answers later, as Android tells an app (`onRenderProcessUnresponsive`,
    /// `onRenderProcessResponsive`) and leaves the choice to it.
    public enum Unresponsive: Sendable, Equatable {
        /// Killed at once.
        case kill
        /// Left alone this much longer, and killed only if it has still not answered.
        case wait(nanoseconds: Int)
        /// Killed, and its view reloaded at once with a new worker, as an app that terminates the renderer and
        /// reloads does; its death is the app's own doing, not delivered to the view as a termination.
        case reload
        /// Left alone for as long as it stays silent, as WebKit leaves a process that has pages: it only tells them
        /// (`WebProcessProxy::didBecomeUnresponsive`).
        case ignore
    }

    public var name: String
    public var observe = Observe.attach
    /// The band of a worker whose view is about to be shown but has not attached yet.
    public var launchBand = PriorityBand.background
    /// The band of a worker whose view is hidden.
    public var hiddenBand = PriorityBand.hidden
    public var detect = Detection.none
    /// Whether the app's navigation delegate implements the termination callback
    /// (`webViewWebContentProcessDidTerminate:`). Without it, WebKit reloads the page itself
    /// (`WebPageProxy::tryReloadAfterProcessTermination`), so every recovery is WebKit's, not the app's.
    public var delegate = true
    /// The blank watchdog's period, when it watches: the app whose field reports the project began from read the title every 3 s.
    public var watchdogNanoseconds = 3_000_000_000
    public var unresponsive = Unresponsive.kill
    /// Whether a hidden view's worker is suspended (stopped) once it has nothing to do, as WebKit's
    /// ProcessThrottler suspends a WebContent process whose pages hold no activity, and resumed when shown: on
    /// by default, as WebKit does it for any app.
    public var suspends = true
    /// How long a hidden view's worker stays in its band before it is suspended: 0, at once.
    public var suspendAfterNanoseconds = 0
    /// The most resident memory a worker may hold, read from /proc while it lives; past it, it is killed for
    /// exceeding it (WebKit's `ExceededMemoryLimit`). 0: no limit.
    public var memoryLimitBytes = 0
    /// The share of the limit, in percent, at which a worker is warned once first (`memory-warning`), as WebKit
    /// tells a page at its footprint thresholds before the limit.
    public var memoryWarningPercent = 80
    /// The most CPU, in percent of one CPU, a worker whose view is hidden may use on average over a window; past
    /// it, it is killed for exceeding it (WebKit's `ExceededCPULimit`, for a process with no visible page). 0: no
    /// limit, as WebKit sets none unless the app does.
    public var cpuLimitPercent = 0
    /// The window the CPU limit averages over, restarted whenever the view is shown or hidden: WebKit's
    /// `cpuMonitoringInterval` (WebProcessCocoa.mm), 8 minutes.
    public var cpuWindowNanoseconds = 480_000_000_000
    /// The reasons, as the app is told them, that the termination callback recovers from (with a delegate).
    public var recoverOn = Set(ToldTerminationReason.allCases)
    /// What a detected death or blank does; nil: nothing (a detection is still logged).
    public var recover: Recovery?
    /// Recover a hidden view only when it is next shown (WebKit's behaviour without a delegate).
    public var recoverWhenVisible = false
    /// With a cooldown, recoveries are limited as WebKit limits its own reloads (`RecentCrashes`): one after a
    /// crash, none after the next, and the count forgotten once a page has finished loading in the view and the
    /// cooldown has passed with no crash (WebKit: 30 s). 0: no such limit.
    public var recoveryCooldownNanoseconds = 0
    /// Recoveries of one load before it is given up, whatever the deaths were; `.max`: never.
    public var maxRecoveries = 3
    /// The crash-loop limit: a load whose workers crash (anything but a kill from outside that its killer claimed,
    /// or an injected one: a signal, an exit, a failed launch, a protocol violation, a hang, a kill nobody claimed)
    /// more than `crashRestarts` times within `crashWindowNanoseconds` is not restarted again; its view shows an
    /// internal error page. Restarts after the first in the window wait `crashBackoffNanoseconds` ×
    /// `crashBackoffGrowth`^(n-2), so the n-th restart waits longer than the one before.
    public var crashRestarts = 3
    public var crashWindowNanoseconds = 5_000_000_000
    public var crashBackoffNanoseconds = 100_000_000
    public var crashBackoffGrowth = 2.0
    /// Workers launched ahead, waiting for the next view of any site, as Chromium keeps a spare renderer and WebKit
    /// prewarms a process: one is launched at a time, after a render, until this many wait.
    public var spareWorkers = 0
    /// A closed view's healthy worker unloads its page and goes to the process cache, for a later view of the same
    /// site, as WebKit's WebProcessCache keeps it: that view skips a launch, and the system a teardown.
    public var reuseWorkers = false
    /// The most workers the process cache holds, one per site: WebKit's is 4 per GB of memory, at most 10 on iOS,
    /// and none under 2 GB (`WebProcessCache::updateCapacity`), here from this machine's memory.
    public var cacheCapacity = ProcessCache.webKitCapacity
    /// How long a worker stays cached before it exits idle: WebKit's `cachedProcessLifetime`, 30 minutes on Cocoa.
    public var cacheLifetimeNanoseconds = 1_800_000_000_000
    /// The most workers alive at once, spares included; 0: no limit. WebKit's is 400 (`s_maxProcessCount`,
    /// WebProcessProxy.cpp): a launch at the limit first clears the process cache, then terminates the least
    /// recently used process with ExceededProcessCountLimit (`Supervisor+ProcessCount`).
    public var maxWorkers = 400

    public init(name: String) { self.name = name }
}
