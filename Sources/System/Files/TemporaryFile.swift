import Glibc

/// A new file beside `target`, under a name nobody else uses, that becomes `target` in one step once it is
/// complete (`rename`), or goes away (`discard`). It is created with O_EXCL | O_NOFOLLOW, so whatever already
/// stands at a name it tries (a symlink to someone's file, a FIFO, a file left by a crash) is never opened, only
/// passed over for another name.
package final class TemporaryFile {
    package let path: String
    package let target: String
    private let descriptor: FileDescriptor
    package var fd: Int32 { descriptor.rawValue }
    private var placed = false

    /// `permissions` are those of the file it will replace, so that replacing a file does not change who may
    /// read it.
    package init(beside target: String, permissions: mode_t = 0o644) throws(SystemError) {
        var opened: (path: String, fd: Int32)?
        for _ in 0..<100 where opened == nil {
            let candidate = "\(target).tmp-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
            do throws(SystemError) {
                opened = (candidate, try Sys.open(candidate, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode: permissions))
            } catch where error.errno == EEXIST {}
        }
        guard let opened else { throw SystemError("open(\(target).tmp-*)", errno: EEXIST) }
        path = opened.path
        descriptor = FileDescriptor(opened.fd)
        self.target = target
        // The umask must not narrow a copy of an existing file's permissions.
        do throws(SystemError) { try Sys.setMode(fd, permissions) } catch {
            discard()
            throw error
        }
    }

    deinit {
        if !placed { Sys.unlink(path) }
    }

    /// Puts this file in `target`'s place. With `durable`, its data reaches the disk first and the rename after,
    /// so that a power loss leaves the old file or the new one, never a mix.
    package func place(durable: Bool) throws(SystemError) {
        if durable { try Sys.dataSync(fd) }
        try Sys.rename(path, to: target)
        placed = true
        if durable { try Sys.syncDirectory(of: target) }
    }

    package func discard() {
        guard !placed else { return }
        Sys.unlink(path)
        placed = true
    }
}
