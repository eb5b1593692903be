import Core
import Text

/// One field of a policy's data form: its key, the values it takes, and the `Policy` property it is. The inline
/// parser, the JSON reader and writer, `supervisor policies` and its help all read the one table of these
/// (`PolicyField.all`), and every default is the one `Policy(name:)` holds.
public struct PolicyField: Sendable {
    /// How the value is written in JSON.
    enum JSONForm { case string, number, flag }

    public let key: String
    /// `spawn|attach`, `<ms>`: the value in help's label.
    public let placeholder: String
    /// `spawn or attach`, `milliseconds from 0 to 3600000`: what an error says the field takes.
    public let takes: String
    public let help: String
    let json: JSONForm
    let apply: @Sendable (_ option: String, _ text: String, _ policy: inout Policy) throws(UsageError) -> Void
    /// The value as the field takes it, so that what is printed reads back to the same policy.
    let show: @Sendable (Policy) -> String

    init<Value>(
        _ key: String, _ kind: ValueKind<Value>, _ property: WritableKeyPath<Policy, Value> & Sendable,
        takes: String? = nil, json: JSONForm = .string, help: String
    ) {
        let takes = takes ?? kind.takes
        self.key = key
        self.placeholder = kind.placeholder
        self.takes = takes
        self.help = help
        self.json = json
        apply = { option, text, policy throws(UsageError) in
            do throws(UsageError) { policy[keyPath: property] = try kind.read(key, text) } catch {
                throw UsageError("'\(option)': '\(key)' takes \(takes), not '\(visible(text))'")
            }
        }
        show = { kind.show($0[keyPath: property]) }
    }

    public static func named(_ key: String) -> PolicyField? { all.first { $0.key == key } }

    /// `key=<its default>`, or nil for the name, which has none.
    public var defaultValue: String? { key == "name" ? nil : show(Policy(name: "")) }
}

extension ValueKind {
    /// What an error says a value of this kind must be: the choices (`reload, rebuild or none`), or the range and
    /// its unit, and any word it takes besides (`a whole number from 0 to 1000000 or unlimited`).
    var takes: String {
        let words = placeholder.split(separator: "|").map(String.init)
        guard let accepts else { return spelledList(words, or: true) }
        let range = accepts.split(separator: "-", maxSplits: 1).joined(separator: " to ")
        let unit = ["<ms>": "milliseconds", "<n>": "a whole number", "<factor>": "a factor", "<MiB>": "MiB",
                    "<%>": "a percentage"][words[0]] ?? "a number"
        return spelledList(["\(unit) from \(range)"] + words.dropFirst(), or: true)
    }

    /// The cases of a string enum, by their raw values, in declaration order.
    static func cases(_ key: String) -> Self where Value: CaseIterable & RawRepresentable & Equatable, Value.RawValue == String {
        .choice(key, Value.allCases.map { ($0.rawValue, $0) })
    }
}

/// `a`, `a or b`, `a, b or c` (`and` instead of `or` when `or` is false).
func spelledList(_ items: [String], or: Bool) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + items.last!
}
