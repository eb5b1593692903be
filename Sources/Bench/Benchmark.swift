import Core
import Glibc
import Scenario
import System
import Text

/// `supervisor bench`: each metric measured on this machine, beside its floor measured in the same run, the sides
/// taking turns so that every side samples the same stretches of a machine whose speed drifts.
package struct Benchmark {
    /// The programs measured and measured against; the command line checks each is there before any work starts.
    package struct Programs {
        package let worker: String
        package let portable: String
        /// Foundation.Process driving the same worker.
        package let probe: String
        /// The C floor (scripts/floor), and the child that does nothing before its hello.
        package let floor: String?
        package let bare: String?

        package init(worker: String, portable: String, probe: String, floor: String?, bare: String?) {
            (self.worker, self.portable, self.probe) = (worker, portable, probe)
            (self.floor, self.bare) = (floor, bare)
        }
    }

    package let iterations: Int
    package let analyzeMegabytes: Int
    /// The size of the generated log archive for the unified-log rows.
    package let unifiedLogMegabytes: Int
    /// The larger of the two scale rows' worker counts; the smaller is a quarter of it.
    package let scaleWorkers: Int
    /// Where the generated session file and device logs are written, and removed after.
    package let scratch: String
    /// This build's `supervisor`, whose `analyze` the analyze rows run.
    package let supervisor: String
    /// Told the name of each metric as its measuring starts, and nil at the end.
    package let step: (String?) -> Void

    package init(
        iterations: Int, analyzeMegabytes: Int, unifiedLogMegabytes: Int, scaleWorkers: Int, scratch: String,
        supervisor: String, step: @escaping (String?) -> Void
    ) {
        (self.iterations, self.analyzeMegabytes, self.scaleWorkers) = (iterations, analyzeMegabytes, scaleWorkers)
        self.unifiedLogMegabytes = unifiedLogMegabytes
        (self.scratch, self.supervisor, self.step) = (scratch, supervisor, step)
    }

    /// Every metric, of `programs` and this build's supervisor.
    package func all(_ programs: Programs) throws -> [Metric] {
        let (worker, floor) = (programs.worker, programs.floor)
        for program in [worker, programs.portable, floor, programs.bare].compactMap({ $0 }) { settleInPageCache(program) }
        step("spawn→hello")
        let spawnSides = try interleaved(
            iterations,
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: worker) },
            { try external(floor, "spawn \($0)") },
            { try samples(from: programs.probe, "spawn \($0) '\(worker)'") },
            { try external(floor, "spawn \($0) '\(worker)'") },
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: programs.portable) },
            { try SpawnBench.spawnToHello(iterations: $0, workerPath: worker, sandboxed: false) })
        // The launchers alone, each starting a child that does nothing before its hello; and that child with the
        // least seccomp filter, what any sandbox costs a start.
        let bareSides = try programs.bare.map { bare in
            try interleaved(
                iterations,
                { try SpawnBench.spawnToHello(iterations: $0, workerPath: bare, sandboxed: false) },
                { try external(floor, "spawn \($0) '\(bare)'") },
                { try samples(from: programs.probe, "spawn \($0) '\(bare)'") },
                { try SpawnBench.spawnToHello(iterations: $0, workerPath: bare) })
        }
        step("kill→detected")
        let killSides = try interleaved(
            iterations,
            { try KillBench.killToDetected(iterations: $0, workerPath: worker) },
            { try external(floor, "kill \($0) '\(worker)'") },
            { try samples(from: programs.probe, "kill \($0) '\(worker)'") })
        step("kill→re-rendered")
        let rerendered = try [Policy.guarded, .rebuild].map {
            try KillBench.killToRerendered($0, iterations: iterations, workerPath: worker)
        }
        step("channel")
        let channel = try ChannelBench(workerPath: worker)
        let roundTrips = try interleaved(
            iterations * 10, { try channel.roundTrips($0) }, { try external(floor, "roundtrip \($0)") })
        let frames = 200_000
        let throughputs = try interleaved(
            min(iterations, 5), warmUp: false,
            { _ in [Double(frames) / (try channel.stream(frames))] },
            { _ in try floor.map { [Double(frames) / ((try samples(from: $0, "stream \(frames)", count: 1))[0] / 1e3)] } ?? [] })
        step("scale")
        // Two seconds of idleness to count wake-ups in, or a tenth of a second an iteration when fewer are asked.
        let scales = try Scale.compare(
            workers: [scaleWorkers / 4, scaleWorkers], rounds: min(iterations, 3),
            idleNanoseconds: min(iterations, 20) * 100_000_000, workerPath: worker)
        step("session restore")
        let sessionFile = try SessionBench.writeFile(in: scratch)
        defer { unlink(sessionFile) }
        let restores = try interleaved(
            min(iterations, 50), { try SessionBench.restore(sessionFile, count: $0, workerPath: worker) },
            { try external(floor, "restore \($0) '\(sessionFile)'") })
        let analysis = try analyze() + unifiedLog()
        step(nil)
        return Self.spawnMetrics(spawnSides, bare: bareSides, byFloor: floor != nil)
            + Self.recoveryMetrics(kill: killSides, spawnFloor: spawnSides[1], rerendered: rerendered)
            + Self.channelMetrics(roundTrips: roundTrips, throughputs: throughputs)
            + Scale.metrics(scales) + [
                Metric(name: "session restore 10,000 tabs", samples: restores[0], floor: restores[1],
                       target: ("p99 ≤ 100 ms", { o, _ in o.p99 <= 100 })),
            ] + analysis
    }

    /// `analyze` on two generated device logs, each beside grep -c on the same file: one as a device writes it
    /// (6 lines in 100 WebKit's), and a dense one (1 in 10), where the analyzer has the most lines to parse.
    package func analyze() throws -> [Metric] {
        var metrics: [Metric] = []
        for (label, percent, limit) in [("device log", 6, 4.0), ("dense log", 10, 6.0)] {
            step("analyze \(label)")
            let result = try AnalyzeBench.measure(
                megabytes: analyzeMegabytes, chatterPercent: percent, rounds: min(iterations, 5), scratch: scratch, supervisor: supervisor)
            metrics += [
                Metric(name: "analyze \(analyzeMegabytes) MB \(label)", unit: "s", samples: result.seconds,
                       floor: result.grepSeconds,
                       target: ("p50 ≤ \(Int(limit))× grep -c", { o, f in f.map { o.p50 <= limit * $0.p50 } })),
                Metric(name: "analyze \(label) peak RSS", unit: "MiB", samples: result.peakRSSMiB,
                       target: ("≤ 64 MiB", { o, _ in o.p99 <= 64 })),
            ]
        }
        return metrics
    }

    /// `measures` taking turns, 25 times over, a 25th of the samples each time. Each call's first sample warms up (a
    /// new process, a new loop) and is dropped, on every side alike; `warmUp: false` keeps it, for measures that take
    /// one sample per call.
    private func interleaved(_ total: Int, warmUp: Bool = true, _ measures: ((Int) throws -> [Double])...) throws -> [[Double]] {
        var results = Array(repeating: [Double](), count: measures.count)
        let rounds = min(25, total)
        try takingTurns(rounds: rounds, measures.count) { index, round in
            let count = total / rounds + (round < total % rounds ? 1 : 0)
            results[index] += try measures[index](warmUp ? count + 1 : count).dropFirst(warmUp ? 1 : 0)
        }
        return results
    }

    private func external(_ program: String?, _ mode: String) throws -> [Double] {
        try program.map { try samples(from: $0, mode) } ?? []
    }
}
