import Glibc
import System

/// The process limit: a launch the kernel refused with EAGAIN (the user's `ulimit -u`, RLIMIT_NPROC, or the
/// system's limit on tasks). Whether a run meets it depends on timing (a worker's zombie counts until its reap), so
/// meeting it is said once and the run goes on with the workers it has: a view that needed one waits for one of
/// the run's workers to end, or for the next retry. Only a limit that leaves room for none of the run's workers at
/// all, for `processWaitLimit` retries in a row, stops the run.
extension Supervisor {
    /// What the kernel said, for the warning and the error.
    package static let processLimitRefusal = "the system refused a new process (ulimit -u, or the kernel's limit)"

    /// A launch for `view` (or for a spare, with none) was refused for want of a process: a spare is simply not
    /// made; a view waits its turn.
    func refusedProcess(for view: View?) {
        log.emit(.processRefused, view: view?.id)
        if view == nil { noSpareReason = .processLimit }
        guard let view, !waitsForProcess(view) else { return }
        waitingForProcess.append(view)
        armProcessRetry()
    }

    private func armProcessRetry() {
        guard processRetry == nil, !waitingForProcess.isEmpty else { return }
        processRetry = clock.schedule(afterNanoseconds: Self.processRetryNanoseconds) { [weak self] in
            self?.processRetry = nil
            self?.retryWaitingView(timed: true)
        }
    }

    /// Whether `view` waits for a process to be free.
    func waitsForProcess(_ view: View) -> Bool {
        waitingForProcess.contains { $0 === view }
    }

    /// Starts a worker for the first view still waiting: after a death (a process is free) or a retry. A timed
    /// retry that finds none of the run's workers alive, and is refused again, counts toward stopping the run.
    func retryWaitingView(timed: Bool = false) {
        let noneAlive = workers.isEmpty
        while !stopping, !waitingForProcess.isEmpty {
            let view = waitingForProcess.removeFirst()
            guard !view.closed, view.worker == nil else { continue }
            startWorker(for: view)
            guard waitsForProcess(view) else {
                refusalsWithNoneAlive = 0
                break
            }
            if timed && noneAlive {
                refusalsWithNoneAlive += 1
                if refusalsWithNoneAlive >= Self.processWaitLimit {
                    return abort(because: "cannot start a worker: \(Self.processLimitRefusal), with none of the "
                        + "run's workers left to make room")
                }
            }
            break
        }
        armProcessRetry()
    }

    /// Forgets every waiting view: the run is stopping.
    func stopWaitingForProcesses() {
        waitingForProcess = []
        clock.cancel(processRetry)
        processRetry = nil
    }

    static let processRetryNanoseconds = 100_000_000
    /// Timed retries in a row refused with none of the run's workers alive before the run stops: a second.
    static let processWaitLimit = 10
}
