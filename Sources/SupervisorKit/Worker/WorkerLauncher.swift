import CShim
import Glibc

/// Why a worker could not be started.
public struct LaunchError: Error, CustomStringConvertible {
    public let executable: String
    public let underlying: SystemError

    public var description: String {
        "cannot launch worker '\(executable)': \(String(cString: strerror(underlying.errno)))"
    }
}

/// Starts WebContent workers with posix_spawn, never fork: vfork-style spawning costs the same however large the
/// supervisor grows.
///
/// The worker gets its channel on fds 3 and 4, /dev/null on 0 and 1, the supervisor's stderr on 2, and nothing
/// else. Its signal mask and dispositions are reset, it leads its own process group, and a pidfd is taken before
/// anything else can happen to it. The argument vector and environment never change, so they are built once.
final class WorkerLauncher {
    let executable: String
    private let null: FileDescriptor
    private var argv: [UnsafeMutablePointer<CChar>?]
    private var envp: [UnsafeMutablePointer<CChar>?]

    /// For children with the full Swift runtime (Jetsam, or a `--worker` built as ordinary Swift; WebContent has
    /// none): its crash backtracer would turn every crashing page into a seconds-long symbolication, and naming
    /// its program, even as nothing, spares every start the runtime's search for it (nine path lookups).
    static let environment = "SWIFT_BACKTRACE=enable=no,swift-backtrace="

    /// Workers are told `parent`'s pid: one whose parent is another by the time it runs has been orphaned.
    init(executable: String, parent: pid_t = getpid()) throws(SystemError) {
        self.executable = executable
        null = try Self.aboveChannel(FileDescriptor(try Sys.open("/dev/null", O_RDWR)))
        argv = [strdup(executable), strdup("\(parent)"), nil]
        envp = [strdup(Self.environment), nil]
    }

    deinit {
        for pointer in argv + envp { free(pointer) }
    }

    /// A running worker with its pidfd and channel, or the reason it could not start.
    func launch() throws(LaunchError) -> WorkerProcess {
        do {
            return try spawn()
        } catch {
            throw LaunchError(executable: executable, underlying: error)
        }
    }

    /// Every descriptor a child is given must sit above 4, so that mapping one onto 0, 1, 3 or 4 cannot clobber
    /// another that is still to be mapped. `fd` itself is closed when it is moved.
    static func aboveChannel(_ fd: consuming FileDescriptor) throws(SystemError) -> FileDescriptor {
        guard fd.rawValue <= SV_CHANNEL_OUT_FD else { return fd }
        return FileDescriptor(try Sys.duplicate(fd.rawValue, above: SV_CHANNEL_OUT_FD + 1))
    }

    /// Each descriptor is owned from the moment it exists, so a failure at any step (EMFILE on the second pipe,
    /// say) closes every one opened before it, and the child's ends are closed once it has its copies.
    private func spawn() throws(SystemError) -> WorkerProcess {
        let toChild = try Sys.pipe()
        let childIn = FileDescriptor(toChild.read)
        let parentOut = FileDescriptor(toChild.write)
        let fromChild = try Sys.pipe()
        let parentIn = FileDescriptor(fromChild.read)
        let childOut = FileDescriptor(fromChild.write)
        let input = try Self.aboveChannel(childIn)
        let output = try Self.aboveChannel(childOut)
        try Sys.setNonBlocking(parentIn.rawValue)
        try Sys.setNonBlocking(parentOut.rawValue)
        let spawnedAt = Sys.monotonicNanoseconds()
        let child = try Sys.spawn(
            executable, argv, envp, input: input.rawValue, output: output.rawValue, null: null.rawValue)
        return WorkerProcess(child, channel: Channel(read: parentIn, write: parentOut), spawnedAt: spawnedAt)
    }
}
