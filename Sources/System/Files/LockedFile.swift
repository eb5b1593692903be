import Glibc

/// A file one run owns from its start to its end: a session or an input journal.
///
/// It is held with an exclusive `flock`, so a second supervisor given the same name stops at once ("in use by pid
/// N") instead of writing over the first one's work. The lock belongs to the open file, so the kernel drops it when
/// the holder dies, SIGKILL included; and it moves with the file when `replace` puts a new one in its place. Only a
/// regular file (or nothing: it is then created empty) is ever opened, so a FIFO or a device never blocks or feeds
/// the run.
///
/// It is open for appending (O_APPEND): every write lands at the file's end as it is then, whatever offset it
/// names (pwrite(2), BUGS). The run only ever writes at the end; if another process cut the file short (`: >
/// FILE`, a copy-truncate rotation, an editor), a write makes it shorter than the run wrote, which
/// `checkInPlace(written:)` finds, rather than leaving a hole of zeros that hides the cut.
///
/// One thread uses it at a time: the loop's, or the disk queue's while a save it was given is being written.
public final class LockedFile: @unchecked Sendable {
    /// As the user gave it.
    public let path: String
    package let resolved: String
    private var descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }
    /// When it was locked.
    public private(set) var status: Sys.FileStatus

    /// `leftovers` recognises by their first bytes the files `replace` writes: one a death left beside the file
    /// (a temporary nobody holds, see `Leftovers`) is removed once the file is held.
    public init(_ path: String, leftovers: (ArraySlice<UInt8>) -> Bool) throws(FileError) {
        self.path = path
        var attempts = 0
        while true {
            attempts += 1
            let named = try UserPath(path, for: "use")
            try named.requireRegularOrAbsent("use")
            let opened: FileDescriptor
            do throws(SystemError) {
                let flags = O_APPEND | (named.status == nil
                    ? O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW : O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
                opened = try Sys.open(named.resolved, flags, mode: 0o644)
            } catch where (error.errno == EEXIST || error.errno == ENOENT) && attempts < 10 {
                continue  // created or removed by someone else between the look and the open
            } catch {
                throw FileError(path, "use", error)
            }
            let found: Sys.FileStatus
            let madeByTheKernel: Bool
            let locked: Bool
            do throws(SystemError) {
                found = try Sys.status(opened.rawValue)
                madeByTheKernel = try Sys.isMadeByTheKernel(opened.rawValue)
                locked = found.isRegular && !madeByTheKernel
                    ? try Sys.lockExclusivelyWaitingOutOurOwn(opened.rawValue, status: found) : false
            } catch {
                throw FileError(path, "use", error)
            }
            guard found.isRegular else { throw FileError(path, "use", .notRegular(found.kindName)) }
            // A proc or sysfs file says it is regular and empty: taken as a new journal, it would be written to.
            guard !madeByTheKernel else { throw FileError(path, "use", .notRegular("a file the kernel makes as it is read")) }
            guard locked else { throw FileError(path, "use", .inUse(pid: Sys.lockHolder(of: found))) }
            // The name may have been given to another file between the open and the lock (a save that replaced
            // it): the lock must be on the file the name holds now.
            guard let now = try? Sys.status(ofPath: named.resolved), now.isSameFile(as: found) else {
                if attempts < 10 { continue }
                throw FileError(path, "use", .changed("it keeps being replaced by another process"))
            }
            status = (try? Sys.status(opened.rawValue)) ?? found
            descriptor = opened
            resolved = named.resolved
            _ = Leftovers.find(beside: resolved, ours: leftovers) { Sys.unlink($0.path) }
            return
        }
    }

    /// The whole file as it is now, refused by its size when over `limit`.
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        let size: Int
        do throws(SystemError) { size = try Sys.status(fd).size } catch { throw FileError(path, "read", error) }
        guard size <= limit else { throw FileError(path, "read", .tooBig(size: size, limit: limit)) }
        do throws(SystemError) { return try Sys.read(fd, count: size, at: 0) } catch { throw FileError(path, "read", error) }
    }

    /// Its first `count` bytes, or all of it if it is shorter: enough to tell whose file it is.
    public func head(_ count: Int) throws(FileError) -> [UInt8] {
        do throws(SystemError) { return try Sys.read(fd, count: count, at: 0) } catch { throw FileError(path, "read", error) }
    }

    /// Throws unless the name still holds this file: a file deleted or replaced during the run would take what
    /// is written to it nowhere, while the run went on saying it was saved.
    public func checkInPlace() throws(FileError) {
        let now = try? Sys.status(ofPath: resolved)
        guard let now else { throw FileError(path, "write", .changed("it was deleted during the run")) }
        guard now.isSameFile(as: status) else { throw FileError(path, "write", .changed("it was replaced during the run")) }
    }

    /// Throws as `checkInPlace()` does, then returns nil when the file holds the `written` bytes the run put in
    /// it, or the size it has instead: another process cut it short or wrote to it, and what the run saved there
    /// is no longer all there. Only the run's own copy can put it back: the caller writes the file again whole.
    public func checkInPlace(written: Int) throws(FileError) -> Int? {
        try checkInPlace()
        let size: Int
        do throws(SystemError) { size = try Sys.status(fd).size } catch { throw FileError(path, "write", error) }
        return size == written ? nil : size
    }

    /// Replaces the file with `bytes` in one step, keeping the lock: they go to a new file beside it (created with
    /// O_EXCL, so nothing that stands at its name is followed or overwritten), reach the disk, and are renamed
    /// over it; then the directory is synced. A crash at any moment leaves the old file or the new one.
    package func replaceContents(with bytes: [UInt8]) throws(SystemError) {
        let temporary = try TemporaryFile(beside: resolved, permissions: status.permissions)
        try Sys.write(bytes[...], to: temporary.fd, at: 0)
        try replace(with: temporary)
    }

    /// Puts `temporary`, complete, in this file's place in one step, and holds it from then on: it is locked
    /// before it takes the name, so there is no moment at which the name holds an unlocked file.
    package func replace(with temporary: TemporaryFile) throws(SystemError) {
        guard try Sys.lockExclusively(temporary.fd) else { throw SystemError("flock", errno: EWOULDBLOCK) }
        let held = try Sys.duplicate(temporary.fd)
        try Sys.setAppending(held.rawValue)
        try temporary.place(durable: true)
        status = try Sys.status(held.rawValue)
        descriptor = held
    }
}
