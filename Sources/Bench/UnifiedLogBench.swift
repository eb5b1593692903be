import Glibc
import System

/// `log show` and `analyze` on Apple's binary unified log: the real iOS 15 file of the tests' fixtures, and an
/// archive of our making of the asked size. Each run is a separate process with its output to /dev/null (its peak
/// RSS, its own VmHWM, from `--stats`), beside `cat` of its input to /dev/null (reading the same bytes from the
/// page cache), taking turns. dtformats, the reference reader, took 1.49 s for the fixture's 8,654 entries on this
/// machine (5,808 entries a second): it is quoted, since its code is not on PyPI and its GitHub copy needs packages
/// the bench cannot count on.
enum UnifiedLogBench {
    static let fixture = "Tests/Fixtures/unified-log/0000000000000f85.tracev3"
    static let dtformatsSeconds = 1.49
    static let dtformatsEntriesPerSecond = 8_654 / 1.49

    struct Side {
        var seconds: [Double] = []
        var peakRSSMiB: [Double] = []
        var entries = 0
    }

    struct Result {
        var show = Side()
        var analyze = Side()
        var cat: [Double] = []
    }

    /// `log show` (and `analyze` when `analyzing`) on `paths`, beside `cat` of every tracev3 file under them.
    static func measure(_ path: String, files: [String], rounds: Int, analyzing: Bool, planted: Int?, scratch: String,
                        supervisor: String) throws -> Result {
        // A folder of its own: benches running at once must not write over each other's outputs.
        var template = Array((scratch + "/supervisor-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchFailure("cannot make a folder in '\(scratch)': \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        let errors = folder + "/errors", output = folder + "/output"
        defer { remove(folder) }
        var result = Result()
        for round in 0..<rounds {
            for side in round % 2 == 0 ? [0, 1, 2] : [2, 1, 0] where side != 2 || analyzing {
                let start = Sys.monotonicNanoseconds()
                let exit =
                    switch side {
                    case 0: try Sys.run(supervisor, ["log", "show", path, "--stats"], output: "/dev/null", errors: errors)
                    case 1: try Sys.run("/bin/cat", files, output: "/dev/null")
                    default: try Sys.run(supervisor, ["analyze", path, "--json", "--stats"], output: output)
                    }
                let seconds = Double(Sys.monotonicNanoseconds() - start) / 1e9
                guard exit == .code(0) else { throw BenchFailure("'\(["log show", "cat", "analyze"][side])' \(exit.wording)") }
                switch side {
                case 0:
                    let (entries, peak) = try shown(errors)
                    result.show.seconds.append(seconds)
                    result.show.peakRSSMiB.append(peak)
                    result.show.entries = entries
                case 1:
                    result.cat.append(seconds)
                default:
                    result.analyze.seconds.append(seconds)
                    result.analyze.peakRSSMiB.append(Double(try AnalyzeBench.check(output, planted: planted ?? 0)) / Double(1 << 20))
                }
            }
        }
        return result
    }

    /// `log show: 8,654 entries from 1 file; …; peak memory 16.8 MiB` from its standard error.
    private static func shown(_ path: String) throws -> (entries: Int, peakMiB: Double) {
        guard let file = fopen(path, "r") else { throw BenchFailure("cannot read '\(path)'") }
        defer { fclose(file) }
        var text = ""
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            text += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        // Standard error is wrapped at 100 columns, each continuation indented by two.
        guard let summary = text.replacing("\n  ", with: " ").split(separator: "\n").last(where: { $0.hasPrefix("log show: ") }),
            let entries = Int(summary.dropFirst(10).prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)),
            let peak = summary.split(separator: "peak memory ").last.flatMap({ Double($0.prefix { $0.isNumber || $0 == "." }) })
        else { throw BenchFailure("log show --stats said no entries or peak memory: \(text.suffix(300))") }
        return (entries, peak)
    }

    /// The folder and all under it, as the generator wrote them (no links).
    static func remove(_ path: String) {
        for name in (try? Sys.directoryEntries(path)) ?? [] {
            let child = path + "/" + name
            if (try? Sys.status(ofPath: child))??.isDirectory == true { remove(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}
