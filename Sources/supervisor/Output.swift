import Glibc
import SupervisorKit

/// A file to write once the work is done, opened (not truncated) before it starts, so that a path that cannot be
/// written fails at once and an existing file is not destroyed by a run that fails.
struct OutputFile {
    let path: String
    private let fd: Int32
    private let created: Bool

    init(_ path: String) throws {
        self.path = path
        created = access(path, F_OK) != 0
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RuntimeError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
    }

    func write(_ text: String) throws {
        defer { close(fd) }
        do throws(SystemError) {
            guard ftruncate(fd, 0) == 0 else { throw SystemError("ftruncate", errno: errno) }
            try Sys.write(text, to: fd)
        } catch {
            if created { unlink(path) }
            throw RuntimeError("cannot write '\(path)': \(String(cString: strerror(error.errno)))")
        }
    }
}

/// Writes to standard output, or fails with a message (a closed pipe, a full disk) instead of losing the output.
func writeStandardOutput(_ text: String) throws {
    do {
        try Sys.write(text, to: 1)
    } catch {
        throw RuntimeError("cannot write to standard output: \(String(cString: strerror(error.errno)))")
    }
}
