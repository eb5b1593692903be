import LogAnalysis
import Text

/// A command's options, declared once: the parser, the defaults and the help text all read this table.
public struct OptionTable: Sendable {
    public let entries: [OptionEntry]
    /// Whether words that are not options (`-` among them) are arguments of the command, or mistakes.
    public let takesArguments: Bool

    public init(_ options: [any OptionHandle], arguments takesArguments: Bool = false) {
        entries = options.map(\.entry)
        self.takesArguments = takesArguments
    }

    public func entry(_ name: String) -> OptionEntry? { entries.first { $0.name == name } }

    /// Options as `--name value`, `--name=value` or bare `--flag`, in any order, each value read and checked as
    /// it is met, so that a mistake is reported before the command does any work. `--` ends the options.
    public func parse(_ words: ArraySlice<String>) throws(UsageError) -> ParsedOptions {
        var parsed = ParsedOptions(table: self)
        var rest = words[...]
        while let word = rest.popFirst() {
            if word == "--" {
                // Everything after it is an argument, even a name that begins with a dash.
                guard takesArguments || rest.isEmpty else { throw UsageError("unexpected argument '\(rest.first!)'") }
                parsed.arguments += rest
                break
            }
            guard word.hasPrefix("--") else {
                guard takesArguments, word == "-" || !word.hasPrefix("-") else {
                    throw UsageError("unexpected argument '\(word)'")
                }
                parsed.arguments.append(word)
                continue
            }
            let parts = pieces(of: word, at: "=", maxSplits: 1, omittingEmpty: true)
            let name = parts[0]
            guard let entry = entry(name) else {
                let hint = closestName(to: name, in: Set(entries.map(\.name))).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown option '\(name)'\(hint)")
            }
            let text: String
            switch entry.takes {
            case .nothing:
                guard parts.count == 1 else { throw UsageError("'\(name)' takes no value") }
                text = ""
            case .optionalValue:
                text = parts.count == 2 ? parts[1] : ""
            case .value:
                if parts.count == 2 {
                    text = parts[1]
                } else if let value = rest.popFirst(), !value.hasPrefix("--") {
                    text = value
                } else {
                    throw UsageError("missing value for '\(name)'")
                }
            }
            parsed.values[name, default: []].append(try entry.read(name, text))
        }
        return parsed
    }
}

/// What one command line said, every value already checked; read through the table's typed handles.
public struct ParsedOptions {
    let table: OptionTable
    fileprivate(set) var values: [String: [any Sendable]] = [:]
    /// Words that are not options, in order, for commands that take them.
    public fileprivate(set) var arguments: [String] = []

    fileprivate init(table: OptionTable) { self.table = table }

    /// The value given last, or the default.
    public subscript<Value>(option: DefaultedOption<Value>) -> Value {
        values[option.entry.name]?.last as? Value ?? option.fallback
    }

    /// The value given last, if any.
    public subscript<Value>(option: Option<Value>) -> Value? { values[option.entry.name]?.last as? Value }

    public subscript(flag: Flag) -> Bool { values[flag.entry.name] != nil }

    /// Every value given for a repeatable option, in order.
    public func all<Value>(_ option: Option<Value>) -> [Value] {
        values[option.entry.name]?.compactMap { $0 as? Value } ?? []
    }

    /// Whether the command line named the option, as opposed to its default standing.
    public func given(_ option: some OptionHandle) -> Bool { values[option.entry.name] != nil }

    /// The option's value (given, else its default) written as the option takes it; nil for a flag or an absent
    /// option without a default value.
    public func shown(_ name: String) -> String? {
        guard let entry = table.entry(name), let value = values[name]?.last ?? entry.defaultValue else { return nil }
        return entry.show(value)
    }
}

/// The known name a typo most likely meant: at most two edits away, or the only one it begins.
public func closestName(to name: String, in known: Set<String>) -> String? {
    let scored = known.map { ($0, editDistance(Array(name), Array($0))) }.filter { $0.1 <= 2 }
    if let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) { return best.0 }
    let prefixed = known.filter { $0.hasPrefix(name) && name.count > 3 }
    return prefixed.count == 1 ? prefixed.first : nil
}

private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// The names in a comma-separated list: an empty list or name is a mistake, never a list of nothing.
func commaSeparated(_ list: String, of what: String, for option: String) throws(UsageError) -> [String] {
    let names = pieces(of: list, at: ",")
    guard !list.isEmpty, !names.contains("") else {
        throw UsageError("'\(option)' takes \(what) separated by commas, not '\(list)'")
    }
    return names
}

/// `text` split at `separator` taken as a Unicode scalar, not a Character: a combining mark after `=` or `,` joins
/// it into one Character (`=` then U+059E), which a split by Characters would not see.
func pieces(
    of text: some StringProtocol, at separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmpty: Bool = false
) -> [String] {
    text.unicodeScalars.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty)
        .map { String(String.UnicodeScalarView($0)) }
}
