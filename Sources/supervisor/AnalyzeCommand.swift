import Charts
import Core
import CShim
import CommandLineOptions
import Events
import Glibc
import LogAnalysis
import System
import Text

/// `supervisor analyze`: finds kill-before-render incidents (and other WebContent deaths) in our logs and in real
/// iOS and macOS device logs.
enum AnalyzeCommand {
    /// Exit status when `--fail-on` finds what it names.
    static let foundStatus: Int32 = 3

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.analyze
        // Every check comes before any reading: a typo costs nothing.
        let arguments = try options.table.parse(words)
        let storyPID = arguments[options.timeline]
        let failOn = arguments[options.failOn] ?? []
        let zone = arguments[options.zone]
        guard !arguments.arguments.isEmpty else {
            throw UsageError("no logs to analyze: give files, a directory, or - for standard input")
        }
        guard arguments.arguments.count(where: { $0 == "-" }) <= 1 else { throw UsageError("'-' (standard input) can be given once") }
        let inputs = try LogInputs(arguments.arguments)
        var truthPaths = arguments.all(options.truth)
        for path in truthPaths where access(path + ".jetsam.jsonl", R_OK) == 0 && !truthPaths.contains(path + ".jetsam.jsonl") {
            truthPaths.append(path + ".jetsam.jsonl")
        }
        let truthInputs = try truthPaths.isEmpty ? nil : LogInputs(truthPaths)
        let force = arguments[options.force]
        let wanted = [
            (arguments[options.svg], DocumentKinds.chart), (arguments[options.html], DocumentKinds.report),
            (arguments[options.replay], ReplayExport.outputKind),
        ]
        let outputs = wanted.compactMap { path, kind in path.map { ($0, kind) } }
        guard outputs.count(where: { OutputFile.namesStandardOutput($0.0) }) <= 1 else {
            throw UsageError("standard output ('-') can take one output")
        }
        if !outputs.isEmpty {
            var roles = FileRoles()
            for input in inputs.files + (truthInputs?.files ?? []) where !input.isStandardInput {
                try roles.reads(input.name, as: "a log to analyze")
            }
            for (path, kind) in outputs { try roles.writes(path, kind, force: force, standardOutput: true) }
        }
        let opened = try wanted.map { path, kind in
            try path.map { try OutputFile($0, kind: kind, force: force, standardOutputAllowed: true) }
        }
        let (svg, html, replay) = (opened[0], opened[1], opened[2])
        _ = sv_ignore_signal(SIGPIPE)

        let started = Sys.monotonicNanoseconds()
        let progress = ByteProgress(total: inputs.totalBytes + (truthInputs?.totalBytes ?? 0))
        // Times written without a zone are read in the zone the other files write, else this machine's.
        let assumed = ZoneAssumption(option: zone, written: inputs.writtenClocks())
        let report = try analyze(inputs, story: storyPID, zone: assumed, progress: progress, replay: replay != nil)
        let truth = try truthInputs.map { try analyze($0, story: nil, zone: assumed, progress: progress) }
        progress.finish()
        if let truth {
            let foreign = truth.formatLines.keys.filter { $0 != .eventLog && $0 != .jetsamLog }
            guard foreign.isEmpty else {
                throw RuntimeError("'--truth' takes a run's JSON Lines logs, not \(foreign.map(\.rawValue).joined(separator: ", ")) lines")
            }
            if let first = truth.firstSchemaError {
                let more = truth.schemaErrors > 1 ? " (and \(truth.schemaErrors - 1) more)" : ""
                throw RuntimeError("'--truth': the event log does not fit its schema: \(visible(first))\(more)")
            }
        }
        let unplaced = zip(report.files, report.placed).filter { $0.1 == 0 }.map(\.0)
        guard unplaced.count < report.files.count else {
            switch report.files.count {
            case 0: throw RuntimeError("no file in the input could be read as a log (see the warnings above)")
            case 1: throw RuntimeError("\(visible(report.files[0])): no line in a format analyze reads")
            default: throw RuntimeError("no line in any of the \(report.files.count) inputs is in a format analyze reads")
            }
        }
        if !unplaced.isEmpty {
            printError("supervisor: warning: \(unplaced.count == 1 ? "\(visible(unplaced[0])) has" : "\(unplaced.count) files have") "
                + "no line in a format analyze reads" + (unplaced.count == 1 ? "" : ": " + listed(unplaced)))
        }
        if let first = report.firstSchemaError {
            let more = report.schemaErrors > 1 ? " (and \(report.schemaErrors - 1) more)" : ""
            printError("supervisor: warning: a record of our own logs that does not fit its schema was not read: \(visible(first))\(more)")
        }
        try svg?.write(SwimLanes(report: report, title: inputs.title).svg)
        try html?.write(HTMLReport(report: report, title: inputs.title).page)
        try svg?.commit()
        try html?.commit()
        var replayNote: String?
        if let replay {
            let export = report.replay
            try replay.write(export.text)
            try replay.commit()
            replayNote = export.summary(path: replay.isStandardOutput ? "standard output" : replay.path)
        }
        var output: String
        if arguments[options.json] {
            var json = report.json
            if case .object(var fields) = json {
                if let storyPID { fields.append(("timeline", report.storyJSON(of: storyPID))) }
                if let truth {
                    let comparison = TruthComparison(truth: truth, found: report)
                    fields += [("truth", comparison.json), ("truthReasons", comparison.reasonsJSON)]
                }
                if arguments[options.stats] { fields.append(("stats", stats(report, since: started).json)) }
                json = .object(fields)
            }
            output = json.text
        } else {
            output = report.text
            if let replayNote { output += "\n\n" + wrapped(replayNote).joined(separator: "\n") }
            if let storyPID { output += "\n\n" + report.story(of: storyPID) }
            if let truth {
                output += "\n\n" + wrapped("Against the truth in \(truth.files.map(visible).joined(separator: ", ")):", indent: 2)
                    .joined(separator: "\n") + "\n"
                output += TruthComparison(truth: truth, found: report).text
            }
            if arguments[options.stats] { output += "\n" + stats(report, since: started).text }
        }
        // With an output on standard output, the report goes beside it, not into it.
        var read = true
        if opened.contains(where: { $0?.isStandardOutput == true }) {
            writeStandardError(output + "\n")
        } else {
            read = try writeStandardOutputWhileRead(output + "\n")
        }
        // A gate's status outlives a reader that stopped early (`analyze … --fail-on … | head`).
        if let gate = gateLine(failOn, report) {
            // A CI log shows standard error first: the gate says why the step failed, in one line.
            printError(gate.line)
            if gate.tripped { return foundStatus }
        }
        if !read { endOnClosedPipe() }
        return 0
    }

    /// What `--fail-on` says: what it found, and whether that trips it; or, when nothing tripped it, that the input
    /// was inconclusive. RunningBoard's error naming no pid is a possible kill before render (which process, and
    /// whether it had rendered, the input does not say), so it trips a gate taking possible ones.
    static func gateLine(_ gates: [IncidentGate], _ report: AnalysisReport) -> (line: String, tripped: Bool)? {
        guard !gates.isEmpty else { return nil }
        var found = gates.compactMap { gate in
            let count = report.count(gate.kind, atLeast: gate.atLeast)
            let surer = gate.atLeast == .possible ? "" : " (\(gate.atLeast.rawValue) or surer)"
            return count > 0 ? "\(grouped(count)) \(gate.kind.rawValue)\(surer)" : nil
        }
        let errors = report.unexplainedErrors
        let unexplained = "\(grouped(errors)) RunningBoard \(errors == 1 ? "error" : "errors") naming no pid"
        if errors > 0, gates.contains(where: { $0.kind == .killedBeforeRender && $0.atLeast == .possible }) {
            found.append(unexplained + " (each a possible killed-before-render)")
        }
        if !found.isEmpty {
            return ("supervisor: --fail-on: found \(found.joined(separator: ", ")); exit status \(foundStatus)", true)
        }
        guard errors > 0 else { return nil }
        return ("supervisor: --fail-on: found none, but \(unexplained) left the analysis inconclusive", false)
    }

    /// How long the analysis took and the most memory it held (its own VmHWM).
    struct Stats {
        let seconds: Double
        let bytes: Int
        let peakRSSBytes: Int?

        var json: JSON {
            .object([
                ("seconds", .double(seconds)), ("bytesRead", .int(bytes)),
                ("peakRSSBytes", peakRSSBytes.map(JSON.int) ?? .null),
            ])
        }

        /// `Took 2.9 s for 300 MB (103 MB/s)`, `Took 850 µs for 2 KB`: each figure in the unit that shows it, and a
        /// rate only for a megabyte or more read over a tenth of a second, where it measures the reading.
        var text: String {
            let size = bytes >= 1 << 20 ? "\(grouped(bytes >> 20)) MB" : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : counted(bytes, "byte")
            let rate = seconds >= 0.1 && bytes >= 1 << 20 ? " (\(grouped(Int(Double(bytes >> 20) / seconds))) MB/s)" : ""
            let peak = peakRSSBytes.map { "; peak memory \(Double(($0 * 10) >> 20) / 10) MiB" } ?? ""
            return "Took \(duration(Int(seconds * 1e6))) for \(size)\(rate)\(peak)."
        }
    }

    private static func stats(_ report: AnalysisReport, since start: Int) -> Stats {
        Stats(seconds: Double(Sys.monotonicNanoseconds() - start) / 1e9, bytes: report.bytesRead, peakRSSBytes: Sys.peakResidentBytes())
    }

    private static func analyze(
        _ inputs: LogInputs, story: Int32?, zone: ZoneAssumption, progress: ByteProgress,
        replay: Bool = false
    ) throws -> AnalysisReport {
        let analyzer = LogAnalyzer(LogAnalyzer.Options(story: story, zone: zone, replay: replay))
        try inputs.read(into: analyzer, progress: progress)
        let said = analyzer.readingNotes.count
        let report = analyzer.finish()
        // What a process listing says of the incidents is known only once they are.
        for note in analyzer.readingNotes.dropFirst(said) { printError("supervisor: warning: \(note)") }
        return report
    }
}

/// `analyze: 512 MB of 1,024 MB` on a terminal, for inputs over 64 MB.
final class ByteProgress {
    private let total: Int
    private let enabled: Bool
    var done = 0
    private var drawn = false

    init(total: Int) {
        self.total = total
        enabled = isatty(2) == 1 && total > 64 << 20
    }

    func show(_ bytes: Int) {
        guard enabled else { return }
        drawn = true
        writeStandardError("\r\u{1B}[Kanalyze: \(bytes >> 20) MB of \(total >> 20) MB")
    }

    func finish() {
        if drawn { writeStandardError("\r\u{1B}[K") }
    }
}
