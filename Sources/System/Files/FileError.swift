import Glibc
import Text

/// Why a file the user named cannot be used: one sentence naming the file, what was being done and why not.
public struct FileError: Error, CustomStringConvertible {
    public enum Problem: Sendable {
        case system(SystemError)
        /// Something other than a regular file: `a FIFO`, `a directory`...
        case notRegular(String)
        /// Locked by another process for its run; the pid when /proc/locks names it.
        case inUse(pid: Int32?)
        /// A file with content that this supervisor did not write: never emptied or overwritten.
        case notOurs(String)
        /// An output's name that already holds a file of another kind: `a replay schedule`.
        case notOutput(String)
        /// An output's name that is a symbolic link: through it, a file anywhere could be replaced.
        case symbolicLink
        case tooBig(size: Int, limit: Int)
        /// Read or written, then found to be other than it was (deleted, replaced, damaged).
        case changed(String)
    }

    public let path: String
    /// What was being done: `read`, `write`, `use`.
    public let action: String
    public let problem: Problem

    public init(_ path: String, _ action: String, _ problem: Problem) {
        self.path = path
        self.action = action
        self.problem = problem
    }

    public init(_ path: String, _ action: String, _ error: SystemError) {
        self.init(path, action, .system(error))
    }

    public var errno: Int32? {
        if case .system(let error) = problem { return error.errno }
        return nil
    }

    /// The name is shown `visible`: it may come from a folder listed or an archive, not typed by the user.
    public var description: String { "cannot \(action) '\(visible(path))': \(reason)" }

    /// Why, without the file's name: for a list of files skipped.
    public var reason: String {
        switch problem {
        case .system(let error): String(cString: strerror(error.errno))
        case .notRegular(let kind): "it is \(kind), not a regular file"
        case .inUse(let pid?): "it is in use by pid \(pid) (another supervisor)"
        case .inUse(nil): "it is in use by another process"
        case .notOurs(let what): "it is not \(what); move it away or name another file"
        case .notOutput(let what): "it is not \(what); name another file, or give --force to replace it"
        case .symbolicLink: "it is a symbolic link, which an output never follows or replaces; name the file itself"
        case .tooBig(let size, let limit):
            // Rounded, a size just over the limit reads as the limit itself: then both in bytes.
            byteCount(size) == byteCount(limit)
                ? "it is \(grouped(size)) bytes, over the \(grouped(limit))-byte limit"
                : "it is \(byteCount(size)), over the \(byteCount(limit)) limit"
        case .changed(let what): what
        }
    }
}

/// `3.0 GB`, `512 KB`, `12 bytes`: a size as a person reads it.
package func byteCount(_ bytes: Int) -> String {
    let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
    for (scale, unit) in units where bytes >= scale {
        let tenths = (bytes * 10 + scale / 2) / scale
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
}

extension Sys.FileStatus {
    /// `a FIFO`, `a directory`...: what a file that is not regular is, for a message.
    public var kindName: String {
        switch type {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "a file of type \(String(type, radix: 8))"
        }
    }
}
