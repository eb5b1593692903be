import CShim
import Glibc
import ProcFS
import Text

/// Paths as the kernel sees them: what a name is before anything opens it, whole-file locks, and the calls that
/// put a finished file in place of another.
extension Sys {
    /// What `path` names, following a final symlink or not; nil when nothing is there. The corresponding C
    /// functions are `stat` and `lstat`.
    package static func status(ofPath path: String, following: Bool = false) throws(SystemError) -> FileStatus? {
        var info = stat()
        do throws(SystemError) {
            _ = try retrying("\(following ? "stat" : "lstat")(\(path))", .stat, path: path) {
                following ? stat(path, &info) : lstat(path, &info)
            }
        } catch where error.errno == ENOENT {
            return nil
        }
        return FileStatus(info)
    }

    /// Takes the exclusive lock on the whole file open on `fd`, without waiting unless `waiting`; false when
    /// another open file holds it. The lock belongs to the open file, so it lasts until `fd` is closed. The
    /// corresponding C function is `flock`, with LOCK_EX (and LOCK_NB).
    package static func lockExclusively(_ fd: Int32, waiting: Bool = false) throws(SystemError) -> Bool {
        // EWOULDBLOCK is EAGAIN: the wrapper's nil.
        try syscall(.other, "flock", fd: fd) { flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) } != nil
    }

    /// Takes the exclusive lock as `lockExclusively` does, but waits up to `patience` for a lock that this process
    /// or a child of its own holds (as /proc/locks names it): a file this process has closed stays locked for a
    /// moment in a child it is starting, since posix_spawn copies the descriptor table and only the exec closes the
    /// copy. A lock /proc/locks no longer lists was let go between the two looks (that child's exec), and is tried
    /// again. False when another process holds the lock, or this one or its child still does after `patience`.
    package static func lockExclusivelyWaitingOutOurOwn(
        _ fd: Int32, status: FileStatus, patience: Int = 1_000_000_000
    ) throws(SystemError) -> Bool {
        let deadline = monotonicNanoseconds() + patience
        while true {
            if try lockExclusively(fd) { return true }
            let holder = lockHolder(of: status)
            let ours = holder == nil || holder == getpid() || holder.flatMap { ProcFS.stat(.pid($0))?.parent } == getpid()
            guard ours, monotonicNanoseconds() < deadline else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            _ = nanosleep(&pause, nil)
        }
    }

    /// The pid that holds a `flock` lock on the file `status` describes, as /proc/locks lists it; nil when it is
    /// not listed (or /proc is not there).
    package static func lockHolder(of status: FileStatus) -> Int32? {
        ProcFS.flockHolder(major: status.major, minor: status.minor, inode: status.inode)
    }

    /// Makes `path` name the file `existing` names, failing with EEXIST if `path` exists: a file that appears at
    /// once and whole, and never over another. The corresponding C function is `link`.
    package static func link(_ existing: String, _ path: String) throws(SystemError) {
        _ = try retrying("link(\(path))", .path, path: path) { Glibc.link(existing, path) }
    }

    /// Gives the file at `from` the name `to` only if nothing has it (EEXIST otherwise; EINVAL where the file
    /// system cannot tell). The corresponding C function is `renameat2`, with RENAME_NOREPLACE.
    package static func renameNoReplace(_ from: String, to: String) throws(SystemError) {
        _ = try retrying("renameat2(\(from), \(to))", .path, path: to) { sv_rename_noreplace(from, to) }
    }

    /// Puts the file at `from` in place of `to` in one step: anyone opening `to` finds the old file or the new one.
    /// The corresponding C function is `rename`.
    package static func rename(_ from: String, to: String) throws(SystemError) {
        _ = try retrying("rename(\(from), \(to))", .path, path: to) { Glibc.rename(from, to) }
    }

    /// Removes the name `path` (a symlink itself, never what it points to). The corresponding C function is
    /// `unlink`.
    package static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// A second descriptor for the open file on `fd`, sharing its offset and its locks. The corresponding C
    /// function is `fcntl`, with F_DUPFD_CLOEXEC.
    package static func duplicate(_ fd: Int32, above minimum: Int32 = 0) throws(SystemError) -> FileDescriptor {
        FileDescriptor(try retrying("fcntl(F_DUPFD_CLOEXEC)", .fcntl, fd: fd) { fcntl(fd, F_DUPFD_CLOEXEC, minimum) })
    }

    /// Sets the permission bits of the file open on `fd`. The corresponding C function is `fchmod`.
    package static func setMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        _ = try retrying("fchmod", .other, fd: fd) { fchmod(fd, mode) }
    }

    /// Waits until the directory holding `path` has its entries on the disk, so that a rename or link in it
    /// survives a power loss. The corresponding C function is `fsync`.
    package static func syncDirectory(of path: String) throws(SystemError) {
        let directory = directory(of: path)
        let file = try open(directory, O_RDONLY | O_DIRECTORY)
        let fd = file.rawValue
        _ = try retrying("fsync(\(directory))", .sync, fd: fd) { fsync(fd) }
    }

    /// The directory holding `path`.
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes all of `bytes` at `offset`, leaving the file offset alone. The corresponding C function is `pwrite`.
    package static func write(_ bytes: ArraySlice<UInt8>, to fd: Int32, at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = try retrying("pwrite", .write, fd: fd) {
                bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            }
            done += n
        }
    }

    /// Reads exactly `count` bytes at `offset`, or fewer only where the file ends. The corresponding C function is
    /// `pread`.
    package static func read(_ fd: Int32, count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try retrying("pread", .read, fd: fd) {
                bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            }
            if n == 0 { break }
            done += n
        }
        bytes.removeSubrange(done...)
        return bytes
    }
}

extension Sys {
    /// `path` with every symlink, `.` and `..` resolved, as an absolute path. The corresponding C function is
    /// `realpath`.
    package static func realPath(_ path: String) throws(SystemError) -> String {
        var resolved: UnsafeMutablePointer<CChar>?
        _ = try retrying("realpath(\(path))", .stat, path: path) { () -> Int32 in
            resolved = Glibc.realpath(path, nil)
            return resolved == nil ? -1 : 0
        }
        defer { free(resolved) }
        return String(cString: resolved!)
    }
}

extension Sys {
    /// How many descriptors this process may have open, after raising its soft limit as far as the hard limit
    /// allows (a process may always do that): what a run of many workers can count on. The corresponding C
    /// functions are `getrlimit` and `setrlimit`.
    /// How many descriptors this process may have open now (its soft RLIMIT_NOFILE). The corresponding C function
    /// is `getrlimit`.
    package static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(FD_SETSIZE) }
        return Int(clamping: limit.rlim_cur)
    }

    public static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(FD_SETSIZE) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
