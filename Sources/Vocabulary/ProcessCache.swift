/// Why a closed view's worker was not kept in the process cache, in the order WebKit checks
/// (`WebProcessCache::canCacheProcess` and `addProcessIfPossible`, WebProcessCache.cpp).
public enum NotCachedReason: String, Sendable, CaseIterable {
    /// The policy's capacity is 0 (WebKit's, on a device with under 2 GB of memory).
    case noCapacity = "no-capacity"
    /// It never committed a page, so it belongs to no site.
    case noSite = "no-site"
    /// Memory pressure was reported.
    case memoryPressure = "memory-pressure"
    /// It did not answer the ping it was sent before caching within the hang timeout.
    case notResponsive = "not-responsive"
    /// A launch at the process-count limit ended it while it was being checked.
    case processCountLimit = "process-count-limit"
}

/// Why a worker left the process cache other than to serve a view of its site.
public enum CacheEviction: String, Sendable, CaseIterable {
    /// A newer worker of its site took its place: the cache keeps one per site.
    case sameSite = "same-site"
    /// The cache was full; the oldest goes (WebKit evicts one at random).
    case capacity
    /// Its lifetime in the cache passed: it exits idle.
    case expired
    /// Memory pressure was reported: the cache is cleared.
    case memoryPressure = "memory-pressure"
    /// A launch at the process-count limit took it first.
    case processCountLimit = "process-count-limit"
    /// It did not answer the ping it was sent before a view took it.
    case notResponsive = "not-responsive"
    /// It died in the cache.
    case processExited = "process-exited"
}
