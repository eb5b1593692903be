import Core
import Glibc
import Browser
import Scenario
import System

/// The session-restore row of `bench`: a 10,000-tab session file made usable (read, checked, decoded, every tab
/// made unrealized in a browser), beside the floor of reading and checksumming the same file.
enum SessionBench {
    static let tabs = 10_000

    /// Writes the benchmark's session file in `scratch`; the caller removes it.
    static func writeFile(in scratch: String) throws -> String {
        let path = scratch + "/supervisor-bench-\(getpid()).session"
        do {
            try SessionFile.write(SessionFile.encode(Session.generated(tabs: tabs, pages: ContentProvider().pages, seed: 1)), to: path)
        } catch {
            throw BenchFailure("cannot write '\(path)': \(error)")
        }
        return path
    }

    /// Milliseconds from nothing to every tab of `path` restored, `count` times, each into a new browser.
    static func restore(_ path: String, count: Int, workerPath: String) throws -> [Double] {
        try (0..<count).map { _ in
            let simulation = try Simulation(configuration: RunConfiguration(workerPath: workerPath), content: ContentProvider(), log: EventLog())
            let start = Sys.monotonicNanoseconds()
            let (session, damage) = try SessionFile.readRecords(path)
            simulation.browser.restore(session, damage: damage, into: SessionStore(readOnly: path))
            let elapsed = Sys.monotonicNanoseconds() - start
            guard simulation.browser.tabs.count == tabs else { throw BenchFailure("restored \(simulation.browser.tabs.count) of \(tabs) tabs from '\(path)'") }
            return Double(elapsed) / 1e6
        }
    }
}
