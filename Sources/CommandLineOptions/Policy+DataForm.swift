import Core
import Events

/// A policy written in its data form, for `supervisor policies` and wherever a user policy is shown.
extension Policy {
    /// `name=guarded,observe=spawn,…`: the name and every field that differs from its default; reads back to this
    /// policy.
    public var inlineForm: String {
        let defaults = Policy(name: name)
        let fields = PolicyField.all.filter { $0.key == "name" || $0.show(self) != $0.show(defaults) }
        return fields.map { "\($0.key)=\($0.show(self))" }.joined(separator: ",")
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
