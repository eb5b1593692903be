import CommandLineOptions
import System

/// Every file a command will read or write, by the role it plays, checked before any of them is opened: each name
/// must be something the command can use (a regular file, or nothing yet where one is written), and no file may be
/// written in one role and read or written in another (`--log X --journal X`, `analyze X --svg X`): that would
/// destroy what it names.
struct FileRoles {
    private var files: [(role: String, path: UserPath, writes: Bool)] = []

    /// A file the command reads.
    mutating func reads(_ path: String, as role: String) throws {
        try add(path, role, writes: false, action: "read")
    }

    /// A file the command writes as `kind`, refused here (before anything is opened) unless it may take that
    /// name (see `OutputFile.check`). Standard output, where `standardOutput` allows it, plays no role; elsewhere
    /// it is refused, as `-` would otherwise be a file named `-`.
    mutating func writes(_ path: String, _ kind: OutputKind, force: Bool, standardOutput: Bool = false) throws {
        if OutputFile.namesStandardOutput(path) {
            guard standardOutput else {
                throw UsageError("\(kind.role) cannot be written to standard output ('\(path)'): name a file")
            }
            return
        }
        try add(path, kind.role, writes: true, action: "write")
        _ = try OutputFile.check(path, kind: kind, force: force)
    }

    /// A file the command reads and writes: a session, a journal.
    mutating func uses(_ path: String, as role: String) throws {
        try add(path, role, writes: true, action: "use")
    }

    private mutating func add(_ path: String, _ role: String, writes: Bool, action: String) throws {
        let named = try UserPath(path, for: action)
        if let status = named.status, !status.isRegular, !(status.isDirectory && !writes) {
            throw FileError(path, action, .notRegular(status.kindName))
        }
        for other in files where other.path.identity == named.identity && (writes || other.writes) {
            let same = other.path.given == path ? "'\(path)'" : "'\(path)' and '\(other.path.given)' (one file)"
            throw UsageError("\(same) cannot be both \(other.role) and \(role)")
        }
        files.append((role, named, writes))
    }
}
