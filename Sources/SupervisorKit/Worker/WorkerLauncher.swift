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
    private let nullFD: Int32
    private var argv: [UnsafeMutablePointer<CChar>?]
    private var envp: [UnsafeMutablePointer<CChar>?]

    /// For children with the full Swift runtime (Jetsam, or a `--worker` built as ordinary Swift; WebContent has
    /// none): its crash backtracer would turn every crashing page into a seconds-long symbolication, and naming
    /// its program, even as nothing, spares every start the runtime's search for it (nine path lookups).
    static let environment = "SWIFT_BACKTRACE=enable=no,swift-backtrace="

    /// Workers are told `parent`'s pid: one whose parent is another by the time it runs has been orphaned.
    init(executable: String, parent: pid_t = getpid()) throws(SystemError) {
        self.executable = executable
        nullFD = try Sys.raise(try Sys.open("/dev/null", O_RDWR), above: SV_CHANNEL_OUT_FD + 1)
        argv = [strdup(executable), strdup("\(parent)"), nil]
        envp = [strdup(Self.environment), nil]
    }

    deinit {
        Sys.close(nullFD)
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

    private func spawn() throws(SystemError) -> WorkerProcess {
        let toChild = try Sys.pipe()
        let fromChild: (read: Int32, write: Int32)
        do throws(SystemError) { fromChild = try Sys.pipe() } catch {
            Sys.close(toChild.read)
            Sys.close(toChild.write)
            throw error
        }
        var childEnds: [Int32] = [toChild.read, fromChild.write]
        defer { childEnds.forEach(Sys.close) }
        let parentEnds = Channel(readFD: fromChild.read, writeFD: toChild.write)
        // The child's ends must sit above 4 so that mapping one onto 3 or 4 cannot clobber the other.
        for i in childEnds.indices { childEnds[i] = try Sys.raise(childEnds[i], above: SV_CHANNEL_OUT_FD + 1) }
        try Sys.setNonBlocking(parentEnds.readFD)
        try Sys.setNonBlocking(parentEnds.writeFD)

        var pid: pid_t = 0
        var pidfd: Int32 = -1
        let spawnedAt = Sys.monotonicNanoseconds()
        let rc = sv_spawn(executable, argv, envp, childEnds[0], childEnds[1], nullFD, &pid, &pidfd)
        guard rc == 0 else {
            if pidfd >= 0 { Sys.close(pidfd) }
            throw SystemError("posix_spawn", errno: rc)
        }
        return WorkerProcess(pid: pid, pidfd: pidfd, channel: parentEnds, spawnedAt: spawnedAt)
    }
}
