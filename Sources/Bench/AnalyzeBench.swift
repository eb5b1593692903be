import Events
import Glibc
import LogAnalysis
import Browser
import Scenario
import System
import Vocabulary

/// `analyze` on a generated device log of the asked size and density of WebKit lines, beside
/// `LC_ALL=C grep -c RBSAssertionErrorDomain` on the same file: both as separate processes with their output written
/// to a file (GNU grep stops at the first match when its output is /dev/null), taking turns, the file already in the
/// page cache. The peak RSS is the one the analysis reports with `--stats` (its own VmHWM). It must find exactly the
/// kill-before-render incidents planted.
enum AnalyzeBench {
    struct Result {
        var seconds: [Double] = []
        var grepSeconds: [Double] = []
        var peakRSSMiB: [Double] = []
    }

    /// `scratch` gets a fresh folder of its own for the log, removed after.
    static func measure(
        megabytes: Int, chatterPercent: Int, rounds: Int, scratch: String, supervisor: String
    ) throws -> Result {
        var template = Array((scratch + "/supervisor-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchFailure("cannot make a folder in '\(scratch)': \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        let path = folder + "/device.log"
        let output = folder + "/out"
        defer {
            unlink(path)
            unlink(output)
            rmdir(folder)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        var generator = DeviceLogGenerator(seed: 1, chatterPercent: chatterPercent)
        do {
            try generator.write(to: fd, bytes: megabytes << 20)
        } catch {
            close(fd)
            throw BenchFailure("cannot write '\(path)': \(error)")
        }
        close(fd)
        let grep = ["/usr/bin/grep", "/bin/grep"].first(where: { (path: String) in access(path, X_OK) == 0 }) ?? "/bin/grep"
        var result = Result()
        for round in 0..<rounds {
            for side in round % 2 == 0 ? [0, 1] : [1, 0] {
                let start = Sys.monotonicNanoseconds()
                let exit =
                    side == 0
                    ? try Sys.run(supervisor, ["analyze", path, "--json", "--stats"], output: output)
                    : try Sys.run(grep, ["-c", "RBSAssertionErrorDomain", path], environment: ["LC_ALL=C"], output: output)
                let seconds = Double(Sys.monotonicNanoseconds() - start) / 1e9
                // grep -c exits 1 when it counts no match, which a small log may have.
                guard exit == .code(0) || side == 1 && exit == .code(1) else {
                    throw BenchFailure("'\(side == 0 ? "supervisor analyze" : "grep")' \(exit.wording)")
                }
                if side == 0 {
                    result.seconds.append(seconds)
                    result.peakRSSMiB.append(Double(try check(output, planted: generator.killedBeforeRender.count)) / Double(1 << 20))
                } else {
                    result.grepSeconds.append(seconds)
                }
            }
        }
        return result
    }

    /// Fast and wrong would not count: the JSON must list every planted incident and no other. Returns the peak
    /// RSS the analysis reported for itself.
    static func check(_ output: String, planted: Int) throws -> Int {
        guard let file = fopen(output, "r") else { throw BenchFailure("cannot read '\(output)'") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[0..<n] }
        let text = String(decoding: bytes, as: UTF8.self)
        let found = text.split(separator: #""kind":"#).dropFirst()
        let blank = found.filter { $0.hasPrefix(#""killed-before-render""#) }.count
        guard blank == planted, found.count == planted else {
            throw BenchFailure("analyze found \(blank) kill-before-render incidents (\(found.count) in all) where \(planted) were planted")
        }
        guard let peak = text.split(separator: #""peakRSSBytes":"#).dropFirst().first.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            throw BenchFailure("analyze --stats reported no peak RSS")
        }
        return peak
    }
}
