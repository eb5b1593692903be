import CShim
import Glibc
import System

/// A content directory, held by descriptor from the start, and the one way to read a file beneath it.
///
/// The kernel resolves each path against that descriptor (`Sys.openBeneath`), so no `..`, symlink, rename or mount
/// point (a proc file system mounted inside would serve /proc/self/environ) made at any moment can lead a read
/// outside it. A file is first reached with O_PATH, which reads nothing: only a regular file is then opened for
/// reading, so a FIFO never blocks the event loop and a device node is never touched. That second open goes
/// through /proc/self/fd: without /proc mounted, every read is a 500.
///
/// A hard link is a name, not a path: nothing on the way to it leads out, yet it may be a second name of any file
/// its maker could read (a link in the root to `/etc/shadow`, made by whoever can write the root). Nothing tells
/// such a link from a file made in the root, so a file with more than one name is refused.
final class ContentRoot {
    let path: String
    private let root: FileDescriptor

    init(_ path: String) throws(SystemError) {
        root = try Sys.openDirectoryPath(path)
        self.path = path
    }

    /// The bytes of the regular file at `relative`, which the caller has decoded and checked; a file bigger than
    /// `limit` is refused by its size before any of it is read. A `cached` copy is returned instead of a read when
    /// the file is still the one it was read from: the same inode and size, unchanged since (mtime and ctime; an
    /// edit within the file system's timestamp granularity of the read that keeps the size can go unseen).
    func read(_ relative: [UInt8], limit: Int, cached: (version: Sys.FileStatus, body: [UInt8])? = nil)
        throws(ContentRefusal) -> (version: Sys.FileStatus, body: [UInt8])
    {
        let name = ContentRefusal.printable(relative)
        let reached: FileDescriptor
        do throws(SystemError) { reached = try Sys.openBeneath(root.rawValue, relative) } catch {
            throw Self.refusal(error, relative)
        }
        let found = try Self.status(reached.rawValue, name)
        guard found.isRegular else { throw .forbidden("\(name) is \(found.kindName), not a regular file") }
        guard found.links <= 1 else {
            throw .forbidden("\(name) has \(found.links) hard links: another name of it may lie outside the content root")
        }
        guard found.size <= limit else { throw Self.tooBig(name, size: "\(found.size)", limit: limit) }
        // The same inode, size, mtime and ctime: the file the copy was read from, unchanged since.
        if let cached, cached.version == found { return cached }

        let file: FileDescriptor
        do throws(SystemError) { file = try Sys.reopenForReading(reached.rawValue) } catch {
            throw ContentRefusal(status: 500, reason: "cannot open \(name): \(error)")
        }
        let opened = try Self.status(file.rawValue, name)
        guard opened.isRegular, opened.device == found.device, opened.inode == found.inode else {
            throw .forbidden("\(name) is not the file it resolved to")
        }
        let body: [UInt8]
        do throws(SystemError) { body = try Sys.readAll(file.rawValue, limit: limit) } catch {
            throw ContentRefusal(status: 500, reason: "cannot read \(name): \(error)")
        }
        guard body.count <= limit else { throw Self.tooBig(name, size: "at least \(body.count)", limit: limit) }
        return (found, body)
    }

    /// EXDEV is the kernel's word for "this leads out of the root"; ELOOP for a link it may not follow.
    private static func refusal(_ error: SystemError, _ relative: [UInt8]) -> ContentRefusal {
        let name = ContentRefusal.printable(relative)
        return switch error.errno {
        case EXDEV: .forbidden("\(name) leads out of the content root")
        case ELOOP: .forbidden("\(name) goes through a link that may not be followed")
        case EACCES, EPERM: .forbidden("\(name): permission denied")
        case ENOENT, ENOTDIR, ENAMETOOLONG: .notFound(relative)
        default: ContentRefusal(status: 500, reason: "cannot open \(name): \(error)")
        }
    }

    private static func status(_ fd: Int32, _ name: String) throws(ContentRefusal) -> Sys.FileStatus {
        do throws(SystemError) { return try Sys.status(fd) } catch {
            throw ContentRefusal(status: 500, reason: "cannot stat \(name): \(error)")
        }
    }

    private static func tooBig(_ name: String, size: String, limit: Int) -> ContentRefusal {
        ContentRefusal(status: 413, reason: "\(name) is \(size) bytes, over the \(limit)-byte limit for a document")
    }
}
