import Glibc

/// A file the user gave to be read, opened so that nothing about it can make the supervisor wait or run out of
/// memory: only a regular file is opened (a FIFO, socket or device is refused from its status, and the open itself
/// cannot block), and its size is known before any of it is read. A file in /proc, /sys and their like is refused
/// too: it says it is regular and empty, and may be endless or wait for data (/proc/kmsg).
public final class InputFile {
    public let path: String
    private let descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }
    public let status: Sys.FileStatus

    public init(_ path: String) throws(FileError) {
        let named = try UserPath(path, for: "read")
        guard let expected = named.status else { throw FileError(path, "read", SystemError("open", errno: ENOENT)) }
        guard expected.isRegular else { throw FileError(path, "read", .notRegular(expected.kindName)) }
        let opened: FileDescriptor
        do throws(SystemError) { opened = try Sys.open(named.resolved, O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch {
            throw FileError(path, "read", error)
        }
        let found: Sys.FileStatus
        do throws(SystemError) { found = try Sys.status(opened.rawValue) } catch { throw FileError(path, "read", error) }
        // Swapped for something else between the look and the open.
        guard found.isRegular, found.isSameFile(as: expected) else {
            throw FileError(path, "read", .changed("it changed while it was being opened"))
        }
        let madeByTheKernel: Bool
        do throws(SystemError) { madeByTheKernel = try Sys.isMadeByTheKernel(opened.rawValue) } catch {
            throw FileError(path, "read", error)
        }
        guard !madeByTheKernel else { throw FileError(path, "read", .notRegular("a file the kernel makes as it is read")) }
        self.path = path
        descriptor = opened
        status = found
    }

    /// Its first `count` bytes, or all of it if it is shorter.
    public func head(_ count: Int) throws(FileError) -> [UInt8] {
        do throws(SystemError) { return try Sys.read(fd, count: count, at: 0) } catch { throw FileError(path, "read", error) }
    }

    /// The whole file, refused by its size when it is over `limit`, and never more than `limit` bytes even if it
    /// grows while it is read.
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        guard status.size <= limit else { throw FileError(path, "read", .tooBig(size: status.size, limit: limit)) }
        let bytes: [UInt8]
        do throws(SystemError) { bytes = try Sys.read(fd, count: min(status.size, limit) + 1, at: 0) } catch {
            throw FileError(path, "read", error)
        }
        guard bytes.count <= limit else { throw FileError(path, "read", .tooBig(size: bytes.count, limit: limit)) }
        return bytes
    }
}
