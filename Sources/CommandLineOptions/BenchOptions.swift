import Text

/// `supervisor bench`: its options and help.
public struct BenchOptions: Sendable {
    public let iterations = DefaultedOption(
        "--iterations", .integer(1...100_000), default: 500,
        help: "Samples per latency metric; round trips take ten times as many, session restores at most 50, "
            + "throughput and analyze at most 5, each scale row at most 3, and its idle window a tenth of a second "
            + "each, at most 2 s.")
    public let analyzeMegabytes = DefaultedOption(
        "--analyze-mb", .integer(1...65536), default: 1024,
        help: "Size of the generated device log, in MB, written to $TMPDIR or /tmp and removed after.")
    public let unifiedLogMegabytes = DefaultedOption(
        "--unified-log-mb", .integer(0...65536), default: 1024,
        help: "Size of the generated log archive (tracev3), in MB, written to $TMPDIR or /tmp and removed after; 0 "
            + "measures no unified-log row.")
    public let scaleWorkers = DefaultedOption(
        "--scale-workers", .integer(4...4096), default: 1024,
        help: "Live workers in the largest scale rows; the smaller rows hold a quarter as many.")
    public let analyzeOnly = Flag(
        "--analyze-only", help: "Measure only the analyze and unified-log rows; no worker is started.")
    public let floor = Option("--floor", .path("<path>"), help: "The C floor program built from scripts/floor.c.")
    public let bare = Option("--bare", .path("<path>"), help: "The libc-free child built from scripts/bare.c.")
    public let worker = workerOption
    public let json = Flag(
        "--json",
        help: #"Print {"metrics": [{"name", "unit", "p50", "p99", "floor", "floorP99", "ratio", "target", "met"}]}; "#
            + #""met" is null for a target not checked."#)

    public var table: OptionTable {
        OptionTable([iterations, analyzeMegabytes, unifiedLogMegabytes, scaleWorkers, analyzeOnly, floor, bare, worker, json])
    }

    public var help: CommandHelp {
        CommandHelp(
            name: "bench", abstract: "Measure the supervisor's machinery beside a C floor.",
            overview: """
                Measure the supervisor's machinery beside a C floor and beside Foundation.Process.

                Every metric drives real workers: spawn→hello, kill→detected, kill→re-rendered (guarded and rebuild,
                with no attach delay), the channel's title-probe round trip and one-way throughput of small frames
                (supervisor and worker pinned to one CPU, as the floor is), 256 and then 1,024 live workers at once,
                three times each (supervisor RSS, CPU per event, flat from one to the other, idle wake-ups per
                second), a 10,000-tab session restored (floor: reading and CRC-checking its file), and analyze on
                two generated device logs (one with a WebKit line in ten), each beside grep -c on the same file (its
                time, and its peak RSS); log show on the real iOS tracev3 of the tests' fixtures (run from the
                repository) and on a generated log archive, each beside cat of the same files, and analyze on that
                archive beside log show (their times and peak RSS). With --floor, the same work done by a plain C
                program (scripts/floor.c, built by scripts/bench) is measured in the same run; the ratio is
                ours/floor at p50. With --bare,
                the launchers alone: ours, the floor's and Foundation.Process's, each starting a child without libc
                that does nothing before its hello (scripts/bare.c), and that child under the least seccomp filter.
                Each target (the README's Benchmarks section lists them) is checked and reported as met or
                MISSED, or as not checked when it needs a floor that was not given.
                """,
            usage: """
                supervisor bench [--iterations <n>] [--floor <path>] [--bare <path>] [--worker <path>]
                                        [--analyze-mb <n>] [--unified-log-mb <n>] [--scale-workers <n>]
                                        [--analyze-only] [--json]
                """,
            tables: [("OPTIONS", table)])
    }
}
