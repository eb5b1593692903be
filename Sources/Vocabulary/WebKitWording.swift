/// WebKit's and RunningBoard's words as a device's log prints them (WebKit's `WebProcessProxy`, `ProcessThrottler`,
/// `ProcessAssertion`, `WebPageProxy` and `WebProcessCache` logging; runningboardd's termination reports): the iOS
/// log writer builds its lines from them and the analyzer looks for them, so the two cannot drift apart.
public enum WebKitWording {
    // The classes whose lines are read.
    public static let webProcessProxy: StaticString = "WebProcessProxy"
    public static let processCache: StaticString = "WebProcessCache"
    public static let processThrottler: StaticString = "ProcessThrottler"
    public static let processAssertion: StaticString = "ProcessAssertion"
    public static let webPageProxy: StaticString = "WebPageProxy"
    public static let webProcessPool: StaticString = "WebProcessPool"

    // A process launched, cached, connected, disconnected.
    public static let didFinishLaunching: StaticString = "didFinishLaunching"
    /// What `didFinishLaunching` says of a process that never connected.
    public static let invalidConnection: StaticString = "Invalid connection"
    public static let failedToLaunch: StaticString = "failed to launch"
    /// The process cache's lines (WebProcessCache.cpp, category ProcessSwapping, after `%p - [PID=%d]
    /// WebProcessCache::`): a closed page's process pinged, refused, cached, taken or evicted.
    public static let checkingBeforeCaching: StaticString =
        "addProcessIfPossible: Checking if process is responsive before caching it"
    public static let notCachedNotResponsive: StaticString =
        "addProcessIfPossible(): Not caching process because it is not responsive"
    public static let notCachedNoCapacity: StaticString = "canCacheProcess: Not caching process because the cache has no capacity"
    public static let notCachedNoDomain: StaticString =
        "canCacheProcess: Not caching process because it does not have an associated registrable domain"
    public static let notCachedMemoryPressure: StaticString =
        "canCacheProcess: Not caching process because we are under memory pressure"
    /// Followed by `(size=%u, capacity=%u)`.
    public static let addedToCache: StaticString = "addProcess: Added process to WebProcess cache"
    /// Followed by `(size=%u, capacity=%u, processWasTerminated=%d)`.
    public static let takenFromCache: StaticString = "takeProcess: Taking process from WebProcess cache"
    public static let evictingFromCache: StaticString = "Evicting process from WebProcess cache"
    public static let evictedSameSite: StaticString =
        "addProcess: Evicting process from WebProcess cache because a new process was added for the same domain"
    public static let evictedCapacity: StaticString =
        "addProcess: Evicting process from WebProcess cache because capacity was reached"
    public static let evictedExpired: StaticString = "removeProcess: Evicting process from WebProcess cache because it expired"
    public static let didConnectToProcess: StaticString = "didConnectToProcess"
    /// Suspension (ProcessThrottler.cpp): PrepareToSuspend sent; the process answered; or its 20 s ran out.
    public static let sendPrepareToSuspendIPC: StaticString = "sendPrepareToSuspendIPC"
    public static let processReadyToSuspend: StaticString = "processReadyToSuspend"
    public static let prepareToSuspendTimeoutTimerFired: StaticString = "prepareToSuspendTimeoutTimerFired"
    public static let didDisconnectFromProcess: StaticString = "didDisconnectFromProcess"

    // Assertions: the foreground or background priority WebKit asks RunningBoard for.
    public static let successfullyTook: StaticString = "Successfully took"
    public static let failedToAcquire: StaticString = "Failed to acquire"

    // Ends.
    public static let didClose: StaticString = "didClose"
    public static let processDidTerminateOrFailedToLaunch: StaticString = "processDidTerminateOrFailedToLaunch"
    public static let didBecomeUnresponsive: StaticString = "didBecomeUnresponsive"
    public static let didBecomeResponsive: StaticString = "didBecomeResponsive"
    public static let requestTermination: StaticString = "requestTermination"
    /// A spare launched ahead of the next page, or not for the process-count limit (`WebProcessPool::prewarmProcess`,
    /// WebProcessPool.cpp).
    public static let prewarmProcess: StaticString = "prewarmProcess"
    public static let prewarming: StaticString = "Prewarming a WebProcess for performance"
    public static let notPrewarming: StaticString = "Not prewarming a WebProcess due to reaching process count limit"
    /// The limits (WebProcessProxy.cpp): a memory footprint threshold passed (a warning, not an end), and the
    /// memory and background CPU limits, past which it is terminated.
    public static let didExceedMemoryFootprintThreshold: StaticString = "didExceedMemoryFootprintThreshold"
    public static let didExceedActiveMemoryLimit: StaticString = "didExceedActiveMemoryLimit"
    public static let didExceedInactiveMemoryLimit: StaticString = "didExceedInactiveMemoryLimit"
    public static let didExceedCPULimit: StaticString = "didExceedCPULimit"
    public static let shutDown: StaticString = "shutDown"
    /// `processDidTerminate` and `dispatchProcessDidTerminate`, the page's side of a death.
    public static let processDidTerminate: StaticString = "processDidTerminate"
    public static let dispatchProcessDidTerminate: StaticString = "dispatchProcessDidTerminate"
    /// WebKit's own reload when the app has no termination delegate.
    public static let tryReloadAfterProcessTermination: StaticString = "tryReloadAfterProcessTermination"
    /// runningboardd's lines on a process's priority: `[<identity>:<pid>] Set jetsam priority to 40 [0] flag[1]`, and
    /// `Calculated state for <identity>: running-active (role: Background) (endowments: …)`, whose identity has no
    /// pid (format strings of RunningBoard; real lines in IOSLogFormats.md).
    public static let setJetsamPriority: StaticString = "Set jetsam priority to "
    public static let calculatedStateFor: StaticString = "Calculated state for "
    public static let role: StaticString = "(role: "
    /// runningboardd's line for a process launchd saw end: `(2, signal, signal)` follows.
    public static let reportedByLaunchd: StaticString = "termination reported by launchd ("

    // Loading.
    public static let didCommitLoadForFrame: StaticString = "didCommitLoadForFrame"
    public static let didFinishDocumentLoad: StaticString = "didFinishDocumentLoad"
    public static let didFinishLoadForFrame: StaticString = "didFinishLoadForFrame"

    // How lines name a process and a page.
    public static let pidEquals: StaticString = "PID="
    public static let pageProxyID: StaticString = "pageProxyID="

    /// `ProcessTerminationReason` names as `reason=` prints them, for the ones our writer uses.
    public static let crash: StaticString = "Crash"
    public static let requestedByClient: StaticString = "RequestedByClient"
}
