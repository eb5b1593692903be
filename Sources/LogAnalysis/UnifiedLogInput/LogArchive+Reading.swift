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
    mutating func add(_ bytes: [UInt8], name: String, strings: FormatStrings, keep: ((EntryWriter) -> Bool)?) {
        let trace: TraceFile
        do throws(ChunkFailure) { trace = try TraceFile(bytes, strings: strings, keep: keep) } catch {
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
    /// Reads every tracev3 file, keeping the log entries `keep` keeps (all without it), in time order.
    public func read(keep: ((EntryWriter) -> Bool)? = nil) -> ArchiveReading {
        var reading = ArchiveReading()
        let strings = strings()
        for file in traceFiles {
            do {
                reading.add(try InputFile(file).readAll(limit: Self.fileLimit), name: file, strings: strings, keep: keep)
            } catch {
                reading.notes.append("\(error)")
            }
        }
        reading.finish(strings: strings, root: root)
        return reading
    }

    /// What `analyze` reads of an archive: WebKit's and RunningBoard's subsystems, the kernel (memorystatus), and
    /// apps (their own lines may carry WebKit's errors). The rest is passed over before its message is made.
    public static func analysisKeeps(_ writer: EntryWriter) -> Bool {
        writer.pid == 0 || writer.subsystem.hasPrefix("com.apple.WebKit") || writer.subsystem.hasPrefix("com.apple.runningboard")
            || writer.subsystem == "com.apple.RunningBoardServices" || writer.processImagePath.contains("/Bundle/Application/")
            || writer.processImagePath.hasPrefix("/Applications/")
    }
}

extension TraceFile.Skipped {
    mutating func add(_ other: Self) {
        activities += other.activities
        traces += other.traces
        signposts += other.signposts
        losses += other.losses
    }
}
