import CommandLineOptions
import Events
import LogAnalysis
import System
import Text
import UnifiedLog

/// `supervisor log show`: the entries of Apple's binary unified log, one JSON object a line with `log show`'s field
/// names, time-sorted.
enum LogCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        guard words.first == "show" else {
            throw UsageError("'log' needs 'show' and a .tracev3 file or a folder (see 'supervisor log --help')")
        }
        let options = Commands.log
        let arguments = try options.table.parse(words.dropFirst())
        guard arguments.arguments.count == 1, let path = arguments.arguments.first else {
            throw UsageError("'log show' takes one .tracev3 file or one folder")
        }
        guard (try? Sys.status(ofPath: path, following: true)) ?? nil != nil else {
            throw UsageError("'\(path)': no such file or folder")
        }
        let archive = try LogArchive(path)
        guard !archive.traceFiles.isEmpty else { throw RuntimeError("no .tracev3 file in '\(path)'") }
        let subsystems = Set(arguments.all(options.subsystem))
        let processes = arguments.all(options.process)
        let pids = Set(processes.compactMap { UInt32($0) }), names = Set(processes.filter { UInt32($0) == nil })
        let filtered = !subsystems.isEmpty || !processes.isEmpty
        func keeps(_ pid: UInt32, _ path: String, _ subsystem: String) -> Bool {
            (subsystems.isEmpty || subsystems.contains(subsystem))
                && (processes.isEmpty || pids.contains(pid) || names.contains(String(path.split(separator: "/").last ?? "")))
        }
        let reading = archive.read(keep: filtered ? { keeps($0.pid, $0.processImagePath, $0.subsystem) } : nil)
        for note in reading.notes { printError("supervisor: warning: \(note)") }
        var out = ""
        var printed = 0
        for entry in reading.entries where !filtered || keeps(entry.pid, entry.processImagePath, entry.subsystem) {
            out += entry.ndjson.text + "\n"
            printed += 1
            if out.utf8.count > 1 << 16 {
                try writeStandardOutput(out)
                out = ""
            }
        }
        try writeStandardOutput(out)
        let files = archive.traceFiles.count
        let skipped = reading.skipped
        printError("log show: \(grouped(printed)) entries from \(files) \(files == 1 ? "file" : "files"); "
            + "not printed: \(skipped.activities) activities, \(skipped.traces) traces, \(skipped.signposts) signposts, "
            + "\(skipped.losses) losses")
        return 0
    }
}
