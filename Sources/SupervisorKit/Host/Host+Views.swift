/// Views: opened with a worker; attached to the window, which takes the foreground assertion and only then wires
/// the termination observer; shown; closed.
extension Host {
    @discardableResult
    func openView(for load: Load) -> View {
        let view = View(id: nextViewID, load: load, visible: load.shownAt != nil, at: clock.now)
        nextViewID += 1
        views[view.id] = view
        load.view = view
        log.emit(.viewOpen(load: load.index, visible: view.visible), view: view.id)
        if let worker = takeSpare() {
            log.emit(.spareTaken, view: view.id, pid: worker.pid)
            adopt(worker, into: view)
        } else {
            startWorker(for: view)
        }
        let range = configuration.attachDelayNanoseconds
        let attempt = load.recoveries
        let delay = range.lowerBound
            + Int(schedule.uniform(.attachDelay, load: load.index, attempt: attempt) * Double(range.upperBound - range.lowerBound))
        view.attachAt = view.createdAt + delay
        view.timers.append(clock.schedule(at: view.attachAt) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            attach(view)
        })
        if policy.onBlank != nil { watchTitle(of: view) }
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

    /// A hidden load comes on screen: raised to foreground, recovered if WebKit deferred that, visible if alive.
    func show(_ load: Load) {
        guard let view = load.view, !view.closed, !stopping else { return }
        shown(load)
        view.visible = true
        log.emit(.show(load: load.index), view: view.id, pid: view.worker?.pid)
        if let worker = view.worker { reapIfExited(worker) }
        // A death just delivered took the worker from the view; an undelivered one left the dead proxy, which the
        // assertion then finds gone.
        if let worker = view.worker { setBand(band(for: worker), of: worker, assertion: true) }
        if let recovery = view.deferredRecovery {
            view.deferredRecovery = nil
            recover(view, recovery, because: "shown")
        }
        if let worker = view.worker, worker.rendered, !worker.reaped, view.attached { becameVisible(view) }
    }

    func closeView(_ view: View) {
        view.close()
        views[view.id] = nil
        view.timers.forEach(clock.cancel)
        if let worker = view.worker {
            view.worker = nil
            worker.view = nil
            if !park(worker) { shutDown(worker) }
        }
        log.emit(.viewClose, view: view.id)
    }
}
