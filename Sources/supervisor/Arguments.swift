import Events
import SupervisorKit

/// A command-line mistake: reported in one line, exit status 64 (EX_USAGE).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Options as `--name value`, `--name=value` or bare `--flag`, in any order.
struct Arguments {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Words that are not options, in order, for commands that take them (`-` among them).
    private(set) var positionals: [String] = []

    /// Splits `words` using the option names this command knows; anything else is a usage error. A name in
    /// `optionalValues` is a flag that may carry `=value`.
    init(
        _ words: ArraySlice<String>, options: Set<String>, flags knownFlags: Set<String>,
        optionalValues: Set<String> = [], positionals allowsPositionals: Bool = false
    ) throws(UsageError) {
        var rest = words[...]
        while let word = rest.popFirst() {
            if word == "--" {
                // Everything after it is an argument, even a name that begins with a dash.
                guard allowsPositionals || rest.isEmpty else { throw UsageError("unexpected argument '\(rest.first!)'") }
                positionals += rest
                break
            }
            guard word.hasPrefix("--") else {
                guard allowsPositionals, word == "-" || !word.hasPrefix("-") else {
                    throw UsageError("unexpected argument '\(word)'")
                }
                positionals.append(word)
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if optionalValues.contains(name) {
                values[name, default: []].append(parts.count == 2 ? parts[1] : "")
            } else if knownFlags.contains(name) {
                guard parts.count == 1 else { throw UsageError("'\(name)' takes no value") }
                flags.insert(name)
            } else if options.contains(name) {
                if parts.count == 2 {
                    values[name, default: []].append(parts[1])
                } else if let value = rest.popFirst(), !value.hasPrefix("--") {
                    values[name, default: []].append(value)
                } else {
                    throw UsageError("missing value for '\(name)'")
                }
            } else {
                let known = options.union(knownFlags).union(optionalValues)
                let hint = Self.closest(to: name, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown option '\(name)'\(hint)")
            }
        }
    }

    /// The known name a typo most likely meant: at most two edits away, or the only one it begins.
    static func closest(to name: String, in known: Set<String>) -> String? {
        let scored = known.map { ($0, editDistance(Array(name), Array($0))) }.filter { $0.1 <= 2 }
        if let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) { return best.0 }
        let prefixed = known.filter { $0.hasPrefix(name) && name.count > 3 }
        return prefixed.count == 1 ? prefixed.first : nil
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
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

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's value; given twice, the last one.
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The option's value as a file name; an empty one is a usage error, not the current directory or nothing.
    func path(_ name: String) throws(UsageError) -> String? {
        guard let value = string(name) else { return nil }
        guard !value.isEmpty else { throw UsageError("'\(name)' needs a file name, not an empty one") }
        return value
    }

    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = string(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A number of milliseconds from `range`, as nanoseconds: finite, and small enough that no deadline computed
    /// from it can overflow.
    func milliseconds(_ name: String, _ text: String, range: ClosedRange<Double>) throws(UsageError) -> Int {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("'\(name)' takes milliseconds from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound)), not '\(text)'")
        }
        return Int((value * 1e6).rounded())
    }

    /// `5`, `0.1`, `3600000`: a bound as a person writes it.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
