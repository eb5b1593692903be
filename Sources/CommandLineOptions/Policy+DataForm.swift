import Core
import Events

/// A policy written in its data form, for `supervisor policies` and wherever a user policy is shown.
extension Policy {
    /// `name=guarded,observe=spawn,…`: the name and every field that differs from its default; reads back to this
    /// policy. A name derived from a base (`guarded spares=0`, which `name=` does not take) is written as that base
    /// and the fields that differ from it, which read back to the same name.
    public var inlineForm: String {
        if let base = derivedFrom {
            let fields = PolicyField.all.filter { $0.key != "name" && $0.show(self) != $0.show(base) }
            return (["base=\(base.name)"] + fields.map { "\($0.key)=\($0.show(self))" }).joined(separator: ",")
        }
        let defaults = Policy(name: name)
        let fields = PolicyField.all.filter { $0.key == "name" || $0.show(self) != $0.show(defaults) }
        return fields.map { "\($0.key)=\($0.show(self))" }.joined(separator: ",")
    }

    /// The built-in whose name begins a derived name: only a derived name holds a space.
    private var derivedFrom: Policy? {
        guard let space = name.firstIndex(of: " ") else { return nil }
        return Policy.named(String(name[..<space]))
    }

    /// Every field, as a policy file holds it; reads back to this policy.
    public var jsonForm: JSON {
        .object(PolicyField.all.map { field in
            let text = field.show(self)
            switch field.json {
            case .string: return (field.key, .string(text))
            case .flag: return (field.key, .bool(text == "yes"))
            case .number: return (field.key, Int(text).map(JSON.int) ?? Double(text).map(JSON.double) ?? .string(text))
            }
        })
    }
}
