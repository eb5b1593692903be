import Events
import Process
import Vocabulary

/// Views: opened with a worker; attached to the window, which takes the foreground assertion and only then wires
/// the termination observer; shown or hidden; closed.
extension Supervisor {
    /// Opens a view for `load` with a spare worker or a new one; it enters the window after `attachDelay`. With
    /// `adopting`, it takes that worker taken back, which shows the load's page already, and enters the window at
    /// once.
    @discardableResult
    package func open(_ load: Load, adopting reclaimed: (worker: Worker, page: WorkerClaim)? = nil) -> View {
        let view = View(id: nextViewID, load: load, visible: load.shownAt != nil, at: clock.now)
        nextViewID += 1
        views[view.id] = view
        load.view = view
        log.emit(.viewOpen(load: load.index, visible: view.visible), view: view.id)
        if let reclaimed {
            adopt(reclaimed.worker, into: view, showing: reclaimed.page)
        } else if takeCached(for: view) {
            // Its worker comes once it answers the cache's ping.
        } else if let worker = takeSpare(for: view) {
            adopt(worker, into: view)
        } else {
            startWorker(for: view)
        }
        if policy.detect.byWatchdog { watchTitle(of: view) }
        guard reclaimed == nil else {
            // On screen now, not after whatever else this turn of the loop holds.
            view.attachAt = view.createdAt
            attach(view)
            return view
        }
        view.attachAt = view.createdAt + attachDelay(view)
        view.timers.append(clock.schedule(at: view.attachAt) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            attach(view)
        })
        return view
    }

    /// The view enters the window: the foreground assertion is taken and only then is the termination observer
    /// wired. A death that happened before, even one not processed yet, stays unobserved.
    func attach(_ view: View) {
        guard !stopping else { return }
        if let worker = view.worker { reapIfExited(worker) }
        // That death may have ended the load (a crash loop) and closed the view, which then stays closed.
        guard view.enterWindow() else { return }
        log.emit(.attach, view: view.id, pid: view.worker?.pid)
        if let worker = view.worker { setBand(band(for: worker), of: worker, assertion: true) }
        if view.visible, view.worker?.rendered == true, view.worker?.reaped == false { becameVisible(view) }
    }

    /// The user starts looking at `load`; false, and nothing changes, if the run is stopping.
    @discardableResult
    package func shown(_ load: Load) -> Bool {
        guard !stopping else { return false }
        load.sight = .shown(at: clock.now)
        return true
    }

    /// A hidden load's view comes on screen: raised to foreground, recovered if WebKit deferred that, visible if
    /// alive.
    package func show(_ view: View) {
        guard !view.closed, !stopping else { return }
        view.visible = true
        view.lastShownAt = clock.now
        log.emit(.show(load: view.load.index), view: view.id, pid: view.worker?.pid)
        if let worker = view.worker { reapIfExited(worker) }
        clock.cancel(view.suspension)
        if let worker = view.worker, !worker.reaped { resume(worker) }
        // A death just delivered took the worker from the view; an undelivered one left the dead proxy, which the
        // assertion then finds gone.
        if let worker = view.worker {
            setBand(band(for: worker), of: worker, assertion: true)
            watchCPU(of: worker)
        }
        if let recovery = view.deferredRecovery {
            view.deferredRecovery = nil
            recover(view, recovery, because: .shown)
        }
        if let worker = view.worker, worker.rendered, !worker.reaped, view.attached { becameVisible(view) }
    }

    /// The view goes off screen: its worker moves to the policy's hidden band.
    package func hide(_ view: View) {
        view.visible = false
        log.emit(.hide(load: view.load.index), view: view.id, pid: view.worker?.pid)
        if let worker = view.worker {
            setBand(band(for: worker), of: worker)
            watchCPU(of: worker)
        }
        suspendLater(view)
    }

    /// The view is on screen with content; the load's client is told, and whether it is the first time.
    func becameVisible(_ view: View) {
        let load = view.load
        guard let shownAt = load.shownAt, !stopping, !view.title.isEmpty else { return }
        let now = clock.now
        let first = load.visibleAt == nil
        if first {
            load.sight = .visible(shownAt: shownAt, at: now)
            clock.cancel(view.titleCheck)
        }
        log.emit(
            .visible(load: load.index, timeToVisibleMs: milliseconds(now - shownAt), first: first, editor: load.client.isEditor),
            view: view.id, pid: view.worker?.pid)
        load.client.visible(view, first: first, at: now)
    }

    /// Closes `view` for good; its healthy worker goes to the process cache if the policy keeps one, or is shut down.
    package func close(_ view: View) {
        view.close()
        views[view.id] = nil
        view.timers.forEach(clock.cancel)
        if let worker = view.worker {
            resume(worker)
            view.worker = nil
            worker.view = nil
            watchCPU(of: worker)
            retire(worker)
        }
        log.emit(.viewClose, view: view.id)
    }
}
