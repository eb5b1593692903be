import Glibc
import SupervisorKit

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
            let hint = Arguments.closest(to: verb, in: ["create", "restore", "show"]).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown session command '\(verb)'\(hint)")
        }
    }

    /// The file named by the one positional argument.
    static func file(_ arguments: Arguments, _ verb: String) throws -> String {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("'session \(verb)' takes one session file")
        }
        return path
    }

    /// `session create FILE --tabs N`: N tabs of a few entries each, at a seeded place in their history, one visible.
    static func create(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(words, options: ["--tabs", "--seed", "--content"], flags: [], positionals: true)
        let path = try file(arguments, "create")
        let count = try arguments.integer("--tabs", default: 100, range: 1...1_000_000)
        let seed = try arguments.integer("--seed", default: 1, range: 0...Int.max)
        let pages = try RunCommand.contentProvider(arguments).pages
        let session = Session.generated(tabs: count, pages: pages, seed: UInt64(seed))
        try SessionFile.write(SessionFile.encode(session), to: path)
        print("wrote \(count) tabs to \(path)")
        return 0
    }

    /// `session restore FILE`: restores every tab unrealized, realizes and renders the visible one, and says how
    /// long that took and what an unrealized tab costs.
    static func restore(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(words, options: ["--worker", "--content"], flags: ["--json"], positionals: true)
        let path = try file(arguments, "restore")
        var configuration = RunConfiguration(workerPath: try arguments.path("--worker") ?? RunCommand.defaultWorkerPath())
        try RunCommand.requireExecutable(configuration.workerPath, "worker", hint: "build it with 'swift build' or pass --worker")
        // One worker, the visible tab's: no spare is launched beside it.
        configuration.policy = Policy.guarded
        configuration.policy.spareWorkers = 0
        configuration.loads = 0
        configuration.sessionPath = path
        let content = try RunCommand.contentProvider(arguments)
        let log = EventLog()
        let host = try Host(configuration: configuration, content: content, log: log)
        let measure = RestoreMeasurement(log: log)
        let damage = try measure.restoring { () throws -> SessionDamage? in
            let (session, damage) = try read(path)
            host.restore(session, damage: damage, into: SessionStore(readOnly: path))
            return damage
        }
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        try host.stopOnTerminationSignals()
        let summary = try host.run()
        if let failure = host.failure { throw RuntimeError(failure) }
        let result = measure.result(tabs: host.tabs, summary: summary, damage: damage)
        try writeStandardOutput((arguments.flag("--json") ? result.json.text : result.text) + "\n")
        return summary.interrupted ? 130 : 0
    }

    /// `session show FILE`: every tab, its place in history and its current page.
    static func show(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(words, options: [], flags: ["--json"], positionals: true)
        let path = try file(arguments, "show")
        let (session, damage) = try read(path)
        if let damage { printError("supervisor: warning: \(path): \(damage)") }
        let tabs = session.records.map(\.saved)
        if arguments.flag("--json") {
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
            var out = "TAB       SHOWN  ENTRY  CURRENT PAGE\n"
            for tab in tabs {
                let place = "\(tab.history.index + 1)/\(tab.history.entries.count)"
                let url = tab.history.current?.url ?? "-"
                out += pad(String(tab.id), 10) + pad(tab.visible ? "yes" : "", 7) + pad(place, 7) + String(url.prefix(76)) + "\n"
            }
            try writeStandardOutput(out)
        }
        return 0
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
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
