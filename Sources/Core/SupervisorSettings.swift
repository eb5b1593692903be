import Process
import Vocabulary

/// What the supervisor's own rules need to know: the policy, its watchdogs and limits, and the priority bands.
/// Each default is written here once.
public struct SupervisorSettings: Sendable {
    public var policy: Policy = .rebuild
    /// The blank watchdog's period for this run, whatever the policy says (`--watchdog`); nil: the policy's.
    public var watchdogNanoseconds: Int?
    /// How often a busy worker is pinged, and how long a new one has to say hello.
    public var pingIntervalNanoseconds = 1_000_000_000
    /// How long a worker may owe an answer before it is killed as unresponsive: WebKit's foreground
    /// responsiveness timer, 3 s.
    public var hangTimeoutNanoseconds = 3_000_000_000
    /// How long a worker told to prepare to suspend has to answer before it is stopped anyway: WebKit's
    /// `processSuspensionTimeout` (ProcessThrottler.cpp).
    public var prepareToSuspendTimeoutNanoseconds = 20_000_000_000
    /// How often a worker's resident memory is read under a policy with a memory limit.
    public var memorySampleNanoseconds = 20_000_000
    /// The most a worker may leave unread in its channel (a few of the largest pages) before it is killed as
    /// unresponsive.
    public var maxUnreadBytes = 8 << 20
    /// Failed launches in a row, with no hello between them, after which the run stops: the worker binary is
    /// broken, and no view could ever render. Before the run's first hello, two are enough.
    public var launchFailureLimit = 5
    /// How long a worker told to shut down may take before it is killed.
    public var shutdownGraceNanoseconds = 500_000_000
    public var bands = PriorityBands()

    public init() {}

    /// The bounds every worker's conversation is held to.
    var conversationLimits: Conversation.Limits {
        Conversation.Limits(
            maxUnreadBytes: maxUnreadBytes, hangTimeoutMs: hangTimeoutNanoseconds / 1_000_000,
            helloTimeoutMs: pingIntervalNanoseconds / 1_000_000)
    }
}
