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
        let start = Sys.monotonicNanoseconds()
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
        let (entries, strings) = archive.entries(keep: filtered ? { keeps($0.pid, $0.processImagePath, $0.subsystem) } : nil)
        var out: [UInt8] = []
        var clock = NDJSONClock()
        var printed = 0
        for entry in entries where !filtered || keeps(entry.pid, entry.processImagePath, entry.subsystem) {
            entry.appendNDJSON(to: &out, clock: &clock)
            printed += 1
            if out.count > 1 << 16 {
                try writeStandardOutput(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try writeStandardOutput(out)
        for note in archive.notes(entries, strings: strings) { printError("supervisor: warning: \(note)") }
        let files = archive.traceFiles.count
        let skipped = entries.skipped
        var stats = ""
        if arguments[options.stats] {
            let seconds = Double(Sys.monotonicNanoseconds() - start) / 1e9
            stats = "; \(fixed(seconds, 3)) s" + (Sys.peakResidentBytes().map { "; peak memory \(fixed(Double($0) / Double(1 << 20), 1)) MiB" } ?? "")
        }
        printError("log show: \(grouped(printed)) entries from \(files) \(files == 1 ? "file" : "files"); "
            + "not printed: \(skipped.activities) activities, \(skipped.traces) traces, \(skipped.signposts) signposts, "
            + "\(skipped.losses) losses" + stats)
        return 0
    }
}
