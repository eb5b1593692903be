// swift-tools-version:6.0
import PackageDescription

/// Workers are linked statically: a static child reaches its first pipe write in about a quarter of the time a
/// dynamically linked one does (no loader, no relocations), and spawn time is what every recovery waits for.
/// Without RELRO: sealing it is an mprotect that cost 30–80 µs of every start on the benchmark machine, about a
/// sixth of the worker's whole start-up (a renderer of hostile pages would keep it).
let staticExecutable: [LinkerSetting] = [.unsafeFlags(["-static-executable", "-Xlinker", "-z", "-Xlinker", "norelro"])]
/// WebContent's code leaves out the implicit Concurrency and StringProcessing imports: they drag the concurrency
/// runtime and libdispatch into the binary, and their start-up into every worker's (Jetsam starts once per run).
let workerCode: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
    ])
]

let package = Package(
    name: "supervisor",
    products: [
        .library(name: "SupervisorKit", targets: ["SupervisorKit"]),
        .executable(name: "supervisor", targets: ["supervisor"]),
        .executable(name: "WebContent", targets: ["WebContent"]),
        .executable(name: "Jetsam", targets: ["Jetsam"]),
    ],
    targets: [
        .target(name: "CShim"),
        .target(name: "WireProtocol", swiftSettings: workerCode),
        .target(name: "SupervisorKit", dependencies: ["CShim", "WireProtocol"]),
        .executableTarget(name: "supervisor", dependencies: ["SupervisorKit", "WebContent", "Jetsam", "FoundationProbe"]),
        /// Foundation.Process driving the same worker: the benchmark's "what a Swift user would pick instead".
        .executableTarget(name: "FoundationProbe"),
        .executableTarget(
            name: "WebContent",
            dependencies: ["CShim", "WireProtocol"],
            path: "Workers/WebContent",
            swiftSettings: workerCode,
            linkerSettings: staticExecutable
        ),
        .executableTarget(name: "Jetsam", dependencies: ["CShim"], path: "Workers/Jetsam", linkerSettings: staticExecutable),
        .testTarget(
            name: "SupervisorKitTests",
            dependencies: ["SupervisorKit", "WireProtocol", "CShim"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
