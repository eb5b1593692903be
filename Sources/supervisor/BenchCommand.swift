import Bench
import CommandLineOptions
import Events
import Glibc
import System

/// `supervisor bench`: the options checked before any work starts, then every metric beside its floor (the `Bench`
/// module), as a table or JSON.
enum BenchCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.bench
        let arguments = try options.table.parse(words)
        let scratch = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        guard access(scratch, W_OK) == 0 else { throw RuntimeError("cannot write the generated log in '\(scratch)'") }
        let benchmark = Benchmark(
            iterations: arguments[options.iterations], analyzeMegabytes: arguments[options.analyzeMegabytes],
            unifiedLogMegabytes: arguments[options.unifiedLogMegabytes], scaleWorkers: arguments[options.scaleWorkers], scratch: scratch,
            supervisor: RunCommand.siblingExecutable("supervisor"), step: step)
        let metrics: [Metric]
        if arguments[options.analyzeOnly] {
            metrics = try benchmark.analyze() + benchmark.unifiedLog()
        } else {
            let programs = Benchmark.Programs(
                worker: workerExecutable(arguments[options.worker]), portable: workerExecutable("portable"),
                probe: RunCommand.siblingExecutable("FoundationProbe"), floor: arguments[options.floor], bare: arguments[options.bare])
            guard access(programs.worker, X_OK) == 0 else {
                throw RuntimeError(
                    "worker executable not found at '\(programs.worker)' (build it with 'swift build' or pass --worker)")
            }
            if let floor = programs.floor, access(floor, X_OK) != 0 { throw RuntimeError("floor program not found at '\(floor)'") }
            if let bare = programs.bare, access(bare, X_OK) != 0 { throw RuntimeError("bare child not found at '\(bare)'") }
            guard access(programs.probe, X_OK) == 0 else { throw RuntimeError("FoundationProbe not found at '\(programs.probe)'") }
            guard access(programs.portable, X_OK) == 0 else {
                throw RuntimeError("WebContentPortable not found at '\(programs.portable)'")
            }
            metrics = try benchmark.all(programs)
        }
        step(nil)
        print(arguments[options.json] ? JSON.object([("metrics", .array(metrics.map(\.json)))]).text : Benchmark.table(metrics))
        return 0
    }

    /// One progress line on a terminal: which metric is being measured.
    private static func step(_ name: String?) {
        guard isatty(2) == 1 else { return }
        writeStandardError(name.map { "\r\u{1B}[Kbench: measuring \($0)…" } ?? "\r\u{1B}[K")
    }
}
