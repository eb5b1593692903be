import Foundation

/// What a Swift user would reach for instead of the supervisor's launcher: Foundation.Process with pipes on the
/// worker's standard input and output. `supervisor bench` runs it beside its own measurements and the C floor.
///
///   FoundationProbe spawn N WORKER   nanoseconds from run() to the worker's hello, one line per launch
///   FoundationProbe kill N WORKER    nanoseconds from SIGKILL to the terminationHandler, one line per launch

func nanoseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// Starts the worker and waits for its hello (a 12-byte frame); returns the process and the time it took.
func launch(_ worker: String, onExit: (@Sendable (Process) -> Void)? = nil) throws -> (Process, Pipe, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: worker)
    process.environment = ["SWIFT_BACKTRACE": "enable=no,swift-backtrace="]  // as the supervisor starts it
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.terminationHandler = onExit
    let start = nanoseconds()
    try process.run()
    var received = 0
    while received < 12 {
        let chunk = output.fileHandleForReading.readData(ofLength: 12 - received)
        guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
        received += chunk.count
    }
    return (process, input, nanoseconds() - start)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), ["spawn", "kill"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FoundationProbe spawn|kill N WORKER\n".utf8))
    exit(64)
}
let worker = arguments[3]
do {
    for _ in 0..<count {
        if arguments[1] == "spawn" {
            let (process, input, elapsed) = try launch(worker)
            print(elapsed)
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
        } else {
            let exited = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var detectedAt = 0
            let (process, _, _) = try launch(worker) { _ in
                detectedAt = nanoseconds()
                exited.signal()
            }
            let start = nanoseconds()
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            print(detectedAt - start)
        }
    }
} catch {
    FileHandle.standardError.write(Data("FoundationProbe: \(error)\n".utf8))
    exit(1)
}
