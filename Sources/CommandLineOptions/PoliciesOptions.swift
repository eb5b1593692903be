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

    /// One row a field: `key=<values>`, what it decides, and its default; `base` after the name.
    var fieldsHelp: String {
        let rows = PolicyField.all.map { field in
            (label: "\(field.key)=\(field.placeholder)",
             text: field.help + (field.defaultValue.map { " (default:\u{A0}\($0))" } ?? ""))
        }
        let name = rows[0].text + " (default: its base's name and the fields changed from it, as guarded+spares; "
            + "custom without a base)"
        let base = (label: "base=<policy>", text: "Start from this built-in: \(PolicyReader.builtInNames).")
        let all = [(rows[0].label, name), base] + rows.dropFirst()
        return (["FIELDS:"] + all.flatMap { helpRow($0.label, $0.text) }).joined(separator: "\n")
    }
}
