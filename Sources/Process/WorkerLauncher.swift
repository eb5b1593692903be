import CShim
import Glibc
import WireProtocol
import System

/// Why a worker could not be started.
package struct LaunchError: Error, CustomStringConvertible {
    package let executable: String
    package let underlying: SystemError

    package init(executable: String, underlying: SystemError) {
        self.executable = executable
        self.underlying = underlying
    }

    package var description: String {
        "cannot launch worker '\(executable)': \(String(cString: strerror(underlying.errno)))"
    }
}

/// Starts WebContent workers with posix_spawn, never fork: vfork-style spawning costs the same however large the
/// supervisor grows.
///
/// The worker gets its channel on fds 3 and 4, /dev/null on 0 and 1, a pipe of its own on 2 (its lines are passed
/// on by `StandardErrorRelay`, named and made visible, never straight to the operator's terminal), and nothing
/// else. Its signal mask and dispositions are reset, it leads its own process group, and a pidfd is taken before
/// anything else can happen to it. The argument vector and environment never change, so they are built once.
package final class WorkerLauncher: Launcher {
    package let executable: String
    private let loop: EventLoop
    private let scratch = ScratchBuffer()
    private let null: FileDescriptor
    private let program: SpawnProgram

    /// Workers are told `parent`'s pid: one whose parent is another by the time it runs has been orphaned. Unless
    /// `sandboxed`, they are also told `--no-sandbox`.
    package init(executable: String, loop: EventLoop, parent: pid_t = getpid(), sandboxed: Bool) throws(SystemError) {
        self.executable = executable
        self.loop = loop
        null = try SpawnRecipe.aboveChannel(try Sys.open("/dev/null", O_RDWR))
        program = SpawnProgram(
            executable, arguments: SpawnRecipe.workerArguments(parent: parent, sandboxed: sandboxed),
            environment: [SpawnRecipe.environment])
    }

    /// A running worker with its pidfd and channel, or the reason it could not start.
    package func launch() throws(LaunchError) -> any WorkerHandle {
        try launchProcess()
    }

    /// `launch`, for a caller that drives the process's channel itself.
    package func launchProcess() throws(LaunchError) -> WorkerProcess {
        do {
            return try spawn()
        } catch {
            throw LaunchError(executable: executable, underlying: error)
        }
    }

    /// Each descriptor is owned from the moment it exists, so a failure at any step (EMFILE on the second pipe,
    /// say) closes every one opened before it, and the child's ends are closed once it has its copies.
    private func spawn() throws(SystemError) -> WorkerProcess {
        let toChild = try Sys.pipe()
        let childIn = toChild.read
        let parentOut = toChild.write
        let fromChild = try Sys.pipe()
        let parentIn = fromChild.read
        let childOut = fromChild.write
        let fromStandardError = try Sys.pipe()
        let errorsIn = fromStandardError.read
        let childErrors = fromStandardError.write
        let input = try SpawnRecipe.aboveChannel(childIn)
        let output = try SpawnRecipe.aboveChannel(childOut)
        let errors = try SpawnRecipe.aboveChannel(childErrors)
        try Sys.setNonBlocking(parentIn.rawValue)
        try Sys.setNonBlocking(parentOut.rawValue)
        try Sys.setNonBlocking(errorsIn.rawValue)
        let spawnedAt = loop.now
        let descriptors = SpawnRecipe.worker(
            input: input.rawValue, output: output.rawValue, null: null.rawValue, errors: errors.rawValue)
        let child = try Sys.spawn(program, descriptors, ownGroup: true)
        let errorRelay = StandardErrorRelay(pid: child.pid, pipe: errorsIn)
        return WorkerProcess(
            ChildWorkerExit(child), channel: Channel(read: parentIn, write: parentOut), errors: errorRelay, spawnedAt: spawnedAt,
            loop: loop, scratch: scratch)
    }
}
