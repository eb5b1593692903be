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

    private let pipe: Int32
    private let pidfd: Int32
    package private(set) var outcome = Outcome.running

    /// Starts gzip on `file`, an open regular file, from its first byte.
    package init(file: Int32, gzip: String) throws(SystemError) {
        try Sys.seek(file, to: 0)
        let ends = try Sys.pipe()
        let output: Int32
        do throws(SystemError) {
            output = try Sys.raise(ends.write, above: 3)
        } catch {
            Sys.close(ends.read)
            Sys.close(ends.write)
            throw error
        }
        defer { Sys.close(output) }
        do throws(SystemError) {
            (_, pidfd) = try Sys.spawnFilter(gzip, ["-dc"], input: file, output: output)
        } catch {
            Sys.close(ends.read)
            throw error
        }
        pipe = ends.read
    }

    package func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        guard outcome == .running else { return 0 }
        let count = try Sys.read(pipe, into: &buffer, from: offset)
        if count == 0 {
            // gzip exits 2 for a warning (trailing garbage) and has unpacked what it could.
            outcome = switch try Sys.reap(pidfd, wait: true) {
            case .code(0)?, .code(2)?: .unpacked
            default: .failed
            }
        }
        return count
    }

    /// Closes the pipe first, so a gzip still writing ends on a broken pipe; a kill makes sure, and the reap follows.
    deinit {
        Sys.close(pipe)
        if outcome == .running {
            try? Sys.pidfdSignal(pidfd, SIGKILL)
            _ = try? Sys.reap(pidfd, wait: true)
        }
        Sys.close(pidfd)
    }
}
