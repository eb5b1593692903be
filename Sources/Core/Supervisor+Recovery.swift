import Glibc
import Events
import Process
import System
import Vocabulary

/// Deaths and recovery: each child reaped once, its death classified and delivered (or, before attach, not),
/// and the view recovered as the policy says.
extension Supervisor {
    /// Handles the death of `worker` if it has exited: from its pidfd event, or before the supervisor acts on its pid
    /// while that event is still queued, so that what the supervisor does next (raise priority, wire an observer)
    /// happens after the death, as it did in real time.
    func reapIfExited(_ worker: Worker) {
        guard !worker.reaped, let exit = try? worker.handle.reap(wait: false) else { return }
        // What it sent before it died is heard first, as over one socket whose end comes after its data: a page
        // it finished counts as rendered, and a sandboxed worker's report names the call it was caught making.
        step(worker, .died(exit))
    }

    /// A worker is dead and its channel closed: its death classified, logged and delivered as the policy says.
    func died(_ worker: Worker, _ exit: ProcessExit) {
        clock.cancel(worker.timer)
        clock.cancel(worker.memoryTimer)
        clock.cancel(worker.cpuWindowEnd)
        forget(worker)
        forgetRank(of: worker)
        settleReclaim(of: worker)
        // Its process is gone: a view waiting for one may have it now.
        if !waitingForProcess.isEmpty { clock.soon { [weak self] in self?.retryWaitingView() } }
        let conversation = worker.conversation
        let termination = TerminationStatus.classify(
            exit, saidHello: conversation.saidHello || conversation.toldToExit,
            verdict: conversation.verdict, sandboxed: worker.sandbox == .installed, forbidden: conversation.forbiddenCall)
        let view = worker.view.flatMap { $0.closed ? nil : $0 }
        // Every death takes its pid's claim, if any: one whose kill never landed must not vouch for a later worker.
        let claimed = claimedKill(worker.pid)
        let cause = DeathCause.of(exit, sent: worker.handle.sent, toldToExit: conversation.toldToExit, claimed: claimed)
        // The raw exit goes beside the classification: a worker killed before hello is a failed launch that
        // still died of SIGKILL.
        let reason = TerminationReason.of(
            termination, cause: cause, band: worker.band, toldToExit: conversation.toldToExit, meant: worker.endedFor)
        let death = SupervisorEvent.Death(
            status: termination.kind, terminationReason: reason, exit: exit,
            reason: termination.reason, rendered: worker.rendered, attached: view?.attached ?? false,
            spare: spares.contains { $0 === worker } || cache.entry(of: worker) != nil, band: worker.band,
            lifetimeMs: milliseconds(clock.now - worker.handle.spawnedAt),
            cause: cause,
            // Told to exit: not a race, a crash or a failed launch, however it ended.
            shutdown: conversation.toldToExit)
        log.emit(.death(death), view: view?.id, pid: worker.pid)
        // A death dealt from outside before hello is the fault's doing, not the worker binary's.
        if case .launchFailed(let reason) = termination, worker.handle.sent?.by != .injection { launchFailed(reason) }
        workerDied(worker)
        evict(worker, .processExited)
        // A dead spare is replaced after the next render, not now: under memory pressure an instant replacement
        // would only be the killer's next victim.
        if spares.contains(where: { $0 === worker }) {
            spares.removeAll { $0 === worker }
            if spares.isEmpty {
                noSpareReason = worker.endedFor == .exceededProcessCountLimit ? .processLimit : .processExited
            }
        }
        guard let view, view.worker === worker, !stopping else { return }
        if policy.observe == .attach && !view.attached {
            // The observer is not wired yet: nobody is told, and the view keeps its dead proxy. WebKit still resets
            // the page: no title, no URL.
            log.emit(.unobserved, view: view.id, pid: worker.pid)
            return view.processExited()
        }
        view.worker = nil
        // A kill nobody claimed may be the worker's own: it counts toward a crash loop, as a crash does. The callback
        // still reads the title and URL; WebKit commits their reset once it returns.
        terminated(view, termination, reason: reason, pid: worker.pid, crash: termination.isCrash || cause == .unknown)
        view.processExited()
    }

    /// Counts failed launches in a row; a worker binary that never says hello stops the run instead of making
    /// every view fail in turn. Before any worker of the run has said hello, two failures are enough.
    func launchFailed(_ reason: String) {
        guard !stopping else { return }
        launchFailuresInARow += 1
        guard launchFailuresInARow >= (everSaidHello ? settings.launchFailureLimit : 2) else { return }
        abort(because: "worker '\(launcher.executable)' failed to launch \(launchFailuresInARow) times in a row: \(reason)")
    }

    /// The termination callback. A `crash` is recorded toward the load's crash loop.
    func terminated(_ view: View, _ status: TerminationStatus, reason: TerminationReason, pid: Int32?, crash: Bool) {
        log.emit(.termination(status: status.kind, reason: reason), view: view.id, pid: pid)
        if crash { view.load.history.crashes.append(clock.now) }
        switch policy.onTermination(visible: view.visible, reason: reason) {
        case .nothing: break
        case .whenShown(let recovery): view.deferredRecovery = recovery
        case .now(let recovery): recover(view, recovery, because: .termination, crash: crash)
        }
    }

    func recover(_ view: View, _ recovery: Policy.Recovery, because reason: RecoveryReason, crash: Bool = false) {
        guard !stopping, !view.closed else { return }
        let load = view.load
        let now = clock.now
        let delay: Int
        switch policy.decideRecovery(at: now, crash: crash, recent: &view.recentCrashes, history: &load.history) {
        case .suppressed:
            return log.emit(.recoverySuppressed(kind: recovery), view: view.id)
        case .crashLoop(let crashes, let window):
            log.emit(.crashLoop(load: load.index, crashes: crashes, windowMs: window), view: view.id)
            return view.load.client.ended(view, error: "crash-loop: \(crashes) crashes within \(window) ms")
        case .giveUp(let recoveries):
            log.emit(.giveUp(load: load.index, recoveries: recoveries), view: view.id)
            return view.load.client.ended(view, error: nil)
        case .recover(let attempt, let backoff):
            log.emit(.recovery(kind: recovery, reason: reason, attempt: attempt), view: view.id)
            delay = backoff
        }
        let perform = { [unowned self] in
            guard !view.closed else { return }
            switch recovery {
            case .reload: reload(view)
            case .rebuild:
                close(view)
                open(load)
            }
        }
        if delay > 0 {
            view.timers.append(clock.schedule(afterNanoseconds: delay, perform))
        } else {
            clock.soon(perform)
        }
    }

    /// WKWebView's `reload()`. A view whose process died, whether or not the app was told, gets a new one, as
    /// WebKit's `launchProcessForReload` does, which loads the back/forward list's current item: a load that never
    /// committed has none, and nothing loads. WebKit's own reload (no delegate) loads the request still pending
    /// instead, as `tryReloadAfterProcessTermination` does. A process still alive is sent the reload; one dying,
    /// its death not yet handled, gets it on a dead channel.
    package func reload(_ view: View) {
        if view.worker?.reaped ?? true {
            view.worker = nil
            view.nextStart = policy.delegate ? .currentItem : .request
            return startWorker(for: view)
        }
        guard let worker = view.worker, worker.channelOpen else { return deadChannel(view, .reload) }
        worker.rendered = false
        view.title = ""
        view.load.client.reloading(worker, in: view)
        send(.reload, to: worker)
        watchLiveness(of: worker)
    }

    /// Waits for `worker`, just sent a fatal signal from outside the supervisor's rules, to
    /// exit, and handles its death before returning: the fault is exact, the process gone before the next step.
    package func collectDeath(of worker: Worker) {
        if let exit = try? worker.handle.reap(wait: true) { step(worker, .died(exit)) }
    }
}
