// swift-tools-version:6.0
import PackageDescription

/// Jetsam, the holder and the supervisor are linked statically: a static program starts in about a quarter of the time
/// a dynamically linked one does (`supervisor --version`: 0.87 ms, against 3.6 ms), and a restarted supervisor's
/// views wait on its start.
let staticExecutable: [LinkerSetting] = [.unsafeFlags(["-static-executable"])]

/// WebContent is Embedded Swift on bare Linux system calls (Workers/WorkerRuntime): no C library and no Swift runtime
/// start-up, because spawn time is what every recovery without a spare waits for, and on the benchmark VM a static
/// glibc program's start-up alone costs about 0.3 ms (among it 43 CPUID instructions, each a 5 µs trap to the
/// hypervisor), twice this worker's whole start. There is no thread pointer either, hence no stack protector (its
/// canary lives in thread-local storage). The wire protocol's sources are compiled into the worker a second time,
/// through symlinks: an Embedded module cannot be shared with the supervisor's.
let embedded: [SwiftSetting] = [
    .enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo", "-Xfrontend", "-disable-stack-protector"]),
]
/// The runtime's symbols are prefixed (SwiftPM links the target into the supervisor too); only here do they become
/// the C names Embedded Swift calls, and the entry point.
let bareExecutable: [LinkerSetting] = [
    .unsafeFlags(
        ["-Xclang-linker", "-static", "-Xclang-linker", "-nostdlib", "-Xlinker", "-e", "-Xlinker", "wr_entry"]
            + ["posix_memalign", "free", "memset", "memcpy", "memmove", "arc4random_buf", "putchar"]
            .flatMap { ["-Xlinker", "--defsym=\($0)=wr_\($0)"] })
]

/// The tests, a target for each module they test (`swift test --filter CoreTests`); `CLITests` runs the `supervisor`
/// binary whole. Most lean on `SupervisorTesting`.
let moduleTests: [(name: String, dependencies: [Target.Dependency])] = [
    ("TextTests", ["Text"]),
    ("ProcFSTests", ["ProcFS", "Text"]),
    ("KillerTests", ["Killer", "Vocabulary"]),
    ("UnifiedLogTests", ["UnifiedLog"]),
    (
        "WireProtocolTests",
        [
            "SupervisorTesting", "Browser", "Core", "LogAnalysis", "Process", "Scenario", "Vocabulary", "WireProtocol",
        ]
    ),
    ("WorkerRuntimeTests", ["SupervisorTesting", "LogAnalysis", "WorkerRuntime"]),
    (
        "SystemTests",
        [
            "SupervisorTesting", "Browser", "Core", "LogAnalysis", "Process", "Scenario", "System", "Text",
            "WireProtocol",
        ]
    ),
    (
        "ProcessTests",
        [
            "SupervisorTesting", "Browser", "CShim", "Core", "LogAnalysis", "ProcFS", "Process", "Scenario", "System",
            "Text", "Vocabulary", "WireProtocol",
        ]
    ),
    ("EventsTests", ["SupervisorTesting", "Browser", "Core", "Events", "LogAnalysis", "Scenario", "Vocabulary"]),
    (
        "CoreTests",
        [
            "SupervisorTesting", "Browser", "CShim", "Core", "Events", "LogAnalysis", "Process", "Scenario", "System",
            "TestSupport", "Text", "Vocabulary", "WireProtocol",
        ]
    ),
    (
        "BrowserTests",
        [
            "SupervisorTesting", "Browser", "CShim", "Core", "Events", "LogAnalysis", "ProcFS", "Process", "Scenario",
            "System", "TestSupport", "WireProtocol",
        ]
    ),
    (
        "ScenarioTests",
        [
            "SupervisorTesting", "Browser", "Core", "Events", "LogAnalysis", "Process", "ProcFS", "Replay", "Scenario",
            "System", "Text", "Vocabulary", "WireProtocol",
        ]
    ),
    ("ReplayTests", ["SupervisorTesting", "Core", "Events", "Replay", "Scenario", "Vocabulary"]),
    (
        "LogAnalysisTests",
        [
            "SupervisorTesting", "Browser", "Core", "Events", "LogAnalysis", "Replay", "Scenario", "System", "Text",
            "UnifiedLog", "Vocabulary",
        ]
    ),
    ("ChartsTests", ["SupervisorTesting", "LogAnalysis", "ProcFS", "Text"]),
    (
        "CommandLineOptionsTests",
        [
            "SupervisorTesting", "Browser", "CommandLineOptions", "Core", "Events", "Scenario", "Text", "Vocabulary",
        ]
    ),
    (
        "CLITests",
        [
            "SupervisorTesting", "Browser", "CommandLineOptions", "Core", "Events", "LogAnalysis", "ProcFS", "Process",
            "Scenario", "System", "Text", "WireProtocol",
        ]
    ),
]

let package = Package(
    name: "supervisor",
    products: [
        .executable(name: "supervisor", targets: ["supervisor"]),
        .executable(name: "WebContent", targets: ["WebContent"]),
        .executable(name: "WebContentPortable", targets: ["WebContentPortable"]),
        .executable(name: "Jetsam", targets: ["Jetsam"]),
        .executable(name: "Holder", targets: ["Holder"]),
    ],
    targets: [
        /// The supervisor's system calls that Swift cannot make itself: posix_spawn of a recipe given as data, pidfds,
        /// waitid, epoll, openat2, prctl, the interruption handler.
        .target(name: "CShim"),
        /// The analyzer's block scan: needles found with the CPU's widest vectors, and the thread that scans ahead.
        .target(name: "CBlockScan"),
        /// LZ4's block decoder for the unified log's chunksets: UnifiedLog's one piece of unchecked memory access.
        .target(name: "CLZ4"),
        /// What only `bench` needs: one CPU to measure on, and malloc's free memory given back.
        .target(name: "CBench"),
        /// The closed sets of the domain, each spelled once for the wire, the logs and the reports: how a process
        /// ended and who ended it, priority bands, recoveries, load outcomes, faults, the analyzer's verdicts.
        .target(name: "Vocabulary"),
        /// /proc read and parsed in one place, for the supervisor, Jetsam (which cannot link the supervisor's modules: it is a
        /// small static executable of its own), the benchmarks and the tests.
        .target(name: "ProcFS"),
        /// Which worker a memory killer takes: one rule for Jetsam and for the kills a replay deals.
        .target(name: "Killer", dependencies: ["Vocabulary"]),
        .target(name: "WireProtocol"),
        /// The typed event log: what happened in a run, and the JSON Lines it is written as. It knows nothing of who
        /// emits the events.
        .target(name: "Events", dependencies: ["Vocabulary", "WireProtocol"]),
        /// The replay schedule: an incident's moments as `analyze --replay` writes them and `compare --replay` runs
        /// them.
        .target(name: "Replay", dependencies: ["Events", "Vocabulary"]),
        /// Text for a terminal: 100 columns, wrapped at words.
        .target(name: "Text"),
        /// The only way to the kernel: system calls, descriptors, the event loop, the files a user names.
        .target(name: "System", dependencies: ["CShim", "CBlockScan", "ProcFS", "Text", "Vocabulary"]),
        /// A worker process as the kernel sees it: its channel, how it ended, its priority band.
        .target(name: "Process", dependencies: ["System", "Text", "WireProtocol", "CShim", "Vocabulary"]),
        /// The supervisor: views and workers, policies (data), recovery, watchdogs and spares, on the clock and the
        /// launcher it is given. Commands in, events out; it knows no tab, session, editor, seed or fault.
        .target(name: "Core", dependencies: ["Process", "Events", "System", "WireProtocol", "CShim", "Vocabulary"]),
        /// The browser, a client of the core: tabs, back/forward, the session file, error pages, the navigation
        /// policy, the editor and its journal, the content scheme handler.
        .target(
            name: "Browser", dependencies: ["Core", "Process", "Events", "System", "Text", "WireProtocol", "CShim", "Vocabulary"]),
        /// The simulated world, driving the browser and the core: the workload, seeded choices, injected faults, the
        /// browsing user, the typist, the Jetsam process, the run's summary and its iOS log.
        .target(
            name: "Scenario",
            dependencies: [
                "Browser", "Core", "Process", "System", "Events", "Replay", "Text", "WireProtocol", "CShim", "Killer", "ProcFS",
                "Vocabulary",
            ]),
        /// Apple's binary unified log (tracev3): chunks, LZ4, catalogs, firehose entries. Entries out, and no WebKit
        /// knowledge: used by `analyze` and by `log show`.
        .target(name: "UnifiedLog", dependencies: ["CLZ4"]),
        /// `analyze`: logs and reports read, timelines, classification, incidents. It knows nothing of the core.
        .target(
            name: "LogAnalysis", dependencies: ["System", "Text", "Events", "Replay", "CShim", "Vocabulary", "UnifiedLog"],
            exclude: ["IOSLogFormats.md"]),
        /// Every command's option table and help, in a library so that tests can check them against each other.
        .target(
            name: "CommandLineOptions",
            dependencies: ["Browser", "Core", "Process", "Scenario", "LogAnalysis", "Events", "Text", "System", "Vocabulary"]),
        /// What the tests run the core and the simulated world on: a virtual clock, and workers that are no
        /// processes (scripted, or behaving as WebContent from its own page reader). Nothing in the product imports it.
        .target(
            name: "TestSupport", dependencies: ["Core", "Process", "System", "WireProtocol", "Vocabulary", "WorkerRuntime"]),
        /// What `compare` and `analyze` draw and write for a person: the comparison's tables and chart, the swim lanes,
        /// the HTML report.
        .target(name: "Charts", dependencies: ["Browser", "Core", "Scenario", "LogAnalysis", "Events", "Text", "System", "Vocabulary"]),
        /// `supervisor bench`: every metric beside its floor, measured in the same run.
        .target(
            name: "Bench",
            dependencies: [
                "Browser", "Core", "Scenario", "LogAnalysis", "Events", "Text", "System", "Process", "ProcFS", "WireProtocol",
                "CBench", "UnifiedLog", "Vocabulary",
            ]),
        .executableTarget(
            name: "supervisor",
            dependencies: [
                "Browser", "Events", "Text", "System", "Process", "Core", "Scenario", "LogAnalysis", "CommandLineOptions",
                "Replay", "Charts", "Bench", "WebContent", "WebContentPortable", "Jetsam", "Holder", "FoundationProbe",
                "Vocabulary", "UnifiedLog",
            ],
            linkerSettings: staticExecutable),
        /// Foundation.Process driving the same worker: the benchmark's "what a Swift user would pick instead".
        .executableTarget(name: "FoundationProbe"),
        .target(
            name: "WorkerRuntime",
            path: "Workers/WorkerRuntime",
            cSettings: [.unsafeFlags(["-ffreestanding", "-fno-builtin", "-fno-stack-protector"])]
        ),
        .executableTarget(
            name: "WebContent",
            dependencies: ["WorkerRuntime"],
            path: "Workers/WebContent",
            swiftSettings: embedded,
            linkerSettings: bareExecutable
        ),
        /// The same worker as ordinary static Swift, on glibc and the Swift runtime (its sources are symlinks to
        /// WebContent's): slower to start, but it needs nothing of Embedded Swift, so a toolchain that breaks the
        /// experimental feature cannot stop the product (`--worker portable`).
        .executableTarget(
            name: "WebContentPortable",
            dependencies: ["WorkerRuntime"],
            path: "Workers/WebContentPortable",
            linkerSettings: staticExecutable
        ),
        .executableTarget(name: "Jetsam", dependencies: ["CShim", "ProcFS", "Killer", "Vocabulary"], path: "Workers/Jetsam", linkerSettings: staticExecutable),
        /// Keeps the workers it spawns alive across the supervisor's death for a lease, and no longer (issue 34: the
        /// supervisor's side, adoption, is still to come).
        .executableTarget(name: "Holder", dependencies: ["CShim", "Vocabulary"], path: "Workers/Holder", linkerSettings: staticExecutable),
        /// What the tests share: the process gate and its tiers, the built binaries, runs of the simulated world,
        /// fixtures. A test target, so it may see what the modules keep internal, and no release build compiles it.
        .testTarget(
            name: "SupervisorTesting",
            dependencies: [
                "Browser", "CShim", "CommandLineOptions", "Core", "Events", "LogAnalysis", "ProcFS", "Process", "Scenario",
                "System", "TestSupport", "Text", "UnifiedLog", "Vocabulary", "WireProtocol",
            ]),
    ] + moduleTests.map { .testTarget(name: $0.name, dependencies: $0.dependencies) },
    swiftLanguageModes: [.v6]
)

// MARK: - Fuzzing

/// `scripts/fuzz` sets SUPERVISOR_FUZZ and builds in a scratch path of its own with `-sanitize=fuzzer,address`. Only
/// then does the package hold the libFuzzer harnesses (scripts/fuzz-targets), and none of the products, workers or
/// tests: no sanitizer meets the Embedded worker, and a plain `swift build` or `swift test` builds exactly what it
/// did before.
if Context.environment["SUPERVISOR_FUZZ"] != nil {
    let kept: Set<String> = [
        "CShim", "CBlockScan", "Vocabulary", "ProcFS", "Killer", "WireProtocol", "Events", "Replay", "Text", "System", "Process", "Core", "Browser", "Scenario",
        "LogAnalysis", "CommandLineOptions", "UnifiedLog", "CLZ4",
    ]
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("frames", ["WireProtocol"]), ("session", ["Browser", "System", "WireProtocol"]),
        ("journal", ["Browser", "System"]),
        ("analyzer-lines", ["LogAnalysis", "System"]), ("analyzer-reports", ["LogAnalysis", "Events", "System"]),
        ("content-path", ["Browser"]), ("options", ["CommandLineOptions"]), ("replay", ["Replay", "Events", "Vocabulary"]),
        ("tar-headers", ["LogAnalysis", "System"]), ("tracev3", ["UnifiedLog"]),
    ]
    package.products = []
    package.targets = package.targets.filter { kept.contains($0.name) }
    package.targets.append(.target(name: "FuzzDriver", path: "scripts/fuzz-targets/FuzzDriver"))
    for harness in harnesses {
        package.targets.append(.executableTarget(
            name: "fuzz-" + harness.name, dependencies: ["FuzzDriver"] + harness.dependencies,
            path: "scripts/fuzz-targets/" + harness.name,
            // ld.gold stops with an internal error on the sanitized objects.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]))
    }
}
