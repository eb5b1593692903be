import Glibc
import SupervisorKit

/// `analyze` on a generated device log of the asked size, beside `LC_ALL=C grep -c RBSAssertionErrorDomain` on the
/// same file: both as separate processes with their output written to a file (GNU grep stops at the first match
/// when its output is /dev/null), taking turns, the file already in the page cache. Each run's peak RSS is its own,
/// from wait4. The analysis must find exactly the kill-before-render incidents the generator planted.
enum AnalyzeBench {
    struct Result {
        var seconds: [Double] = []
        var grepSeconds: [Double] = []
        var peakRSSMiB: [Double] = []
    }

    static func measure(megabytes: Int, rounds: Int, folder: String) throws -> Result {
        let path = folder + "/device.log"
        let output = folder + "/out"
        defer {
            unlink(path)
            unlink(output)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RuntimeError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        var generator = DeviceLogGenerator(seed: 1)
        do {
            try generator.write(to: fd, bytes: megabytes << 20)
        } catch {
            close(fd)
            throw RuntimeError("cannot write '\(path)': \(error)")
        }
        close(fd)
        let grep = ["/usr/bin/grep", "/bin/grep"].first(where: { (path: String) in access(path, X_OK) == 0 }) ?? "/bin/grep"
        let supervisor = RunCommand.siblingExecutable("supervisor")
        var result = Result()
        for round in 0..<rounds {
            for side in round % 2 == 0 ? [0, 1] : [1, 0] {
                let start = monotonicNow()
                let (status, rss) =
                    side == 0
                    ? try Sys.runMeasured(supervisor, ["analyze", path, "--json"], output: output)
                    : try Sys.runMeasured(grep, ["-c", "RBSAssertionErrorDomain", path], environment: ["LC_ALL=C"], output: output)
                let seconds = Double(monotonicNow() - start) / 1e9
                guard status == 0 else { throw RuntimeError("'\(side == 0 ? "supervisor analyze" : "grep")' failed with status \(status)") }
                if side == 0 {
                    result.seconds.append(seconds)
                    result.peakRSSMiB.append(Double(rss) / Double(1 << 20))
                    try check(output, planted: generator.killedBeforeRender.count)
                } else {
                    result.grepSeconds.append(seconds)
                }
            }
        }
        return result
    }

    /// Fast and wrong would not count: the JSON must list every planted incident and no other.
    private static func check(_ output: String, planted: Int) throws {
        guard let file = fopen(output, "r") else { throw RuntimeError("cannot read '\(output)'") }
        defer { fclose(file) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { text += chunk[0..<n] }
        let found = String(decoding: text, as: UTF8.self).split(separator: #""kind":"#).dropFirst()
        let blank = found.filter { $0.hasPrefix(#""killed-before-render""#) }.count
        guard blank == planted, found.count == planted else {
            throw RuntimeError("analyze found \(blank) kill-before-render incidents (\(found.count) in all) where \(planted) were planted")
        }
    }
}
