import System
import Text
import UnifiedLog

/// An archive read: its entries in time order, and what the reading could not do.
public struct ArchiveReading {
    public var entries: [LogEntry] = []
    public var stateDumps: [StateDumpRecord] = []
    /// One line per part that could not be read: a file, a chunk.
    public var notes: [String] = []
    public var skipped = TraceFile.Skipped()
    /// Log entries not kept, by who wrote them.
    public var passedOver = 0
    /// Entries kept whose format string is not in the archive (their messages are empty), and the strings files
    /// missing.
    public var unformatted = 0
    public var missingStrings: [String: String] = [:]
}

extension ArchiveReading {
    /// Reads one tracev3 file, `name` in the notes, into the reading.
    mutating func add(_ bytes: [UInt8], name: String, strings: FormatStrings, timesync: Timesync, keep: ((EntryWriter) -> Bool)?) {
        let trace: TraceFile
        do throws(ChunkFailure) { trace = try TraceFile(bytes, strings: strings, timesync: timesync, keep: keep) } catch {
            return notes.append("\(visible(name)): not read: \(error.reason) (at byte \(error.offset))")
        }
        for failure in trace.failures {
            notes.append("\(visible(name)): \(failure.reason) (at byte \(failure.offset)); the rest read on")
        }
        entries += trace.entries
        stateDumps += trace.stateDumps
        skipped.add(trace.skipped)
        passedOver += trace.passedOver
        unformatted += trace.unformatted
    }

    /// Sorts the entries by time (those of one moment in the order read) and says what `strings` lacked.
    mutating func finish(strings: FormatStrings, root: String?) {
        entries = entries.enumerated()
            .sorted { ($0.element.wallNanoseconds, $0.offset) < ($1.element.wallNanoseconds, $1.offset) }.map(\.element)
        missingStrings = strings.missing
        if unformatted > 0 {
            notes.append("\(grouped(unformatted)) entries have no message: \(strings.missing.count) strings files are "
                + "not in the archive (\(root.map { visible($0) } ?? "no root found with a dsc, timesync or uuidtext folder"))")
        }
    }
}

extension LogArchive {
    /// Every tracev3 file's entries that `keep` keeps (all without it), in time order, a chunkset at a time: each
    /// read opens its file, reads a range and closes it, so that an archive of any number of files stays within the
    /// descriptor limit.
    public func entries(keep: ((EntryWriter) -> Bool)? = nil) -> (entries: MergedEntries, strings: FormatStrings) {
        let strings = strings()
        var inputs: [MergedEntries.Input] = []
        for path in traceFiles {
            guard let size = try? InputFile(path).status.size else { continue }
            inputs.append(MergedEntries.Input(name: path, size: size) { range in
                let file = try InputFile(path)
                return try Sys.read(file.fd, count: range.count, at: range.lowerBound)
            })
        }
        return (MergedEntries(inputs, strings: strings, timesync: timesync(), keep: keep), strings)
    }

    /// The boots' clocks, from the root's `timesync/*.timesync` files (none when there is no such folder).
    func timesync() -> Timesync {
        var timesync = Timesync()
        guard let root, let names = try? Sys.directoryEntries(root + "/timesync") else { return timesync }
        for name in names.sorted() where name.hasSuffix(".timesync") && !name.hasPrefix("._") {
            if let bytes = try? InputFile(root + "/timesync/" + name).readAll(limit: Self.fileLimit) { timesync.add(bytes) }
        }
        return timesync
    }

    /// What went wrong in reading `entries` (after they were all read), one note each: a file or chunk not read, the
    /// strings files missing.
    public func notes(_ entries: MergedEntries, strings: FormatStrings) -> [String] {
        var notes = entries.failures.map { "\(visible($0.file)): \($0.failure.reason) (at byte \($0.failure.offset))" }
        if entries.unformatted > 0 {
            notes.append("\(grouped(entries.unformatted)) entries have no message: \(strings.missing.count) strings files are "
                + "not in the archive (\(root.map { visible($0) } ?? "no root found with a dsc, timesync or uuidtext folder"))")
        }
        return notes
    }

    /// What `analyze` reads of an archive: WebKit's and RunningBoard's subsystems, the kernel (memorystatus), and
    /// apps (their own lines may carry WebKit's errors). The rest is passed over before its message is made.
    public static func analysisKeeps(_ writer: EntryWriter) -> Bool {
        writer.pid == 0 || writer.subsystem.hasPrefix("com.apple.WebKit") || writer.subsystem.hasPrefix("com.apple.runningboard")
            || writer.subsystem == "com.apple.RunningBoardServices" || appPaths.contains { writer.processImagePath.hasPrefix($0) }
    }

    /// Where iOS keeps apps: the App Store's and the system's.
    private static let appPaths = ["/private/var/containers/Bundle/Application/", "/var/containers/Bundle/Application/", "/Applications/"]
}
