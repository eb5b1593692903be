import Glibc

/// Samples (nanoseconds, one per line) from an external program, in milliseconds.
func samples(from path: String, _ mode: String, count: Int? = nil) throws -> [Double] {
    guard let pipe = popen("'\(path)' \(mode)", "r") else { throw BenchFailure("cannot run '\(path)'") }
    var samples: [Double] = []
    var line = [CChar](repeating: 0, count: 64)
    while fgets(&line, 64, pipe) != nil {
        let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let ns = Double(text) { samples.append(ns / 1e6) }
    }
    let expected = count ?? Int(mode.split(separator: " ")[1])!
    guard pclose(pipe) == 0, samples.count == expected else { throw BenchFailure("'\(path) \(mode)' failed") }
    return samples
}

/// Calls `body` with each of `count` sides in turn, `rounds` times over, each round starting with the next side: on
/// a shared machine whose speed drifts from second to second, every side then samples the same stretches of it.
func takingTurns(rounds: Int, _ count: Int, _ body: (_ side: Int, _ round: Int) throws -> Void) rethrows {
    for round in 0..<rounds {
        for step in 0..<count { try body((round + step) % count, round) }
    }
}

/// A program just written by the linker sits in the page cache in small pages; an installed one, read from disk,
/// sits in large folios, which every exec maps faster (measured here: the same worker binary starts about a tenth
/// sooner). Each program measured is put in that state first, the same way for ours and the floor's: written back,
/// dropped from the cache, read in again.
func settleInPageCache(_ path: String) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    fsync(fd)
    _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while read(fd, &buffer, buffer.count) > 0 {}
}
