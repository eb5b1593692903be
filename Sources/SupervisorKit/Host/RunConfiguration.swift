/// Everything one `supervisor run` needs to know.
public struct RunConfiguration {
    public var policy: Policy = .rebuild
    /// Loads in all; each starts in a fresh view with a fresh worker, as the field test app did.
    public var loads = 20
    /// Views loading at once.
    public var views = 1
    public var seed: UInt64 = 1
    public var workerPath: String
    /// How long a rendered view stays on screen before it is closed; a worker killed meanwhile must come back.
    public var dwellNanoseconds = 0
    /// How often a busy worker is pinged; one that misses a whole interval is killed as unresponsive.
    public var pingIntervalNanoseconds = 1_000_000_000
    /// How long a worker told to shut down may take before it is killed.
    public var shutdownGraceNanoseconds = 500_000_000
    public var bands = PriorityBands()

    public init(workerPath: String) {
        self.workerPath = workerPath
    }
}
