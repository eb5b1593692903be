// libFuzzer harness for the option parser (Sources/CommandLineOptions: `OptionTable.parse`, every value kind's
// `read`, policies inline and by name), built and run by `scripts/fuzz`. An input is a command line: its first byte
// picks the command's table, the rest are its words, separated by NUL bytes. For every command line:
//   1. Parsing never traps: a mistake is a `UsageError`.
//   2. A line that parses re-renders, through each value kind's `show` (what help prints a default with), to words
//      that parse to the same values: rendering the second parse gives the same words again, and the same
//      arguments.
@testable import CommandLineOptions
import FuzzDriver

nonisolated let tables: [(name: String, table: OptionTable)] = [
    ("run", Commands.run.table), ("compare", Commands.compare.table), ("bench", Commands.bench.table),
    ("analyze", Commands.analyze.table), ("session-create", Commands.session.create.table),
    ("session-restore", Commands.session.restore.table), ("session-show", Commands.session.show.table),
    ("policies", Commands.policies.table),
]

/// The command line that says what `parsed` holds: each value as its option takes it, in the table's order, then
/// the arguments after `--`.
func render(_ parsed: ParsedOptions, _ table: OptionTable) -> [String] {
    var words: [String] = []
    for entry in table.entries {
        for value in parsed.values[entry.name] ?? [] {
            let shown = entry.show(value) ?? ""
            switch entry.takes {
            case .nothing: words.append(entry.name)
            case .optionalValue: words.append(shown.isEmpty ? entry.name : entry.name + "=" + shown)
            // `--name=` reads the next word, so an empty value is a word of its own.
            case .value: words += shown.isEmpty ? [entry.name, ""] : [entry.name + "=" + shown]
            }
        }
    }
    return parsed.arguments.isEmpty ? words : words + ["--"] + parsed.arguments
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    let lines: [(Int, [String])] = [
        (0, ["--policy", "guarded", "--loads=20", "--views", "4", "--inject-kill", "1/4", "--json"]),
        (0, ["--policy=base=guarded,spares=0", "--log", "run.jsonl", "--log-format=ios", "--allow-host", "a,b"]),
        (0, ["--jetsam=budget=64,log=kills.jsonl", "--seed", "7", "--typing", "10"]),
        (1, ["--policies", "reload,rebuild;base=guarded,spares=2", "--loads", "300", "--inject-race", "0.05"]),
        (3, ["--tz", "+0100", "--timeline", "4107", "--", "a.log", "-"]),
        (4, ["--tabs", "10", "--seed=3", "s.session"]), (5, ["--worker", "portable", "--json", "s.session"]),
        (2, ["--iterations", "100", "--json"]), (7, ["--json"]),
    ]
    return lines.enumerated().map { i, line in
        ("line-\(i)", [UInt8(line.0)] + Array(line.1.joined(separator: "\0").utf8))
    }
}

runFuzzer(seeds: seeds) { input in
    guard let first = input.first else { return }
    let table = tables[Int(first) % tables.count].table
    let words = input.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    guard let parsed = try? table.parse(words[...]) else { return }
    let rendered = render(parsed, table)
    let again: ParsedOptions
    do throws(UsageError) { again = try table.parse(rendered[...]) } catch {
        violated("\(words) parses, but its rendering \(rendered) does not: \(error.message)")
    }
    let twice = render(again, table)
    guard twice == rendered, again.arguments == parsed.arguments else {
        violated("\(words) renders as \(rendered), which parses to what renders as \(twice)")
    }
}
