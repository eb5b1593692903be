import Glibc
import SupervisorKit

/// `supervisor bench`: each metric measured on this machine, beside the floor measured in the same run.
enum BenchCommand {
    struct Metric {
        let name: String
        let samplesMs: [Double]
        let floorMs: [Double]?

        var json: JSON {
            let ours = Percentiles(samplesMs)
            let floor = floorMs.map(Percentiles.init)
            return .object([
                ("name", .string(name)), ("unit", .string("ms")), ("p50", .double(ours.p50)), ("p99", .double(ours.p99)),
                ("floor", floor.map { .double($0.p50) } ?? .null), ("floorP99", floor.map { .double($0.p99) } ?? .null),
                ("ratio", floor.map { .double(($0.p50 > 0 ? ours.p50 / $0.p50 : 0)) } ?? .null),
            ])
        }
    }

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(words, options: ["--iterations", "--floor", "--worker"], flags: ["--json"])
        let iterations = try arguments.integer("--iterations", default: 500, range: 1...100_000)
        let workerPath = arguments.string("--worker") ?? RunCommand.defaultWorkerPath()
        guard access(workerPath, X_OK) == 0 else {
            throw RuntimeError("worker executable not found at '\(workerPath)' (build it with 'swift build' or pass --worker)")
        }
        let floor = arguments.string("--floor")
        if let floor, access(floor, X_OK) != 0 { throw RuntimeError("floor program not found at '\(floor)'") }

        step("spawn→hello")
        let spawn = try measureSpawnToHello(iterations: iterations, workerPath: workerPath)
        let spawnFloor = try floor.map { try runFloor($0, "spawn \(iterations)", iterations) }
        step("kill→detected")
        let kill = try measureKillToDetected(iterations: iterations, workerPath: workerPath)
        let killFloor = try floor.map { try runFloor($0, "kill \(iterations) '\(workerPath)'", iterations) }
        step(nil)

        let metrics = [
            Metric(name: "spawn→hello", samplesMs: spawn, floorMs: spawnFloor),
            Metric(name: "kill→detected", samplesMs: kill, floorMs: killFloor),
        ]
        print(arguments.flag("--json") ? JSON.object([("metrics", .array(metrics.map(\.json)))]).text : table(metrics))
        return 0
    }

    /// Time from posix_spawn to the worker's hello frame being handled, over fresh views.
    static func measureSpawnToHello(iterations: Int, workerPath: String) throws -> [Double] {
        var samples: [Double] = []
        try run(iterations: iterations, workerPath: workerPath) { event in
            if event.name == "hello", case .double(let ms)? = event["spawnToHelloMs"] { samples.append(ms) }
        }
        return samples
    }

    /// Time from SIGKILL of a live worker to the supervisor's death event for it. Each load's first worker is
    /// killed when it has rendered and its view is on screen, so the loop is idle when the kill lands; the policy
    /// then recovers the view.
    static func measureKillToDetected(iterations: Int, workerPath: String) throws -> [Double] {
        var killedAt: [Int32: Int] = [:]
        var loadOfPid: [Int32: Int] = [:]
        var killedLoads: Set<Int> = []
        var samples: [Double] = []
        try run(iterations: iterations, workerPath: workerPath, dwellNanoseconds: 1_000_000) { event in
            guard let pid = event.pid else { return }
            switch event.name {
            case "spawn":
                if case .int(let load)? = event["load"] { loadOfPid[pid] = load }
            case "render":
                guard let load = loadOfPid[pid], killedLoads.insert(load).inserted else { return }
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                killedAt[pid] = now.tv_sec * 1_000_000_000 + now.tv_nsec
                Glibc.kill(pid, SIGKILL)
            case "death":
                if let start = killedAt.removeValue(forKey: pid) {
                    samples.append(Double(event.monotonic - start) / 1e6)
                }
            default:
                break
            }
        }
        return samples
    }

    private static func run(
        iterations: Int, workerPath: String, dwellNanoseconds: Int = 0, observe: @escaping (Event) -> Void
    ) throws {
        var configuration = RunConfiguration(workerPath: workerPath)
        // Deaths are observed from spawn, so a kill before the view attaches is recovered at once too.
        configuration.policy.observe = .spawn
        configuration.loads = iterations
        configuration.dwellNanoseconds = dwellNanoseconds
        let log = try EventLog()
        log.observers.append(observe)
        _ = try Host(configuration: configuration, content: benchContent, log: log).run()
    }

    /// A page that asks for no render work, so a killed worker has no memory to tear down that the floor's
    /// worker would not have either.
    private static var benchContent: ContentProvider { ContentProvider(pages: [("bench.html", "<title>Bench</title>")]) }

    /// Samples from the C floor program, in milliseconds.
    private static func runFloor(_ path: String, _ mode: String, _ iterations: Int) throws -> [Double] {
        guard let pipe = popen("'\(path)' \(mode)", "r") else { throw RuntimeError("cannot run '\(path)'") }
        var samples: [Double] = []
        var line = [CChar](repeating: 0, count: 64)
        while fgets(&line, 64, pipe) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let ns = Double(text) { samples.append(ns / 1e6) }
        }
        guard pclose(pipe) == 0, samples.count == iterations else { throw RuntimeError("floor program '\(path) \(mode)' failed") }
        return samples
    }

    private static func table(_ metrics: [Metric]) -> String {
        func cell(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        var lines = [cell("metric", 16) + cell("p50 ms", 10) + cell("p99 ms", 10) + cell("floor p50", 11) + cell("floor p99", 11) + "ratio"]
        for metric in metrics {
            let ours = Percentiles(metric.samplesMs)
            let floor = metric.floorMs.map(Percentiles.init)
            lines.append(
                cell(metric.name, 16) + cell(String(format3(ours.p50)), 10) + cell(format3(ours.p99), 10)
                    + cell(floor.map { format3($0.p50) } ?? "-", 11) + cell(floor.map { format3($0.p99) } ?? "-", 11)
                    + (floor.map { $0.p50 > 0 ? format3(ours.p50 / $0.p50) + "×" : "-" } ?? "-"))
        }
        return lines.joined(separator: "\n")
    }

    private static func format3(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

    /// One progress line on a terminal: which metric is being measured.
    private static func step(_ name: String?) {
        guard isatty(2) == 1 else { return }
        writeStandardError(name.map { "\r\u{1B}[Kbench: measuring \($0)…" } ?? "\r\u{1B}[K")
    }
}
