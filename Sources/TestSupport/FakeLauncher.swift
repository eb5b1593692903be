import Glibc
import WireProtocol

import Process
import System

/// Launches fake workers, each saying hello on the clock's next turn unless `silent`.
package final class FakeLauncher: Launcher {
    package let executable = "fake-worker"
    private let clock: VirtualClock
    private var nextPID: Int32 = 1000
    package private(set) var launched: [FakeWorker] = []
    /// Sets up each new worker before it says hello: its script, or a crash.
    package var prepare: (FakeWorker) -> Void = { _ in }
    /// With an errno, every launch fails with it.
    package var failWith: Int32?
    package var silent = false

    package init(clock: VirtualClock) { self.clock = clock }

    package func launch() throws(LaunchError) -> any WorkerHandle {
        if let failWith { throw LaunchError(executable: executable, underlying: SystemError("posix_spawn", errno: failWith)) }
        nextPID += 1
        let worker = FakeWorker(pid: nextPID, clock: clock)
        launched.append(worker)
        prepare(worker)
        if !silent { worker.say(.hello(pid: worker.pid, version: protocolVersion, sandbox: .installed)) }
        return worker
    }
}
