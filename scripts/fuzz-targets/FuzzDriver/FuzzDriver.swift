// The part every libFuzzer harness shares: seeds written from the code's own encoders, then libFuzzer's driver.
import Glibc

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) private var check: (UnsafeRawBufferPointer) -> Void = { _ in }

/// Runs a harness: `--write-seeds DIR` writes `seeds` (name, bytes) into DIR and exits; anything else is libFuzzer's
/// command line, and every input it makes is given to `body`, which traps (`violated`) when a property fails.
public func runFuzzer(seeds: () -> [(name: String, bytes: [UInt8])], _ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    let arguments = CommandLine.arguments
    if arguments.count == 3, arguments[1] == "--write-seeds" {
        for seed in seeds() { write(seed.bytes, to: arguments[2] + "/seed-" + seed.name) }
        exit(0)
    }
    check = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        check(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    })
}

/// libFuzzer's own entry point, for a link that keeps its `main` (the one-module build of `scripts/fuzz --planted`).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// A property does not hold: says which on standard error and aborts, which libFuzzer reports as a crash, saving
/// the input.
public func violated(_ message: String) -> Never {
    let line = "property violated: " + message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

private func write(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { violated("cannot write the seed \(path): errno \(errno)") }
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
