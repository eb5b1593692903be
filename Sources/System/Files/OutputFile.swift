import Glibc
import Text

/// A file a command writes, opened before the work starts, so that a name that cannot be written fails at once,
/// and placed so that no file is destroyed by accident and no half-written one is seen where it should not be.
///
/// `-` is standard output (where allowed). Anything else is written to a temporary file beside the name, which
/// takes the name only when the work is done (`commit`), in one step: a new file appears whole, an existing one is
/// replaced whole. Until then the name holds what it held, so a command that fails, is interrupted or dies leaves
/// no empty or partial output; its temporary file goes with it (`UnwrittenOutputs`) or, after a death nothing can
/// catch, is found by the next run on the same name (`Leftovers`). A run's log under a new name is the exception
/// (`OutputKind.isLog`): it takes the name at once, locked, so that it can be followed as the run goes.
///
/// What stands at the name is checked first (`check`): a file is replaced only when it is empty or of the same
/// kind as the output (an earlier run's log, an older chart), unless `force` insists. A symbolic link is refused
/// (through it, any file the user can write could be replaced), and a FIFO, a device or a directory is never
/// opened. Another run writing the same name now is refused, naming its pid.
public final class OutputFile {
    /// As the user gave it.
    public let path: String
    public let kind: OutputKind
    /// Where the output's bytes go now.
    public let fd: Int32
    private let force: Bool
    /// The file written; nil for standard output.
    private let file: TemporaryFile?
    private let placement: Placement
    private var state = State.open
    /// Its entry among `UnwrittenOutputs`, until it is placed or given up.
    private var registration: Int?

    private enum Placement {
        case standardOutput
        /// Beside the name, to take it at `commit` from what stood there when it was opened (nil: nothing).
        case beside(replacing: Sys.FileStatus?)
        /// At the name from the start: a new log, this file.
        case atName(Sys.FileStatus)
    }

    private enum State {
        case open, committed, discarded
    }

    public init(
        _ path: String, kind: OutputKind, force: Bool = false, standardOutputAllowed: Bool = false
    ) throws(FileError) {
        self.path = path
        self.kind = kind
        self.force = force
        if standardOutputAllowed && Self.namesStandardOutput(path) {
            (placement, file, fd) = (.standardOutput, nil, 1)
            return
        }
        guard path != "-" else { throw FileError(path, "write", .notRegular("standard output")) }
        let replacing = try Self.check(path, kind: kind, force: force)
        let temporary: TemporaryFile
        do throws(SystemError) { temporary = try TemporaryFile(beside: path, permissions: replacing?.permissions) } catch {
            throw FileError(path, "write", error)
        }
        let others = Leftovers.find(beside: path, except: temporary.path, ours: kind.recognises) { orphan in
            Self.handle(orphan, of: path, kind: kind)
        }
        if let other = others.first ?? Self.holder(of: path) {
            temporary.discard()
            throw FileError(path, "write", .inUse(pid: other.pid))
        }
        let atName = kind.isLog && replacing == nil
        if atName {
            do throws(SystemError) {
                let status = try Sys.status(temporary.fd)
                try temporary.placeNew(durable: false)
                placement = .atName(status)
            } catch {
                throw FileError(path, "write", error)
            }
        } else {
            placement = .beside(replacing: replacing)
        }
        file = temporary
        fd = temporary.fd
        registration = UnwrittenOutputs.add(path, removing: atName ? path : temporary.path)
    }

    deinit {
        if case .open = state { discard() }
    }

    /// Whether `path` is `-`, or names the file on descriptor 1 (`/dev/stdout`, `/proc/self/fd/1`).
    public static func namesStandardOutput(_ path: String) -> Bool {
        guard path != "-" else { return true }
        guard let named = try? Sys.status(ofPath: path, following: true), let standard = try? Sys.status(1) else {
            return false
        }
        return named.isSameFile(as: standard)
    }

    /// Throws unless an output of `kind` may take the name `path`; returns what stands there now (nil: nothing).
    /// Checked before any work, and again when the output is placed if the name changed meanwhile.
    public static func check(_ path: String, kind: OutputKind, force: Bool) throws(FileError) -> Sys.FileStatus? {
        guard !path.isEmpty else { throw FileError(path, "write", .notRegular("an empty name")) }
        let found: Sys.FileStatus?
        do throws(SystemError) { found = try Sys.status(ofPath: path) } catch { throw FileError(path, "write", error) }
        guard let found else { return nil }
        guard found.type != S_IFLNK else { throw FileError(path, "write", .symbolicLink) }
        guard found.isRegular else { throw FileError(path, "write", .notRegular(found.kindName)) }
        guard !force, found.size > 0 else { return found }
        let head: [UInt8]
        do throws(SystemError) {
            let file = try Sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
            head = try Sys.read(file.rawValue, count: Leftovers.headSize, at: 0)
        } catch {
            throw FileError(path, "write", error)
        }
        guard head.isEmpty || kind.recognises(head[...]) else { throw FileError(path, "write", .notOutput(kind.name)) }
        return found
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

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        do throws(SystemError) { try Sys.write(bytes, to: fd) } catch {
            throw FileError(isStandardOutput ? "standard output" : path, "write", error)
        }
    }

    /// The output is complete: it takes its name now, over what stood there if that is still what was checked
    /// (or passes the check again). With `durable`, its data is on the disk before it has the name, and the name
    /// after.
    public func commit(durable: Bool = false) throws(FileError) {
        guard case .open = state else { return }
        if case .beside(let replacing) = placement, let file {
            do throws(FileError) {
                let now: Sys.FileStatus?
                do throws(SystemError) { now = try Sys.status(ofPath: path) } catch { throw FileError(path, "write", error) }
                let unchanged = switch (now, replacing) {
                case (nil, nil): true
                case (let now?, let replacing?): now.isSameFile(as: replacing)
                default: false
                }
                let standing = unchanged ? now : try Self.check(path, kind: kind, force: force)
                do throws(SystemError) {
                    if standing == nil { try file.placeNew(durable: durable) } else { try file.place(durable: durable) }
                } catch {
                    throw FileError(path, "write", error)
                }
            } catch {
                discard()
                throw error
            }
        }
        state = .committed
        registration.map { UnwrittenOutputs.remove($0, written: true) }
    }

    /// Gives the output up: what was written is removed, and whatever stood at the name stays as it was.
    public func discard() {
        guard case .open = state else { return }
        state = .discarded
        switch placement {
        case .standardOutput: return
        case .beside: file?.discard()
        case .atName(let status):
            // Only if the name still holds the file made here.
            if let now = try? Sys.status(ofPath: path), now.isSameFile(as: status) { Sys.unlink(path) }
        }
        registration.map { UnwrittenOutputs.remove($0, written: false) }
    }

    /// The file at `path` if a live process holds it locked: a run writing its log there now.
    private static func holder(of path: String) -> Leftovers.InUse? {
        guard let file = try? Sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY) else { return nil }
        guard let status = try? Sys.status(file.rawValue), status.isRegular,
            (try? Sys.lockExclusivelyWaitingOutOurOwn(file.rawValue, status: status)) == false
        else { return nil }
        return Leftovers.InUse(path: path, pid: Sys.lockHolder(of: status))
    }

    // MARK: - Leftovers

    /// What becomes of a temporary file an earlier run on `path` left: a second name of the file `path` holds (a
    /// commit cut short) goes; so does any other, unless its kind is worth keeping: then it is kept as
    /// `PATH.unfinished` (replacing an earlier one there), and said once.
    private static func handle(_ orphan: Leftovers.Orphan, of path: String, kind: OutputKind) {
        let standing = try? Sys.status(ofPath: path)
        guard kind.isLog, standing?.isSameFile(as: orphan.status) != true, orphan.status.size > 0 else {
            Sys.unlink(orphan.path)
            return
        }
        let kept = path + ".unfinished"
        var placed = true
        do throws(FileError) {
            _ = try check(kept, kind: kind, force: false)
            do throws(SystemError) { try Sys.rename(orphan.path, to: kept) } catch { placed = false }
        } catch {
            placed = false
        }
        let place = placed ? "kept as '\(visible(kept))'" : "left in '\(visible(orphan.path))'"
        printError("supervisor: warning: \(kind.role) of an earlier run on '\(visible(path))' that did not end is \(place)")
    }
}
