import CommandLineOptions
import Events
import System
import Text
import UnifiedLog

/// `supervisor log show`: the entries of Apple's binary unified log, one JSON object a line with `log show`'s field
/// names, time-sorted.
enum LogCommand {
    /// The largest tracev3 file read: logd writes them of about 10 MB.
    static let fileLimit = 1 << 30

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        guard words.first == "show" else {
            throw UsageError("'log' needs 'show' and a .tracev3 file or a folder (see 'supervisor log --help')")
        }
        let options = Commands.log
        let arguments = try options.table.parse(words.dropFirst())
        guard arguments.arguments.count == 1, let path = arguments.arguments.first else {
            throw UsageError("'log show' takes one .tracev3 file or one folder")
        }
        let files = try traceFiles(path)
        guard !files.isEmpty else { throw RuntimeError("no .tracev3 file in '\(path)'") }
        let subsystems = Set(arguments.all(options.subsystem)), pids = Set(arguments.all(options.process))
        var entries: [LogEntry] = []
        var skipped = TraceFile.Skipped()
        for file in files {
            let trace: TraceFile
            do {
                trace = try TraceFile(try InputFile(file).readAll(limit: fileLimit))
            } catch let error as ChunkFailure {
                printError("supervisor: warning: \(file): not read: \(error.reason) (at byte \(error.offset))")
                continue
            }
            for failure in trace.failures {
                printError("supervisor: warning: \(file): \(failure.reason) (at byte \(failure.offset)); the rest read on")
            }
            entries += trace.entries.filter { entry in
                (subsystems.isEmpty || subsystems.contains(entry.subsystem)) && (pids.isEmpty || pids.contains(Int(entry.pid)))
            }
            skipped.add(trace.skipped)
        }
        // Time-sorted; entries of one moment keep the order they were written in.
        let sorted = entries.enumerated().sorted { ($0.element.wallNanoseconds, $0.offset) < ($1.element.wallNanoseconds, $1.offset) }
        var out = ""
        for (_, entry) in sorted {
            out += json(entry).text + "\n"
            if out.utf8.count > 1 << 16 {
                try writeStandardOutput(out)
                out = ""
            }
        }
        try writeStandardOutput(out)
        printError("log show: \(grouped(entries.count)) entries from \(files.count) \(files.count == 1 ? "file" : "files"); "
            + "not printed: \(skipped.activities) activities, \(skipped.traces) traces, \(skipped.signposts) signposts, "
            + "\(skipped.losses) losses")
        return 0
    }

    /// `path` if it is a file, else every `.tracev3` file under it, sorted; symbolic links are not followed into.
    static func traceFiles(_ path: String) throws -> [String] {
        let named = try UserPath(path, for: "read")
        guard let status = named.status else { throw UsageError("'\(path)': no such file or folder") }
        guard status.isDirectory else { return [path] }
        var found: [String] = []
        var folders = [path]
        while let folder = folders.popLast() {
            for name in try Sys.directoryEntries(folder).sorted() where !name.hasPrefix("._") {
                let child = folder + "/" + name
                guard let kind = try? Sys.status(ofPath: child) else { continue }
                if kind.isDirectory { folders.append(child) } else if kind.isRegular, name.hasSuffix(".tracev3") { found.append(child) }
            }
        }
        return found.sorted()
    }

    /// One entry with Apple's field names (`log show --style ndjson`).
    static func json(_ entry: LogEntry) -> JSON {
        .object([
            ("timestamp", .string(timestamp(entry.wallNanoseconds))), ("machTimestamp", .int(Int(clamping: entry.continuousTime))),
            ("processID", .int(Int(entry.pid))), ("threadID", .int(Int(clamping: entry.thread))),
            ("eventType", .string(entry.eventType.rawValue)),
            ("messageType", entry.messageType.map { .string($0.rawValue) } ?? .null),
            ("subsystem", .string(entry.subsystem)), ("category", .string(entry.category)),
            ("activityIdentifier", .int(Int(clamping: entry.activityID))), ("eventMessage", .string(entry.message)),
        ])
    }

    /// `2022-05-30 00:38:21.053672+0000`: UTC, to the microsecond, as `log show` writes a time.
    static func timestamp(_ nanoseconds: Int) -> String {
        let (date, time, _) = calendarParts(nanoseconds, local: false)
        return "\(date) \(time)+0000"
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
