import Glibc
import Scenario
import System
import Text

extension Benchmark {
    /// `log show` on the real iOS fixture (when the bench runs from the repository, which holds it) and on an
    /// archive of our making of `unifiedLogMegabytes`, each beside `cat` of the same files; `analyze` on that
    /// archive, beside the full `log show`. The targets: 50× dtformats' speed, peak RSS ≤ 64 MiB, `analyze` (which
    /// decodes only WebKit, RunningBoard, the kernel and apps) 5× faster than `log show`.
    package func unifiedLog() throws -> [Metric] {
        guard unifiedLogMegabytes > 0 else { return [] }
        var metrics: [Metric] = []
        // At most 5 rounds (20 of the fixture, a short run); 1 when `--iterations` asks for the fewest.
        let rounds = min(iterations, 5)
        if access(UnifiedLogBench.fixture, R_OK) == 0 {
            step("log show on the iOS fixture")
            let fixture = try UnifiedLogBench.measure(
                UnifiedLogBench.fixture, files: [UnifiedLogBench.fixture], rounds: rounds * 4, analyzing: false,
                planted: nil, scratch: scratch, supervisor: supervisor)
            let limit = UnifiedLogBench.dtformatsSeconds * 1000 / 50
            metrics += [
                Metric(name: "log show iOS fixture (8,654 entries)", samples: fixture.show.seconds.map { $0 * 1000 },
                       floor: fixture.cat.map { $0 * 1000 },
                       target: ("p50 ≤ \(fixed(limit, 1)) ms (50× dtformats)", { o, _ in o.p50 <= limit })),
                Metric(name: "log show iOS fixture peak RSS", unit: "MiB", samples: fixture.show.peakRSSMiB,
                       target: ("≤ 64 MiB", { o, _ in o.p99 <= 64 })),
            ]
        }
        step("writing a \(unifiedLogMegabytes) MB log archive")
        var template = Array((scratch + "/supervisor-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchFailure("cannot make a folder in '\(scratch)': \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made) + "/bench.logarchive"
        defer { if getenv("KEEP") == nil { UnifiedLogBench.remove(String(cString: made)) } else { print(folder) } }
        var generator = UnifiedLogGenerator(seed: 1, megabytes: unifiedLogMegabytes)
        _ = try generator.write(megabytes: unifiedLogMegabytes, to: folder)
        let traces = try Sys.directoryEntries(folder + "/Persist").sorted().map { folder + "/Persist/" + $0 }
        step("log show and analyze on the archive")
        let archive = try UnifiedLogBench.measure(
            folder, files: traces, rounds: rounds, analyzing: true, planted: generator.killedBeforeRender.count,
            scratch: scratch, supervisor: supervisor)
        guard archive.show.entries == generator.entries + 3 * generator.killedBeforeRender.count else {
            throw BenchFailure("log show printed \(archive.show.entries) entries of the \(generator.entries) written")
        }
        let entries = Double(archive.show.entries)
        let limit = entries / (50 * UnifiedLogBench.dtformatsEntriesPerSecond)
        let name = "\(unifiedLogMegabytes) MB archive (\(grouped(archive.show.entries)) entries)"
        let showP50 = Percentiles(archive.show.seconds).p50
        metrics += [
            Metric(name: "log show \(name)", unit: "s", samples: archive.show.seconds, floor: archive.cat,
                   target: ("p50 ≤ \(fixed(limit, 1)) s (50× dtformats)", { o, _ in o.p50 <= limit })),
            Metric(name: "log show archive peak RSS", unit: "MiB", samples: archive.show.peakRSSMiB,
                   target: ("≤ 64 MiB", { o, _ in o.p99 <= 64 })),
            Metric(name: "analyze the archive", unit: "s", samples: archive.analyze.seconds, floor: archive.show.seconds,
                   target: ("p50 ≤ log show's p50 / 5 (\(fixed(showP50 / 5, 2)) s)", { o, _ in o.p50 <= showP50 / 5 })),
            Metric(name: "analyze archive peak RSS", unit: "MiB", samples: archive.analyze.peakRSSMiB,
                   target: ("≤ 64 MiB", { o, _ in o.p99 <= 64 })),
        ]
        return metrics
    }
}
