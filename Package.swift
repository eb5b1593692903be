// swift-tools-version:6.0
import PackageDescription

/// Workers are linked statically: a static child reaches its first pipe write in about a quarter of the time a
/// dynamically linked one does (no loader, no relocations), and spawn time is what every recovery waits for.
let staticExecutable: [LinkerSetting] = [.unsafeFlags(["-static-executable"])]

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
        .target(name: "WireProtocol"),
        .target(name: "SupervisorKit", dependencies: ["CShim", "WireProtocol"]),
        .executableTarget(name: "supervisor", dependencies: ["SupervisorKit", "WebContent", "Jetsam", "FoundationProbe"]),
        /// Foundation.Process driving the same worker: the benchmark's "what a Swift user would pick instead".
        .executableTarget(name: "FoundationProbe"),
        .executableTarget(
            name: "WebContent",
            dependencies: ["CShim", "WireProtocol"],
            path: "Workers/WebContent",
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
