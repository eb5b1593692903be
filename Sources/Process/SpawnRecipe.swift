import CShim
import Glibc
import System

/// What every child the supervisor starts (a worker, Jetsam) is given, beyond its program and arguments.
package enum SpawnRecipe {
    /// For children with the full Swift runtime (Jetsam, or a `--worker` built as ordinary Swift; WebContent has
    /// none): its crash backtracer would turn every crashing page into a seconds-long symbolication, and naming
    /// its program, even as nothing, spares every start the runtime's search for it (nine path lookups).
    package static let environment = "SWIFT_BACKTRACE=enable=no,swift-backtrace="

    /// A worker's arguments: the pid of the parent it must have (one whose parent is another by the time it runs
    /// was orphaned), and `--no-sandbox` unless `sandboxed`.
    package static func workerArguments(parent: pid_t, sandboxed: Bool) -> [String] {
        ["\(parent)"] + (sandboxed ? [] : ["--no-sandbox"])
    }

    /// What a worker (or Jetsam) starts with: its channel's input and output on fds 3 and 4, /dev/null on 0 and 1, and
    /// `errors` on 2 (without it, this process's standard error).
    package static func worker(input: Int32, output: Int32, null: Int32, errors: Int32? = nil) -> [ChildDescriptor] {
        [.copy(null, as: 0), .copy(null, as: 1), .copy(input, as: SV_CHANNEL_IN_FD), .copy(output, as: SV_CHANNEL_OUT_FD)]
            + (errors.map { [.copy($0, as: 2)] } ?? [])
    }

    /// Every descriptor a child is given must sit above 4, so that mapping one onto 0, 1, 3 or 4 cannot clobber
    /// another that is still to be mapped. `fd` itself is closed when it is moved.
    package static func aboveChannel(_ fd: consuming FileDescriptor) throws(SystemError) -> FileDescriptor {
        guard fd.rawValue <= SV_CHANNEL_OUT_FD else { return fd }
        return try Sys.duplicate(fd.rawValue, above: SV_CHANNEL_OUT_FD + 1)
    }
}
