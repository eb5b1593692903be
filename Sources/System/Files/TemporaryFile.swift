import Glibc

/// A new file beside `target`, under a name nobody else uses (`target.tmp-` and a random suffix), that becomes
/// `target` in one step once it is complete (`place`), or goes away (`discard`).
///
/// It holds an exclusive `flock` until it is closed, so that one nobody holds was left by a process that died:
/// `Leftovers` tells the two apart by that alone. It is created with O_EXCL | O_NOFOLLOW, so whatever already
/// stands at a name it tries (a symlink to someone's file, a FIFO, a file left by a crash) is never opened, only
/// passed over for another name.
package final class TemporaryFile {
    package let path: String
    package let target: String
    private let descriptor: FileDescriptor
    package var fd: Int32 { descriptor.rawValue }
    private var placed = false

    /// `permissions` are those of the file it will replace, so that replacing a file does not change who may
    /// read it; a file with none to copy is made 0o644 less the umask, as a file created by name would be.
    package init(beside target: String, permissions: mode_t? = nil) throws(SystemError) {
        let made = try Self.created(beside: target, mode: permissions ?? 0o644)
        path = made.path
        descriptor = made.descriptor
        self.target = target
        // The umask must not narrow a copy of an existing file's permissions.
        if let permissions {
            do throws(SystemError) { try Sys.setMode(fd, permissions) } catch {
                discard()
                throw error
            }
        }
    }

    deinit {
        if !placed { Sys.unlink(path) }
    }

    /// A file made under its name, and locked.
    private struct Created: ~Copyable {
        let path: String
        let descriptor: FileDescriptor
    }

    /// `target.tmp-` and a random suffix of up to seven base-36 digits.
    private static func candidate(beside target: String) -> String {
        "\(target)\(suffixStart)\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }

    /// What every temporary file's name adds to its target's.
    static let suffixStart = ".tmp-"

    /// Whether `name` is a temporary file's name beside a file named `targetName` (both without a directory).
    static func isTemporary(_ name: String, of targetName: String) -> Bool {
        guard name.hasPrefix(targetName + suffixStart) else { return false }
        let suffix = name.utf8.dropFirst(targetName.utf8.count + suffixStart.utf8.count)
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        return (1...7).contains(suffix.count) && suffix.allSatisfy { digits.contains($0) || letters.contains($0) }
    }

    /// Creates a new file beside `target` and locks it. Another run's look at the directory (`Leftovers`) may
    /// find it in the moment before, take the lock and remove it as left over: the lock is waited for, and a file
    /// whose name is no longer its own is given up for another. Once it is locked under its name, nobody else
    /// takes it.
    private static func created(beside target: String, mode: mode_t) throws(SystemError) -> Created {
        for _ in 0..<100 {
            let candidate = candidate(beside: target)
            let file: FileDescriptor
            do throws(SystemError) {
                file = try Sys.open(candidate, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
            } catch where error.errno == EEXIST {
                continue
            }
            do throws(SystemError) {
                _ = try Sys.lockExclusively(file.rawValue, waiting: true)
                if let named = try Sys.status(ofPath: candidate), named.isSameFile(as: try Sys.status(file.rawValue)) {
                    return Created(path: candidate, descriptor: file)
                }
            } catch {
                Sys.unlink(candidate)
                throw error
            }
        }
        throw SystemError("open(\(target)\(suffixStart)*)", errno: EEXIST)
    }

    /// Puts this file in `target`'s place, over whatever is there. With `durable`, its data reaches the disk first
    /// and the rename after, so that a power loss leaves the old file or the new one, never a mix.
    package func place(durable: Bool) throws(SystemError) {
        if durable { try Sys.dataSync(fd) }
        try Sys.rename(path, to: target)
        placed = true
        if durable { try Sys.syncDirectory(of: target) }
    }

    /// Gives this file `target`'s name only if nothing has it (EEXIST otherwise), then drops its own name: a new
    /// file that appears whole, and never over another.
    ///
    /// A hard link does that; vfat, exFAT and many FUSE and SMB mounts have none (EPERM, EOPNOTSUPP), so there a
    /// rename that refuses to replace does, and where even that is not kept (EINVAL), a rename once the name is
    /// seen free: a file made at that name in between is replaced, as a rename between processes always could.
    package func placeNew(durable: Bool) throws(SystemError) {
        if durable { try Sys.dataSync(fd) }
        do throws(SystemError) {
            try Sys.link(path, target)
            placed = true
            Sys.unlink(path)
        } catch where error.errno == EPERM || error.errno == EOPNOTSUPP {
            do throws(SystemError) {
                try Sys.renameNoReplace(path, to: target)
            } catch where error.errno == EINVAL {
                guard try Sys.status(ofPath: target) == nil else { throw SystemError("rename(\(target))", errno: EEXIST) }
                try Sys.rename(path, to: target)
            }
            placed = true
        }
        if durable { try Sys.syncDirectory(of: target) }
    }

    package func discard() {
        guard !placed else { return }
        Sys.unlink(path)
        placed = true
    }
}
