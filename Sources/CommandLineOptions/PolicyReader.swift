import Core
import Text

/// Reads a policy as a user gives one: a built-in's name, fields inline (`observe=spawn,recover=rebuild`), or a JSON
/// file holding one object with the same keys (`@file`, or a name ending `.json`). Fields left out keep their
/// defaults, or those of the built-in named by `base`. Every mistake is one line naming the field and the values it
/// takes.
enum PolicyReader {
    /// A policy, and whether its name was given (a built-in's, or `name=`) rather than derived from its fields.
    struct Read {
        var policy: Policy
        let named: Bool
    }

    /// `list` says the text is one item of `--policies`, whose errors also say how policies are separated there.
    static func read(_ text: String, option: String, list: Bool = false) throws(UsageError) -> Read {
        if let path = jsonPath(text) { return try policy(jsonFields(path, option: option), option: option) }
        guard text.unicodeScalars.contains("=") else {
            if takes(text) != nil { throw notAField(text, in: text, option: option, list: list) }
            return Read(policy: try builtIn(text, option: option), named: true)
        }
        var fields: [(key: String, value: String)] = []
        for item in pieces(of: text, at: ",") {
            let pair = pieces(of: item, at: "=", maxSplits: 1)
            guard pair.count == 2 else { throw notAField(item, in: text, option: option, list: list) }
            fields.append((pair[0], pair[1]))
        }
        return try policy(fields, option: option)
    }

    /// Whether `text` is one policy given as fields or a file, rather than built-in names.
    static func isFields(_ text: String) -> Bool { jsonPath(text) != nil || text.unicodeScalars.contains("=") }

    static func jsonPath(_ text: String) -> String? {
        if text.hasPrefix("@") { return String(text.dropFirst()) }
        return text.hasSuffix(".json") && !text.unicodeScalars.contains("=") ? text : nil
    }

    static func builtIn(_ name: String, option: String) throws(UsageError) -> Policy {
        guard let policy = Policy.named(name) else {
            let hint = closestName(to: name, in: Set(Policy.all.map(\.name)))
            throw UsageError("'\(option)': unknown policy '\(name)'" + (hint.map { "; did you mean '\($0)'?" }
                ?? "; the built-in policies are " + spelledList(Policy.all.map(\.name), or: false)))
        }
        return policy
    }

    static let builtInNames = spelledList(Policy.all.map(\.name), or: true)

    /// Every key a policy takes, `base` among them.
    static let keys = ["name", "base"] + PolicyField.all.map(\.key).filter { $0 != "name" }

    /// The policy `fields` describe: `base` (wherever it stands) first, then each field, each key at most once.
    static func policy(_ fields: [(key: String, value: String)], option: String) throws(UsageError) -> Read {
        var seen: Set<String> = []
        var base: Policy?
        for (key, value) in fields {
            guard seen.insert(key).inserted else {
                throw UsageError("'\(option)': '\(visible(key))' is given twice; give it once, as \(takes(key) ?? "one value")")
            }
            if key == "base" {
                guard let policy = Policy.named(value) else {
                    throw UsageError("'\(option)': 'base' takes \(builtInNames), not '\(visible(value))'")
                }
                base = policy
            }
        }
        var policy = base ?? Policy(name: "custom")
        for (key, value) in fields where key != "base" {
            guard let field = PolicyField.named(key) else { throw unknownField(key, option: option) }
            try field.apply(option, value, &policy)
        }
        guard seen.contains("name") else {
            policy.name = derivedName(policy, base: base)
            return Read(policy: policy, named: false)
        }
        if let builtIn = Policy.named(policy.name), builtIn != policy {
            throw UsageError(
                "'\(option)': 'name' \(policy.name) is a built-in's, and these fields are not it: start from it with "
                    + "base=\(policy.name) and give the result another name")
        }
        return Read(policy: policy, named: true)
    }

    /// `custom`, or the base's name and each field changed from it with its value (`guarded spares=0`), as the
    /// user wrote them: what a comparison calls a policy its user did not name (`guarded+spares` read as "guarded
    /// with spares" for a policy that has none). Past 40 characters, how many fields changed.
    static func derivedName(_ policy: Policy, base: Policy?) -> String {
        guard let base else { return "custom" }
        let changed = PolicyField.all.filter { $0.key != "name" && $0.show(policy) != $0.show(base) }
        let name = ([base.name] + changed.map { "\($0.key)=\($0.show(policy))" }).joined(separator: " ")
        return name.count <= 40 ? name : "\(base.name) with \(counted(changed.count, "field")) changed"
    }

    static func takes(_ key: String) -> String? {
        key == "base" ? builtInNames : PolicyField.named(key)?.takes
    }

    static func unknownField(_ key: String, option: String) -> UsageError {
        let hint = closestName(to: key, in: Set(keys)).map { "; did you mean '\($0)'?" }
        return UsageError("'\(option)': no field '\(visible(key))'" + (hint ?? "; the fields are " + spelledList(keys, or: false)))
    }

    /// An item of an inline policy that is not `key=value`.
    static func notAField(_ item: String, in text: String, option: String, list: Bool) -> UsageError {
        if let takes = takes(item) { return UsageError("'\(option)': '\(item)' needs a value: \(item)=, taking \(takes)") }
        if Policy.named(item) != nil {
            let separate = list ? "; separate policies with ';'" : ""
            return UsageError("'\(option)': '\(item)' is a policy, not a field: start from it with base=\(item)\(separate)")
        }
        guard item.isEmpty else { return unknownField(item, option: option) }
        return UsageError("'\(option)' takes key=value fields separated by commas, not '\(text)'")
    }
}
