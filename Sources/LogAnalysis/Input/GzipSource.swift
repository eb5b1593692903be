import Events
import Glibc
import System
import Vocabulary

/// A gzip-compressed file, read through the system's `gzip -dc`: the file is gzip's standard input and a pipe its
/// standard output, so nothing is unpacked to disk and memory stays what a pipe holds. gzip is used rather than an
/// inflate of our own: it is on every system that has `tar`, and it is fast.
package final class GzipSource: ByteSource {
    /// How gzip ended.
    package enum Outcome: Equatable {
        case running
        /// Exit status 0, or 2 (a warning, such as trailing garbage after the data).
        case unpacked
        /// Anything else: the file is damaged or cut short, and the output stopped there.
        case failed
    }

    private let pipe: FileDescriptor
    /// Reaped once `outcome` is no longer `running`.
    private let gzip: ChildProcess
    package private(set) var outcome = Outcome.running

    /// Starts gzip on `file`, an open regular file, from its first byte.
    package init(file: Int32, gzip path: String) throws(SystemError) {
        try Sys.seek(file, to: 0)
        let ends = try Sys.pipe()
        // Above the standard descriptors it is mapped onto; closed here once gzip has its copy.
        let output = try Sys.raise(ends.write, above: 3)
        // A filter with nothing of ours: standard input the file, output the pipe, errors nowhere, no environment.
        gzip = try Sys.spawn(
            SpawnProgram(path, arguments: ["-dc"], environment: []),
            [.copy(file, as: 0), .copy(output.rawValue, as: 1), .file("/dev/null", flags: O_WRONLY, as: 2)], ownGroup: false)
        pipe = ends.read
    }

    package func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        guard outcome == .running else { return 0 }
        let count = try Sys.read(pipe.rawValue, into: &buffer, from: offset)
        if count == 0 {
            // gzip exits 2 for a warning (trailing garbage) and has unpacked what it could.
            outcome = switch try gzip.reap() {
            case .code(0), .code(2): .unpacked
            default: .failed
            }
        }
        return count
    }

    /// A gzip still running is killed and reaped; its pidfd and the pipe close with this value.
    deinit {
        if outcome == .running {
            try? gzip.signal(SIGKILL)
            _ = try? gzip.reap()
        }
    }
}
