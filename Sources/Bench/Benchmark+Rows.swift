import Scenario
import Text

/// The rows the measured sides make, each with the target.
extension Benchmark {
    /// Spawn to hello: ours, the C floor's, our worker by the C floor, Foundation.Process, the portable worker, the
    /// worker without its sandbox, and the bare child by each launcher.
    static func spawnMetrics(_ sides: [[Double]], bare bareSides: [[Double]]?, byFloor: Bool) -> [Metric] {
        let (spawn, spawnFloor) = (sides[0], sides[1])
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
        if byFloor {
            // Our worker started by the C floor: what is left of the gap with the supervisor out of it.
            metrics.append(Metric(name: "spawn→hello our worker by C", samples: sides[3], floor: spawnFloor))
        }
        metrics.append(foundation("spawn→hello Foundation.Process", sides[2], ours: spawn, floor: spawnFloor))
        // The same worker's sources as ordinary static Swift (`--worker portable`): what the Embedded bet saves.
        metrics.append(Metric(name: "spawn→hello portable worker", samples: sides[4], floor: spawnFloor))
        // What the sandbox costs a start: no new privileges, a signal handler and the seccomp filter; beside it,
        // what the least filter costs the bare child.
        let sandboxCost = Percentiles(spawn).p50 / Percentiles(sides[5]).p50
        let leastCost = bareSides.map { fixed(Percentiles($0[3]).p50 / Percentiles($0[0]).p50, 2) + "×" } ?? "not measured"
        metrics.append(Metric(
            name: "spawn→hello without the sandbox", samples: sides[5], floor: spawnFloor,
            target: ("sandboxed p50 ≤ 1.1× this (is \(fixed(sandboxCost, 2))×; least filter \(leastCost))",
                     { _, _ in sandboxCost <= 1.1 })))
        if let bareSides {
            metrics += [
                Metric(name: "spawn→hello bare child", samples: bareSides[0], floor: bareSides[1]),
                Metric(name: "spawn→hello bare child, least filter", samples: bareSides[3], floor: bareSides[0]),
                foundation("spawn→hello bare child Foundation", bareSides[2], ours: bareSides[0], floor: bareSides[1]),
            ]
        }
        return metrics
    }

    /// Kill to detected (ours, the floor's, Foundation's) and kill to re-rendered under guarded and rebuild, against
    /// the least any recovery without a spare costs: notice the death, start a process, hear its hello.
    static func recoveryMetrics(kill: [[Double]], spawnFloor: [Double], rerendered: [[Double]]) -> [Metric] {
        let recoveryFloor = zip(kill[1], spawnFloor).map { $0 + $1 }
        return [
            Metric(name: "kill→detected", samples: kill[0], floor: kill[1],
                   target: ("p99 ≤ 1 ms, p50 ≤ 2× floor", { o, f in f.map { o.p99 <= 1 && o.p50 <= 2 * $0.p50 } })),
            Metric(name: "kill→detected Foundation.Process", samples: kill[2], floor: kill[1]),
            Metric(name: "kill→re-rendered guarded", samples: rerendered[0], floor: recoveryFloor,
                   target: ("p50 ≤ 2 ms, p99 ≤ 10 ms", { o, _ in o.p50 <= 2 && o.p99 <= 10 })),
            Metric(name: "kill→re-rendered rebuild", samples: rerendered[1], floor: recoveryFloor),
        ]
    }

    static func channelMetrics(roundTrips: [[Double]], throughputs: [[Double]]) -> [Metric] {
        [
            Metric(name: "channel round trip", samples: roundTrips[0], floor: roundTrips[1],
                   target: ("p50 ≤ 1.5× floor", { o, f in f.map { o.p50 <= 1.5 * $0.p50 } })),
            Metric(name: "one-way throughput", unit: "frames/s", samples: throughputs[0], floor: throughputs[1],
                   target: ("≥ 50% of floor", { o, f in f.map { o.p50 >= 0.5 * $0.p50 } })),
        ]
    }

    /// Two blocks that fit the terminal: the figures, each column at one precision (throughput in thousands of
    /// frames a second, so that it shares the others' three decimals), then every target and whether it was met.
    package static func table(_ metrics: [Metric]) -> String {
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
}
