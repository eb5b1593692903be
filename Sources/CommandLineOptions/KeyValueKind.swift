/// One `key=value` entry of a list option, typed: how it reads its text and where in the whole value it goes.
public struct KeyedValue<Whole: Sendable>: Sendable {
    let option: SubOption
    let apply: @Sendable (inout Whole, _ text: String) throws(UsageError) -> Void
    /// `budget=256`, as the key takes it; nil when the whole holds nothing for this key.
    let show: @Sendable (Whole) -> String?

    /// The default is what `base` holds, read with `get`; nil there means `described`.
    public init<Value>(
        _ name: String, _ kind: ValueKind<Value>, help: String? = nil, base: Whole, default described: String? = nil,
        get: @escaping @Sendable (Whole) -> Value?, set: @escaping @Sendable (inout Whole, Value) -> Void
    ) {
        let shown = get(base).map { DefaultText.value(kind.show($0), note: nil) } ?? described.map(DefaultText.described)
        option = SubOption(name: name, placeholder: kind.placeholder, accepts: kind.accepts, help: help, defaultText: shown)
        apply = { whole, text throws(UsageError) in set(&whole, try kind.read(name, text)) }
        show = { whole in get(whole).map { "\(name)=\(kind.show($0))" } }
    }
}

extension ValueKind {
    /// `key=value,key=value`, each key at most once or the last one standing, starting from `base`; an empty value
    /// is `base` itself. Any mistake is reported with the whole syntax, so one error shows every key.
    public static func keyValues(base: Value, _ keys: [KeyedValue<Value>]) -> Self {
        let syntax = keys.map(\.option.syntax).joined(separator: ",")
        return ValueKind(placeholder: "<options>", subOptions: keys.map(\.option), read: { name, spec throws(UsageError) in
            var value = base
            guard !spec.isEmpty else { return value }
            for item in pieces(of: spec, at: ",") {
                let pair = pieces(of: item, at: "=", maxSplits: 1, omittingEmpty: true)
                guard pair.count == 2, let key = keys.first(where: { $0.option.name == pair[0] }) else {
                    throw UsageError("'\(name)' takes \(syntax), not '\(item)'")
                }
                do throws(UsageError) { try key.apply(&value, pair[1]) } catch {
                    throw UsageError("'\(name)' takes \(syntax), not '\(item)'")
                }
            }
            return value
        }, show: { value in keys.compactMap { $0.show(value) }.joined(separator: ",") })
    }
}

extension SubOption {
    /// `budget=<1-1048576 MB>`, `pressure=normal|critical`, `log=<file>`.
    var syntax: String {
        guard let accepts else { return "\(name)=\(placeholder)" }
        let unit = placeholder.hasPrefix("<") ? " " + placeholder.dropFirst().dropLast() : ""
        return "\(name)=<\(accepts)\(unit)>"
    }
}
