import Glibc
import System
import Vocabulary

/// The workers of closed views kept for later views of the same site, as WebKit's WebProcessCache keeps them
/// (WebProcessCache.cpp): one per site, up to a capacity, each for a lifetime. A worker enters only once it has
/// answered a ping, and leaves for a view only once it has answered a fresh one; the supervisor's steps move it
/// (`Supervisor+ProcessCache`), and this value only keeps account.
struct ProcessCache {
    /// Where a worker is on its way through the cache.
    enum Stage {
        /// Pinged before caching: cached when it answers ping `ping`.
        case checking(ping: UInt64)
        /// Cached, since then; it expires at `expiry`.
        case cached(since: Int, expiry: TimerID)
        /// Taken for `view`, which gets it when it answers ping `ping`.
        case handingOut(to: View, ping: UInt64)
    }

    struct Entry {
        let worker: Worker
        let site: Site
        var stage: Stage

        /// The ping it is being checked with before caching, if it is.
        var checkPing: UInt64? { if case .checking(let ping) = stage { ping } else { nil } }
    }

    /// Oldest first.
    private(set) var entries: [Entry] = []
    /// Why each site's last cached worker left other than to a view: what the next view of the site that finds none
    /// is told.
    private var evicted: [Site: CacheEviction] = [:]

    /// Workers cached and answering, not those being checked or handed out: what the capacity bounds.
    var size: Int { entries.reduce(0) { if case .cached = $1.stage { $0 + 1 } else { $0 } } }

    func entry(of worker: Worker) -> Entry? { entries.first { $0.worker === worker } }

    /// The cached worker of `site`, if one is cached and not already on its way out.
    func cached(for site: Site) -> Worker? {
        entries.first { if case .cached = $0.stage { $0.site == site } else { false } }?.worker
    }

    /// The worker a view of `site` may take: one cached, or one still being checked (the newest: it answers the
    /// same ping either way).
    func available(for site: Site) -> Entry? {
        entries.last {
            switch $0.stage {
            case .cached, .checking: $0.site == site
            case .handingOut: false
            }
        }
    }

    /// The oldest cached worker, the first to go when the cache is full.
    var oldest: Entry? { entries.first { if case .cached = $0.stage { true } else { false } } }

    /// The view `worker` is on its way to, if it is being handed out.
    func destination(of worker: Worker) -> View? {
        if case .handingOut(let view, _) = entry(of: worker)?.stage { view } else { nil }
    }

    mutating func add(_ worker: Worker, site: Site, _ stage: Stage) {
        entries.removeAll { $0.worker === worker }
        entries.append(Entry(worker: worker, site: site, stage: stage))
        evicted[site] = nil
    }

    mutating func set(_ worker: Worker, _ stage: Stage) {
        guard let index = entries.firstIndex(where: { $0.worker === worker }) else { return }
        entries[index].stage = stage
    }

    /// Takes `worker` out; `reason` says why, unless a view took it.
    @discardableResult
    mutating func remove(_ worker: Worker, because reason: CacheEviction? = nil) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.worker === worker }) else { return nil }
        let entry = entries.remove(at: index)
        if let reason { evicted[entry.site] = reason }
        return entry
    }

    /// Why no worker of `site` waits: nil if none was cached since the last was taken.
    func missReason(for site: Site) -> CacheEviction? { evicted[site] }

    /// WebKit's capacity (`WebProcessCache::updateCapacity`): none under 2 GB of memory, else 4 per GB, at most 10
    /// on iOS; on this machine's memory.
    static let webKitCapacity: Int = {
        let bytes = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return bytes < 2 << 30 ? 0 : min(bytes / (256 << 20), 10)
    }()
}
