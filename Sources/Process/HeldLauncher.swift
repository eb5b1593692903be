import Glibc
import System

/// Starts WebContent workers through a holder (issue 34), which is their parent and keeps them alive for its lease
/// if this process dies: the worker's pidfd, channel and standard error come back over the holder's socket, and its
/// end is read through the pidfd once the holder has reaped it. Each worker otherwise runs as `WorkerLauncher`'s do:
/// the same program, arguments (its parent's pid being the holder's) and environment.
package final class HeldLauncher: Launcher {
    package let executable: String
    private let holder: HolderLink
    private let loop: EventLoop
    private let scratch = ScratchBuffer()
    private let arguments: [String]

    package init(executable: String, holder: HolderLink, loop: EventLoop, sandboxed: Bool) {
        self.executable = executable
        self.holder = holder
        self.loop = loop
        arguments = SpawnRecipe.workerArguments(parent: holder.pid, sandboxed: sandboxed)
    }

    package func launch() throws(LaunchError) -> any WorkerHandle {
        try launchProcess()
    }

    package func launchProcess() throws(LaunchError) -> WorkerProcess {
        do throws(SystemError) {
            let spawnedAt = loop.now
            let held = try holder.spawn(executable, arguments: arguments, environment: [SpawnRecipe.environment])
            return try process(held, since: spawnedAt)
        } catch {
            throw LaunchError(executable: executable, underlying: error)
        }
    }

    /// Names what the worker `pid` serves in the holder (`HolderLink.label`): a hint for the supervisor that takes
    /// it back. A holder that cannot be told is found gone by the next spawn or reap.
    package func label(_ pid: Int32, _ text: String) {
        try? holder.label(pid, text)
    }

    /// A worker the holder kept for the supervisor before (`HolderLink.list`), as this one's: its life is counted
    /// from now.
    package func takeBack(_ held: HolderLink.HeldWorker) throws(SystemError) -> WorkerProcess {
        try process(held, since: loop.now)
    }

    private func process(_ held: HolderLink.HeldWorker, since spawnedAt: Int) throws(SystemError) -> WorkerProcess {
        typealias Held = HolderLink.HeldWorker
        guard let pidfd = held.descriptors.take(Held.pidfd), let input = held.descriptors.take(Held.input),
            let output = held.descriptors.take(Held.output), let errors = held.descriptors.take(Held.errors)
        else { throw SystemError("take a worker from the holder", errno: EPROTO) }
        for fd in [input.rawValue, output.rawValue, errors.rawValue] { try Sys.setNonBlocking(fd) }
        return WorkerProcess(
            HeldWorkerExit(pid: held.pid, pidfd: pidfd, holder: holder), channel: Channel(read: output, write: input),
            errors: StandardErrorRelay(pid: held.pid, pipe: errors), spawnedAt: spawnedAt, loop: loop, scratch: scratch)
    }
}
