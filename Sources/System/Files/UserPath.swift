import Glibc

/// A path the user named, resolved before anything is opened: what it names, where that really is, and which
/// file it is, so that a FIFO is refused before it can block, a device before it is read, and two names for one
/// file are seen to be one.
public struct UserPath: Sendable {
    /// As the user wrote it, for messages.
    public let given: String
    /// Where the file really is: symlinks followed, so that a file replaced by renaming is the one the user meant,
    /// not the link.
    public let resolved: String
    /// What is there now; nil when nothing is (a file to be created).
    public let status: Sys.FileStatus?

    /// Resolves `path`; `action` names what it is for in an error. A symlink that leads nowhere is an error: a
    /// file created through it could land anywhere.
    public init(_ path: String, for action: String) throws(FileError) {
        given = path
        guard !path.isEmpty else { throw FileError(path, action, .notRegular("an empty name")) }
        let found: Sys.FileStatus?
        do throws(SystemError) { found = try Sys.status(ofPath: path) } catch { throw FileError(path, action, error) }
        guard let found, found.type == S_IFLNK else {
            resolved = path
            status = found
            return
        }
        let target: Sys.FileStatus?
        do throws(SystemError) { target = try Sys.status(ofPath: path, following: true) } catch { throw FileError(path, action, error) }
        guard let target else { throw FileError(path, action, .changed("it is a symbolic link that leads nowhere")) }
        do throws(SystemError) { resolved = try Sys.realPath(path) } catch { throw FileError(path, action, error) }
        status = target
    }

    /// Which file this is: its device and inode when it exists, else its absolute path, so that two outputs
    /// to be created under one name are seen to be one file.
    public var identity: Identity {
        if let status { return .file(device: status.device, inode: status.inode) }
        let directory = Sys.directory(of: resolved)
        let name = resolved.split(separator: "/").last.map(String.init) ?? ""
        let absolute = (try? Sys.realPath(directory)) ?? directory
        return .path(absolute == "/" ? "/" + name : absolute + "/" + name)
    }

    public enum Identity: Hashable, Sendable {
        case file(device: UInt64, inode: UInt64)
        case path(String)
    }

    /// Throws unless the path is a regular file or nothing.
    package func requireRegularOrAbsent(_ action: String) throws(FileError) {
        if let status, !status.isRegular { throw FileError(given, action, .notRegular(status.kindName)) }
    }
}
