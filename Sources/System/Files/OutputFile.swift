import Glibc

/// A file a command writes, opened before the work starts, so that a name that cannot be written fails at once,
/// and placed so that no file is destroyed by accident: `-` is standard output (where allowed), a name nothing
/// stands at is created exclusively, and an existing regular file is replaced only when the work is done
/// (`commit`), in one step, by a complete new file written beside it. Anything else at the name (a FIFO, a device,
/// a directory) is refused before it is opened. An output never committed is removed, and a file it was to
/// replace is left as it was.
public final class OutputFile {
    /// As the user gave it.
    public let path: String
    /// Where the output's bytes go now.
    public let fd: Int32
    /// The file created at the name, which this output owns; nil for standard output and a replacement, whose
    /// temporary file owns its own.
    private let created: FileDescriptor?
    private let placement: Placement
    private var finished = false

    private enum Placement {
        case standardOutput
        case new(resolved: String, status: Sys.FileStatus)
        case replacing(TemporaryFile)
    }

    public init(_ path: String, standardOutputAllowed: Bool = false) throws(FileError) {
        self.path = path
        if standardOutputAllowed && Self.namesStandardOutput(path) {
            placement = .standardOutput
            fd = 1
            created = nil
            return
        }
        let named = try UserPath(path, for: "write")
        try named.requireRegularOrAbsent("write")
        do throws(SystemError) {
            if let existing = named.status {
                let temporary = try TemporaryFile(beside: named.resolved, permissions: existing.permissions)
                placement = .replacing(temporary)
                fd = temporary.fd
                created = nil
            } else {
                let opened = FileDescriptor(try Sys.open(named.resolved, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW))
                do throws(SystemError) {
                    placement = .new(resolved: named.resolved, status: try Sys.status(opened.rawValue))
                } catch {
                    Sys.unlink(named.resolved)
                    throw error
                }
                fd = opened.rawValue
                created = consume opened
            }
        } catch {
            throw FileError(path, "write", error)
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Whether `path` is `-`, or names the file on descriptor 1 (`/dev/stdout`, `/proc/self/fd/1`).
    public static func namesStandardOutput(_ path: String) -> Bool {
        guard path != "-" else { return true }
        guard let named = try? Sys.status(ofPath: path, following: true), let standard = try? Sys.status(1) else { return false }
        return named.isSameFile(as: standard)
    }

    public var isStandardOutput: Bool {
        if case .standardOutput = placement { return true }
        return false
    }

    /// Writes all of `text`: a full disk or a closed pipe is an error, not a loss.
    public func write(_ text: String) throws(FileError) {
        do throws(SystemError) { try Sys.write(text, to: fd) } catch {
            throw FileError(isStandardOutput ? "standard output" : path, "write", error)
        }
    }

    /// The output is complete: a replacement takes the old file's place now.
    public func commit() throws(FileError) {
        guard !finished else { return }
        finished = true
        guard case .replacing(let temporary) = placement else { return }
        do throws(SystemError) { try temporary.place(durable: false) } catch {
            throw FileError(path, "write", error)
        }
    }

    /// Removes what was written: the new file, or the replacement that was never placed.
    public func discard() {
        guard !finished else { return }
        finished = true
        switch placement {
        case .standardOutput: break
        case .replacing(let temporary): temporary.discard()
        case .new(let resolved, let status):
            // Only if the name still holds the file created here.
            if let now = try? Sys.status(ofPath: resolved), now.isSameFile(as: status) { Sys.unlink(resolved) }
        }
    }
}
