import CommandLineOptions
import Core
import Events
import Glibc
import Browser
import Scenario
import System
import Text

/// `supervisor session create|restore|show`: session files of many tabs, made, restored and read.
enum SessionCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        guard let verb = words.first else { throw UsageError("'session' needs 'create', 'restore' or 'show' (see 'supervisor session --help')") }
        let rest = words.dropFirst()
        switch verb {
        case "create": return try create(rest)
        case "restore": return try restore(rest)
        case "show": return try show(rest)
        default:
            let hint = closestName(to: verb, in: ["create", "restore", "show"]).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown session command '\(verb)'\(hint)")
        }
    }

    /// The file named by the one argument.
    static func file(_ arguments: ParsedOptions, _ verb: String) throws -> String {
        guard arguments.arguments.count == 1, let path = arguments.arguments.first else {
            throw UsageError("'session \(verb)' takes one session file")
        }
        return path
    }

    /// `session create FILE --tabs N`: N tabs of a few entries each, at a seeded place in their history, one visible.
    static func create(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.session.create
        let arguments = try options.table.parse(words)
        let path = try file(arguments, "create")
        if OutputFile.namesStandardOutput(path) {
            throw UsageError(
                "a session file is binary: 'session create' does not write it to standard output ('\(path)'); name a file")
        }
        let count = arguments[options.tabs]
        let pages = try RunCommand.contentProvider(arguments[options.content]).pages
        let session = Session.generated(tabs: count, pages: pages, seed: arguments[options.seed])
        try SessionFile.write(SessionFile.encode(session), to: path, force: arguments[options.force])
        try writeStandardOutput(wrapped("wrote \(counted(count, "tab")) to \(path)", indent: 2).joined(separator: "\n") + "\n")
        return 0
    }

    /// `session restore FILE`: restores every tab unrealized, realizes and renders the visible one, and says how
    /// long that took and what an unrealized tab costs.
    static func restore(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.session.restore
        let arguments = try options.table.parse(words)
        let path = try file(arguments, "restore")
        var configuration = RunConfiguration(workerPath: workerExecutable(arguments[options.worker]))
        try RunCommand.requireExecutable(configuration.workerPath, "worker", hint: "build it with 'swift build' or pass --worker")
        // One worker, the visible tab's: no spare is launched beside it.
        configuration.policy = Policy.guarded
        configuration.policy.spareWorkers = 0
        configuration.loads = 0
        configuration.sessionPath = path
        let content = try RunCommand.contentProvider(arguments[options.content])
        let log = EventLog()
        try Orphans.adopt()
        defer { Orphans.sweepAll() }
        let simulation = try Simulation(configuration: configuration, content: content, log: log)
        let measure = RestoreMeasurement(log: log)
        let damage = try measure.restoring { () throws -> SessionDamage? in
            let (session, damage) = try read(path)
            simulation.browser.restore(session, damage: damage, into: SessionStore(readOnly: path))
            return damage
        }
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        try simulation.stopOnTerminationSignals()
        let summary = try simulation.run()
        if let failure = simulation.failure { throw RuntimeError(failure) }
        let result = measure.result(tabs: simulation.browser.tabs, summary: summary, damage: damage)
        try writeStandardOutput((arguments[options.json] ? result.json.text : result.text) + "\n")
        return summary.interrupted ? 130 : 0
    }

    /// `session show FILE`: every tab, its place in history and its current page.
    static func show(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.session.show
        let arguments = try options.table.parse(words)
        let path = try file(arguments, "show")
        let (session, damage) = try read(path)
        if let damage { printError("supervisor: warning: \(path): \(damage)") }
        let tabs = session.records.map(\.saved)
        if arguments[options.json] {
            let list = tabs.map { tab in
                JSON.object([
                    ("id", .int(Int(tab.id))), ("visible", .bool(tab.visible)), ("index", .int(tab.history.index)),
                    ("urls", .array(tab.history.entries.map { .string($0.url) })),
                    ("titles", .array(tab.history.entries.map { .string($0.title) })),
                ])
            }
            let journal = session.journal.map { JSON.object([("path", .string($0.path)), ("records", .int(Int($0.records)))]) }
            try writeStandardOutput(JSON.object([("tabs", .array(list)), ("journal", journal ?? .null)]).text + "\n")
        } else {
            try writeStandardOutput(table(tabs).joined(separator: "\n") + "\n")
        }
        return 0
    }

    /// One line per tab; a URL, shown `visible` (a worker committed it), too long for the line is cut between two
    /// of its tokens, with `…`.
    static func table(_ tabs: [SavedTab]) -> [String] {
        let rows = [["TAB", "SHOWN", "ENTRY"]] + tabs.map { tab in
            [String(tab.id), tab.visible ? "yes" : "", "\(tab.history.index + 1)/\(tab.history.entries.count)"]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let room = lineWidth - widths.reduce(0, +) - 6
        let pages = ["CURRENT PAGE"] + tabs.map { clipped(visible($0.history.current?.url ?? "-"), width: room) }
        return zip(rows, pages).map { row, page in
            zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count + 2) }.joined() + page
        }
    }

    /// The session saved at `path`, with what was damaged. A file that is not a session at all is an error.
    static func read(_ path: String) throws -> (SessionRecords, SessionDamage?) {
        let (records, damage) = try SessionFile.readRecords(path)
        if let damage, damage.refusal != nil {
            throw RuntimeError("cannot read '\(path)': \(damage.refusal == .notASessionFile ? "it is not a session file" : "\(damage)")")
        }
        return (records, damage)
    }
}
