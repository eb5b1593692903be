import Glibc

/// The temporary files (`TemporaryFile`) that runs left beside a file: an output never committed, a save never
/// renamed into place. Each is found by its name and told apart by its lock, which its maker holds until it closes
/// it: one that a live process holds is being written now (another run on the same file); one nobody holds was
/// left by a process that died (SIGKILL, a trap, a power loss). A file nobody holds is handed over only when it is
/// empty or its first bytes are what the file beside it holds, so that a file of the user's that happens to have
/// such a name is never touched.
package enum Leftovers {
    /// A temporary file beside the target that a live process holds.
    package struct InUse {
        package let path: String
        /// As /proc/locks names it; nil when it does not.
        package let pid: Int32?
    }

    /// A temporary file nobody held, whose content is ours: the caller removes or keeps it, while this process
    /// holds its lock, so that two runs looking at once never both act on it.
    package struct Orphan {
        package let path: String
        package let status: Sys.FileStatus
    }

    /// How much of a file is read to tell whose it is.
    package static let headSize = 4096

    /// Looks at every temporary file beside `target` but `own`: those a live process holds are returned; each one
    /// nobody holds that is empty or that `ours` accepts by its first bytes goes to `orphan`, oldest first.
    /// Anything else (not a regular file, not ours, gone meanwhile) is left alone. A directory that cannot be
    /// listed has nothing to find.
    package static func find(
        beside target: String, except own: String? = nil, ours: (ArraySlice<UInt8>) -> Bool, orphan: (Orphan) -> Void
    ) -> [InUse] {
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let prefix = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        guard let entries = try? Sys.directoryEntries(prefix.isEmpty ? "." : prefix) else { return [] }
        let candidates = entries.filter { TemporaryFile.isTemporary($0, of: name) }.map { prefix + $0 }
            .filter { $0 != own }
            .compactMap { path in (try? Sys.status(ofPath: path)).map { (path, $0) } }
            .filter { $0.1.isRegular }
            .sorted { $0.1.modified < $1.1.modified }
        var inUse: [InUse] = []
        for (path, seen) in candidates {
            guard let file = try? Sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY) else { continue }
            guard let status = try? Sys.status(file.rawValue), status.isSameFile(as: seen) else { continue }
            guard (try? Sys.lockExclusivelyWaitingOutOurOwn(file.rawValue, status: status)) == true else {
                inUse.append(InUse(path: path, pid: Sys.lockHolder(of: status)))
                continue
            }
            // Named again by now (a commit's rename or link) or taken away: no longer left over.
            guard let now = try? Sys.status(ofPath: path), now.isSameFile(as: status) else { continue }
            guard let head = try? Sys.read(file.rawValue, count: headSize, at: 0), head.isEmpty || ours(head[...]) else {
                continue
            }
            orphan(Orphan(path: path, status: status))
        }
        return inUse
    }
}
