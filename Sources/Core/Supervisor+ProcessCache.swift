import Events
import Glibc
import Process
import Vocabulary

/// The process cache of a policy that reuses workers, as WebKit's WebProcessCache works (WebProcessCache.cpp): a
/// closed view's worker unloads its page and is pinged; it is cached only if it answers, if the cache has capacity
/// and if no memory pressure is reported, one per site (a newer one of its site takes its place; a full cache drops
/// its oldest). A view of the same site takes it after it answers a fresh ping, never a view of another site. It is
/// shut down once its lifetime passes (an idle exit), and under memory pressure the cache is cleared.
extension Supervisor {
    var cacheCapacity: Int { policy.reuseWorkers ? policy.cacheCapacity : 0 }

    /// A closed view's worker: checked for the cache if the policy keeps one and more views are coming, else shut
    /// down.
    func retire(_ worker: Worker) {
        guard policy.reuseWorkers, !stopping, moreViewsComing(), worker.rendered, worker.channelOpen,
            worker.verdict == nil, !worker.reaped
        else { return shutDown(worker) }
        guard let site = worker.site, cacheCapacity > 0, !underMemoryPressure else {
            let reason: NotCachedReason =
                cacheCapacity == 0 ? .noCapacity : worker.site == nil ? .noSite : .memoryPressure
            log.emit(.notCached(site: worker.site?.description, reason: reason), pid: worker.pid)
            return shutDown(worker)
        }
        clock.cancel(worker.timer)
        worker.rendered = false
        send(.unload, to: worker)
        step(worker, .ping)
        cache.add(worker, site: site, .checking(ping: worker.conversation.lastPing))
        log.emit(.cacheCheck(site: site.description), pid: worker.pid)
        setBand(band(for: worker), of: worker)
    }

    /// Gives `view` the cached worker of its site, once that answers a fresh ping; false, after logging why, if none
    /// is cached. Until the answer, the view has no worker.
    func takeCached(for view: View) -> Bool {
        guard policy.reuseWorkers, let site = view.load.client.site(of: view) else { return false }
        while let entry = cache.available(for: site) {
            let worker = entry.worker
            // One that died unnoticed is evicted by its death, and the next is looked for.
            reapIfExited(worker)
            guard !worker.reaped else { continue }
            // One still being checked answers the ping sent after its page was unloaded: that is fresh enough.
            let ping: UInt64
            if let sent = entry.checkPing {
                ping = sent
            } else {
                if case .cached(_, let expiry) = entry.stage { clock.cancel(expiry) }
                step(worker, .ping)
                ping = worker.conversation.lastPing
            }
            cache.set(worker, .handingOut(to: view, ping: ping))
            setBand(band(for: worker), of: worker)
            return true
        }
        log.emit(.cacheMiss(site: site.description, evicted: cache.missReason(for: site)), view: view.id)
        return false
    }

    /// The cached worker on its way to `view`, waiting to answer its ping: the view's worker-to-be.
    package func handingOut(to view: View) -> Worker? {
        cache.entries.first { cache.destination(of: $0.worker) === view }?.worker
    }

    /// The view `worker` serves, or the one it is on its way to from the cache.
    package func viewOrDestination(of worker: Worker) -> View? { worker.view ?? cache.destination(of: worker) }

    /// A worker answered ping `seq`: a cache entry waiting on it moves on.
    func answeredPing(_ worker: Worker, _ seq: UInt64) {
        guard let entry = cache.entry(of: worker) else { return }
        switch entry.stage {
        case .checking(let ping) where seq >= ping: admit(worker, site: entry.site)
        case .handingOut(let view, let ping) where seq >= ping:
            guard !view.closed, view.worker == nil, !stopping else { return admit(worker, site: entry.site) }
            cache.remove(worker)
            log.emit(.cacheTaken(site: entry.site.description, size: cache.size, capacity: cacheCapacity),
                     view: view.id, pid: worker.pid)
            adopt(worker, into: view)
        default: break
        }
    }

    /// Caches a worker that answered, as WebKit's `addProcess` does, checking again what may have changed.
    private func admit(_ worker: Worker, site: Site) {
        guard !stopping, moreViewsComing() else {
            cache.remove(worker)
            return shutDown(worker)
        }
        guard cacheCapacity > 0, !underMemoryPressure else {
            cache.remove(worker)
            log.emit(.notCached(site: site.description, reason: cacheCapacity == 0 ? .noCapacity : .memoryPressure),
                     pid: worker.pid)
            return shutDown(worker)
        }
        if let previous = cache.cached(for: site) { evict(previous, .sameSite) }
        while cache.size >= cacheCapacity, let oldest = cache.oldest { evict(oldest.worker, .capacity) }
        let expiry = clock.schedule(afterNanoseconds: policy.cacheLifetimeNanoseconds) { [weak self, weak worker] in
            guard let self, let worker else { return }
            evict(worker, .expired)
        }
        cache.add(worker, site: site, .cached(since: clock.now, expiry: expiry))
        setBand(band(for: worker), of: worker)
        log.emit(.cacheAdd(site: site.description, size: cache.size, capacity: cacheCapacity), pid: worker.pid)
    }

    /// Takes `worker` out of the cache for `reason` and ends it: shut down, or killed if it stopped answering. A view
    /// it was on its way to is told the miss and gets another worker.
    func evict(_ worker: Worker, _ reason: CacheEviction) {
        guard let entry = cache.remove(worker, because: reason) else { return }
        let site = entry.site.description
        switch entry.stage {
        case .checking:
            // Never cached: WebKit's "Not caching process because it is not responsive", or a launch needed room.
            let notCached: NotCachedReason? =
                switch reason {
                case .notResponsive: .notResponsive
                case .processCountLimit: .processCountLimit
                case .memoryPressure: .memoryPressure
                case .sameSite, .capacity, .expired, .processExited: nil
                }
            if let notCached { log.emit(.notCached(site: site, reason: notCached), pid: worker.pid) }
        case .cached(_, let expiry):
            clock.cancel(expiry)
            log.emit(.cacheEvict(site: site, reason: reason), pid: worker.pid)
        case .handingOut(let view, _):
            log.emit(.cacheEvict(site: site, reason: reason), pid: worker.pid)
            if !view.closed, view.worker == nil, !stopping {
                log.emit(.cacheMiss(site: site, evicted: reason), view: view.id)
                if let spare = takeSpare(for: view) { adopt(spare, into: view) } else { startWorker(for: view) }
            }
        }
        switch reason {
        case .processExited: break
        case .notResponsive:
            kill(worker, because: "no answer to the process cache's ping", verdict: .unresponsive)
        case .processCountLimit:
            worker.endedFor = .idleExit
            kill(worker, because: "over the process-count limit", verdict: .killed(signal: SIGKILL))
        case .sameSite, .capacity, .expired, .memoryPressure: shutDown(worker)
        }
    }

    /// A worker in the cache owed its ping's answer for the whole hang timeout: true, once it is evicted, if it was in
    /// the cache; the policy's choice on a hang is for workers that serve views.
    func cachedWorkerUnresponsive(_ worker: Worker) -> Bool {
        guard cache.entry(of: worker) != nil else { return false }
        evict(worker, .notResponsive)
        return true
    }

    /// The system reports memory pressure, or its end: under it nothing is cached, and the cache is cleared.
    package func memoryPressure(critical: Bool) {
        guard critical != underMemoryPressure else { return }
        underMemoryPressure = critical
        log.emit(.memoryPressure(critical: critical))
        guard critical else { return }
        for entry in cache.entries {
            if case .cached = entry.stage { evict(entry.worker, .memoryPressure) }
        }
    }

    /// Shuts down every cached worker: no more views are coming.
    func clearCache() {
        for entry in cache.entries {
            cache.remove(entry.worker)
            if case .cached(_, let expiry) = entry.stage { clock.cancel(expiry) }
            shutDown(entry.worker)
        }
    }
}
