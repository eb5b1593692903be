import CommandLineOptions
import Core
import Events
import Glibc
import LogAnalysis
import Scenario
import Browser
import System
import Text

/// `supervisor bench`: each metric measured on this machine, beside its floor measured in the same run.
enum BenchCommand {
    struct Metric {
        let name: String
        var unit = "ms"
        let samples: [Double]
        /// What the same work costs with nothing in the way (or, for Foundation, what the floor costs); empty
        /// without `--floor`.
        var floor: [Double] = []
        /// The target, and whether this run met it: nil when it is judged against a floor not measured.
        var target: (text: String, met: (Percentiles, Percentiles?) -> Bool?)?

        var ours: Percentiles { Percentiles(samples) }
        var floorPercentiles: Percentiles? { floor.isEmpty ? nil : Percentiles(floor) }
        var ratio: Double? { floorPercentiles.flatMap { $0.p50 > 0 ? ours.p50 / $0.p50 : nil } }
        var met: Bool? { target.flatMap { $0.met(ours, floorPercentiles) } }

        var json: JSON {
            var fields: [(String, JSON)] = [
                ("name", .string(name)), ("unit", .string(unit)), ("p50", .double(ours.p50)), ("p99", .double(ours.p99)),
                ("floor", floorPercentiles.map { .double($0.p50) } ?? .null),
                ("floorP99", floorPercentiles.map { .double($0.p99) } ?? .null), ("ratio", ratio.map { .double($0) } ?? .null),
            ]
            if let target { fields += [("target", .string(target.text)), ("met", met.map(JSON.bool) ?? .null)] }
            return .object(fields)
        }
    }

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.bench
        let arguments = try options.table.parse(words)
        let iterations = arguments[options.iterations]
        let analyzeMegabytes = arguments[options.analyzeMegabytes]
        let scratch = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        guard access(scratch, W_OK) == 0 else { throw RuntimeError("cannot write the generated log in '\(scratch)'") }
        if arguments[options.analyzeOnly] {
            let metrics = try analyzeMetrics(megabytes: analyzeMegabytes, scratch: scratch)
            step(nil)
            print(arguments[options.json] ? JSON.object([("metrics", .array(metrics.map(\.json)))]).text : table(metrics))
            return 0
        }
        let workerPath = workerExecutable(arguments[options.worker])
        guard access(workerPath, X_OK) == 0 else {
            throw RuntimeError("worker executable not found at '\(workerPath)' (build it with 'swift build' or pass --worker)")
        }
        let floor = arguments[options.floor]
        if let floor, access(floor, X_OK) != 0 { throw RuntimeError("floor program not found at '\(floor)'") }
        let bare = arguments[options.bare]
        if let bare, access(bare, X_OK) != 0 { throw RuntimeError("bare child not found at '\(bare)'") }
        let probe = RunCommand.siblingExecutable("FoundationProbe")
        guard access(probe, X_OK) == 0 else { throw RuntimeError("FoundationProbe not found at '\(probe)'") }
        func external(_ program: String?, _ mode: String) throws -> [Double] {
            try program.map { try samples(from: $0, mode) } ?? []
        }
        /// `measures` taking turns, 25 times over, a 25th of the samples each time. Each call's first sample warms up
        /// (a new process, a new loop) and is dropped, on every side alike; `warmUp: false` keeps it, for measures
        /// that take one sample per call.
        func interleaved(_ total: Int, warmUp: Bool = true, _ measures: ((Int) throws -> [Double])...) throws -> [[Double]] {
            var results = Array(repeating: [Double](), count: measures.count)
            let rounds = min(25, total)
            try takingTurns(rounds: rounds, measures.count) { index, round in
                let count = total / rounds + (round < total % rounds ? 1 : 0)
                results[index] += try measures[index](warmUp ? count + 1 : count).dropFirst(warmUp ? 1 : 0)
            }
            return results
        }

        let portable = workerExecutable("portable")
        guard access(portable, X_OK) == 0 else { throw RuntimeError("WebContentPortable not found at '\(portable)'") }
        for program in [workerPath, portable, floor, bare].compactMap({ $0 }) { settleInPageCache(program) }
        step("spawn→hello")
        let spawnSides = try interleaved(
            iterations,
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: workerPath) },
            { try external(floor, "spawn \($0)") },
            { try samples(from: probe, "spawn \($0) '\(workerPath)'") },
            { try external(floor, "spawn \($0) '\(workerPath)'") },
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: portable) },
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: workerPath, sandboxed: false) })
        let (spawn, spawnFloor, spawnFoundation, spawnByFloor) = (spawnSides[0], spawnSides[1], spawnSides[2], spawnSides[3])
        // The launchers alone, each starting a child that does nothing before its hello; and that child with the
        // least seccomp filter, what any sandbox costs a start.
        let bareSides = try bare.map { bare in
            try interleaved(
                iterations,
                { try SpawnBench.spawnToHello(iterations: $0, workerPath: bare, sandboxed: false) },
                { try external(floor, "spawn \($0) '\(bare)'") },
                { try samples(from: probe, "spawn \($0) '\(bare)'") },
                { try SpawnBench.spawnToHello(iterations: $0, workerPath: bare) })
        }
        step("kill→detected")
        let killSides = try interleaved(
            iterations,
            { try measureKillToDetected(iterations: $0, workerPath: workerPath) },
            { try external(floor, "kill \($0) '\(workerPath)'") },
            { try samples(from: probe, "kill \($0) '\(workerPath)'") })
        let (kill, killFloor, killFoundation) = (killSides[0], killSides[1], killSides[2])
        step("kill→re-rendered")
        let rerenderGuarded = try measureKillToRerendered(.guarded, iterations: iterations, workerPath: workerPath)
        let rerenderRebuild = try measureKillToRerendered(.rebuild, iterations: iterations, workerPath: workerPath)
        // The least any recovery costs without a spare: notice the death, start a process, hear its hello.
        let recoveryFloor = zip(killFloor, spawnFloor).map { $0 + $1 }
        step("channel")
        let channel = try ChannelBench(workerPath: workerPath)
        let roundTrips = try interleaved(
            iterations * 10, { try channel.roundTrips($0) }, { try external(floor, "roundtrip \($0)") })
        let frames = 200_000
        let throughputs = try interleaved(
            min(iterations, 5), warmUp: false,
            { _ in [Double(frames) / (try channel.stream(frames))] },
            { _ in try floor.map { [Double(frames) / ((try samples(from: $0, "stream \(frames)", count: 1))[0] / 1e3)] } ?? [] })
        step("scale")
        let largest = arguments[options.scaleWorkers]
        let scales = try Scale.compare(workers: [largest / 4, largest], rounds: min(iterations, 3), workerPath: workerPath)
        step("session restore")
        let sessionFile = try SessionBench.writeFile(in: scratch)
        defer { unlink(sessionFile) }
        let restores = try interleaved(
            min(iterations, 50), { try SessionBench.restore(sessionFile, count: $0, workerPath: workerPath) },
            { try external(floor, "restore \($0) '\(sessionFile)'") })
        let analysis = try analyzeMetrics(megabytes: analyzeMegabytes, scratch: scratch)
        step(nil)

        /// Foundation.Process launching what the supervisor launched in `ours`: the target is 3× our time.
        func foundation(_ name: String, _ samples: [Double], ours: [Double], floor: [Double]) -> Metric {
            let times = Percentiles(samples).p50 / Percentiles(ours).p50
            return Metric(name: name, samples: samples, floor: floor,
                          target: ("≥ 3× ours at p50 (is \(fixed(times, 2))×)", { _, _ in times >= 3 }))
        }
        var metrics = [
            Metric(name: "spawn→hello", samples: spawn, floor: spawnFloor,
                   target: ("p50 ≤ 1.5× floor", { o, f in f.map { o.p50 <= 1.5 * $0.p50 } }))
        ]
        if floor != nil {
            // Our worker started by the C floor: what is left of the gap with the supervisor out of it.
            metrics.append(Metric(name: "spawn→hello our worker by C", samples: spawnByFloor, floor: spawnFloor))
        }
        metrics.append(foundation("spawn→hello Foundation.Process", spawnFoundation, ours: spawn, floor: spawnFloor))
        // The same worker's sources as ordinary static Swift (`--worker portable`): what the Embedded bet saves.
        metrics.append(Metric(name: "spawn→hello portable worker", samples: spawnSides[4], floor: spawnFloor))
        // What the sandbox costs a start: no new privileges, a signal handler and the seccomp filter; beside it,
        // what the least filter costs the bare child.
        let sandboxCost = Percentiles(spawn).p50 / Percentiles(spawnSides[5]).p50
        let leastCost = bareSides.map { fixed(Percentiles($0[3]).p50 / Percentiles($0[0]).p50, 2) + "×" } ?? "not measured"
        metrics.append(Metric(
            name: "spawn→hello without the sandbox", samples: spawnSides[5], floor: spawnFloor,
            target: ("sandboxed p50 ≤ 1.1× this (is \(fixed(sandboxCost, 2))×; least filter \(leastCost))",
                     { _, _ in sandboxCost <= 1.1 })))
        if let bareSides {
            metrics += [
                Metric(name: "spawn→hello bare child", samples: bareSides[0], floor: bareSides[1]),
                Metric(name: "spawn→hello bare child, least filter", samples: bareSides[3], floor: bareSides[0]),
                foundation("spawn→hello bare child Foundation", bareSides[2], ours: bareSides[0], floor: bareSides[1]),
            ]
        }
        metrics += [
            Metric(name: "kill→detected", samples: kill, floor: killFloor,
                   target: ("p99 ≤ 1 ms, p50 ≤ 2× floor", { o, f in f.map { o.p99 <= 1 && o.p50 <= 2 * $0.p50 } })),
            Metric(name: "kill→detected Foundation.Process", samples: killFoundation, floor: killFloor),
            Metric(name: "kill→re-rendered guarded", samples: rerenderGuarded, floor: recoveryFloor,
                   target: ("p50 ≤ 2 ms, p99 ≤ 10 ms", { o, _ in o.p50 <= 2 && o.p99 <= 10 })),
            Metric(name: "kill→re-rendered rebuild", samples: rerenderRebuild, floor: recoveryFloor),
            Metric(name: "channel round trip", samples: roundTrips[0], floor: roundTrips[1],
                   target: ("p50 ≤ 1.5× floor", { o, f in f.map { o.p50 <= 1.5 * $0.p50 } })),
            Metric(name: "one-way throughput", unit: "frames/s", samples: throughputs[0], floor: throughputs[1],
                   target: ("≥ 50% of floor", { o, f in f.map { o.p50 >= 0.5 * $0.p50 } })),
        ] + Scale.metrics(scales) + [
            Metric(name: "session restore 10,000 tabs", samples: restores[0], floor: restores[1],
                   target: ("p99 ≤ 100 ms", { o, _ in o.p99 <= 100 })),
        ] + analysis
        print(arguments[options.json] ? JSON.object([("metrics", .array(metrics.map(\.json)))]).text : table(metrics))
        return 0
    }

    /// `analyze` on two generated device logs, each beside grep -c on the same file: one as a device writes it
    /// (6 lines in 100 WebKit's), and a dense one (1 in 10), where the analyzer has the most lines to parse.
    private static func analyzeMetrics(megabytes: Int, scratch: String) throws -> [Metric] {
        var metrics: [Metric] = []
        for (label, percent, limit) in [("device log", 6, 4.0), ("dense log", 10, 6.0)] {
            step("analyze \(label)")
            let result = try AnalyzeBench.measure(megabytes: megabytes, chatterPercent: percent, rounds: 5, scratch: scratch)
            metrics += [
                Metric(name: "analyze \(megabytes) MB \(label)", unit: "s", samples: result.seconds,
                       floor: result.grepSeconds,
                       target: ("p50 ≤ \(Int(limit))× grep -c", { o, f in f.map { o.p50 <= limit * $0.p50 } })),
                Metric(name: "analyze \(label) peak RSS", unit: "MiB", samples: result.peakRSSMiB,
                       target: ("≤ 64 MiB", { o, _ in o.p99 <= 64 })),
            ]
        }
        return metrics
    }

    /// Time from SIGKILL of a live worker to the supervisor's death event for it; the policy then recovers the
    /// view.
    static func measureKillToDetected(iterations: Int, workerPath: String) throws -> [Double] {
        var killedAt: [Int32: Int] = [:]
        var samples: [Double] = []
        try killEachLoadOnce(iterations: iterations, workerPath: workerPath) { event, killed in
            if let killed { killedAt[killed] = Sys.monotonicNanoseconds() }
            if case .death = event.kind, let pid = event.pid, let start = killedAt.removeValue(forKey: pid) {
                samples.append(Double(event.monotonic - start) / 1e6)
            }
        }
        return samples
    }

    /// Time from SIGKILL of a visible view's worker to that load being visible again, under `policy`. The attach
    /// delay is zero: this measures the supervisor's recovery, not the app's view hierarchy.
    static func measureKillToRerendered(_ policy: Policy, iterations: Int, workerPath: String) throws -> [Double] {
        var killedAt: [Int: Int] = [:]
        var samples: [Double] = []
        try killEachLoadOnce(policy, iterations: iterations, workerPath: workerPath) { event, killed in
            guard case .visible(let load, _, let first, _) = event.kind else { return }
            if killed != nil { killedAt[load] = Sys.monotonicNanoseconds() }
            if !first, let start = killedAt.removeValue(forKey: load) {
                samples.append(Double(event.monotonic - start) / 1e6)
            }
        }
        return samples
    }

    /// Runs `iterations` loads and SIGKILLs each load's worker once, as the load is first visible, from the loop
    /// as the floor kills from its waiting thread; `observe` sees every event, with the pid just killed, if any.
    private static func killEachLoadOnce(
        _ policy: Policy? = nil, iterations: Int, workerPath: String, observe: @escaping (Event, Int32?) -> Void
    ) throws {
        try run(policy, iterations: iterations, workerPath: workerPath, dwellNanoseconds: 1_000_000) { event in
            guard case .visible(_, _, first: true, _) = event.kind, let pid = event.pid else {
                return observe(event, nil)
            }
            observe(event, pid)
            Glibc.kill(pid, SIGKILL)
        }
    }

    private static func run(
        _ policy: Policy? = nil, iterations: Int, workerPath: String, dwellNanoseconds: Int = 0,
        observe: @escaping (Event) -> Void
    ) throws {
        var configuration = RunConfiguration(workerPath: workerPath)
        if let policy {
            configuration.policy = policy
        } else {
            // Deaths are observed from spawn, so a kill before the view attaches is recovered at once too.
            configuration.policy.observe = .spawn
        }
        configuration.attachDelayNanoseconds = 0...0
        configuration.loads = iterations
        configuration.dwellNanoseconds = dwellNanoseconds
        let log = EventLog()
        log.observers.append(observe)
        _ = try Simulation(configuration: configuration, content: benchContent, log: log).run()
    }

    /// A program just written by the linker sits in the page cache in small pages; an installed one, read from
    /// disk, sits in large folios, which every exec maps faster (measured here: the same worker binary starts
    /// about a tenth sooner). Each program measured is put in that state first, the same way for ours and the
    /// floor's: written back, dropped from the cache, read in again.
    private static func settleInPageCache(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        fsync(fd)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    /// A page that asks for no render work, so a killed worker has no memory to tear down that the floor's
    /// worker would not have either.
    static var benchContent: ContentProvider { ContentProvider(pages: [("bench.html", "<title>Bench</title>")]) }

    /// Samples (nanoseconds, one per line) from an external program, in milliseconds.
    private static func samples(from path: String, _ mode: String, count: Int? = nil) throws -> [Double] {
        guard let pipe = popen("'\(path)' \(mode)", "r") else { throw RuntimeError("cannot run '\(path)'") }
        var samples: [Double] = []
        var line = [CChar](repeating: 0, count: 64)
        while fgets(&line, 64, pipe) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let ns = Double(text) { samples.append(ns / 1e6) }
        }
        let expected = count ?? Int(mode.split(separator: " ")[1])!
        guard pclose(pipe) == 0, samples.count == expected else { throw RuntimeError("'\(path) \(mode)' failed") }
        return samples
    }

    /// Two blocks that fit the terminal: the figures, each column at one precision (throughput in thousands of
    /// frames a second, so that it shares the others' three decimals), then every target and whether it was met.
    private static func table(_ metrics: [Metric]) -> String {
        func number(_ metric: Metric, _ value: Double) -> String {
            fixed(metric.unit == "frames/s" ? value / 1000 : value, 3)
        }
        var lines = columns([["metric", "unit", "p50", "p99", "floor p50", "floor p99", "ratio"]] + metrics.map { metric in
            let floor = metric.floorPercentiles
            return [metric.name, metric.unit == "frames/s" ? "k frames/s" : metric.unit, number(metric, metric.ours.p50),
                    number(metric, metric.ours.p99), floor.map { number(metric, $0.p50) } ?? "-",
                    floor.map { number(metric, $0.p99) } ?? "-", metric.ratio.map { fixed($0, 2) + "×" } ?? "-"]
        }, labels: 2)
        let targets = metrics.compactMap { metric in
            metric.target.map { target in
                [metric.name, target.text, metric.met.map { $0 ? "met" : "MISSED" } ?? "not checked (no floor)"]
            }
        }
        lines += [""] + Text.table([["target", "rule", "result"]] + targets)
        return lines.joined(separator: "\n")
    }

    /// One progress line on a terminal: which metric is being measured.
    private static func step(_ name: String?) {
        guard isatty(2) == 1 else { return }
        writeStandardError(name.map { "\r\u{1B}[Kbench: measuring \($0)…" } ?? "\r\u{1B}[K")
    }
}

/// Calls `body` with each of `count` sides in turn, `rounds` times over, each round starting with the next side: on
/// a shared machine whose speed drifts from second to second, every side then samples the same stretches of it.
func takingTurns(rounds: Int, _ count: Int, _ body: (_ side: Int, _ round: Int) throws -> Void) rethrows {
    for round in 0..<rounds {
        for step in 0..<count { try body((round + step) % count, round) }
    }
}
