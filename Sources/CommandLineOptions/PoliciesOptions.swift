import Core

/// `supervisor policies`: its options and help, whose FIELDS section is written from the policy field table.
public struct PoliciesOptions: Sendable {
    public let json = Flag(
        "--json", help: "Print one JSON object per policy, one a line, every field in it: what a policy file holds.")

    public var table: OptionTable { OptionTable([json]) }

    public var help: CommandHelp {
        CommandHelp(
            name: "policies", abstract: "Print every built-in recovery policy in the form a user writes one.",
            overview: """
                Print every built-in recovery policy in the form a user writes one.

                A policy is a small set of named choices, the FIELDS below. '--policy' of run and '--policies' of
                compare take a built-in's name, or fields inline as key=value separated by commas ('observe=spawn,
                recover=rebuild,spares=1'; a field left out keeps its default, or the value of the built-in named
                by base=), or a JSON file holding one object with the same keys ('@file', or a name ending .json;
                numbers as JSON numbers, reuse as true or false). Each line printed is one built-in as such an
                inline policy: the name and each field that differs from its default. Lines are not wrapped, so
                that each can be given back as it is.
                """,
            usage: "supervisor policies [--json]", tables: [("OPTIONS", table)], after: fieldsHelp)
    }

    /// One row a field: `key=<values>`, what it decides, and its default; `base` after the name, which has none
    /// of its own.
    var fieldsHelp: String {
        let rows = PolicyField.all.flatMap { field in
            guard field.key == "name" else {
                let text = field.help + " (default:\u{A0}\(field.defaultValue ?? ""))"
                return [(label: "\(field.key)=\(field.placeholder)", text: text)]
            }
            let derived = " (default: its base's name and the fields changed from it, as \"guarded spares=0\"; custom "
                + "without a base)"
            return [
                (label: "name=\(field.placeholder)", text: field.help + derived),
                (label: "base=<policy>", text: "Start from this built-in: \(PolicyReader.builtInNames)."),
            ]
        }
        return (["FIELDS:"] + rows.flatMap { helpRow($0.label, $0.text) }).joined(separator: "\n")
    }
}
