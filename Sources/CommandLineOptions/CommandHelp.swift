import LogAnalysis
import Text

/// A command's help, laid out the way swift-argument-parser lays it out; its options sections are written from
/// the command's tables, so an option cannot be accepted and missing from help, or shown with a stale default.
public struct CommandHelp: Sendable {
    public let name: String
    /// One line, for the root help's list of subcommands.
    public let abstract: String
    /// The paragraphs after `OVERVIEW:`, already fitted to 100 columns.
    let overview: String
    let usage: String
    /// Named sections before the options (`ARGUMENTS:`, `SUBCOMMANDS:`): a label and its text, laid out as options are.
    let before: [(title: String, rows: [(label: String, text: String)])]
    /// The options sections (`OPTIONS:`, or one per subcommand), each from its table.
    public let tables: [(title: String, table: OptionTable)]
    /// Text after the options (the policies), fitted to 100 columns.
    let after: String?

    init(
        name: String, abstract: String, overview: String, usage: String,
        before: [(title: String, rows: [(label: String, text: String)])] = [], tables: [(title: String, table: OptionTable)],
        after: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.overview = overview
        self.usage = usage
        self.before = before
        self.tables = tables
        self.after = after
    }

    public var text: String {
        var lines = ["OVERVIEW: " + overview, "", "USAGE: " + usage, ""]
        for section in before {
            lines += [section.title + ":"] + section.rows.flatMap { helpRow($0.label, $0.text) } + [""]
        }
        // `--help` is answered before any table is read: it is listed once, in the command's own options.
        let helpOption = helpRow("-h, --help", "Show help information.")
        for section in tables {
            lines += [section.title + ":"] + section.table.helpLines
            lines += section.title == "OPTIONS" ? helpOption + [""] : [""]
        }
        if !tables.contains(where: { $0.title == "OPTIONS" }) { lines += ["OPTIONS:"] + helpOption + [""] }
        if let after { lines.append(after) }
        return lines.joined(separator: "\n").trimmingSuffix("\n")
    }
}

extension OptionTable {
    /// One row per option: its name and value, then its help and default, wrapped at words to 100 columns.
    var helpLines: [String] {
        entries.flatMap { entry in
            let label: String
            switch entry.takes {
            case .nothing: label = entry.name
            case .value: label = "\(entry.name) \(entry.placeholder)"
            case .optionalValue: label = "\(entry.name)[=\(entry.placeholder)]"
            }
            var text = entry.help
            if !entry.subOptions.isEmpty {
                text += " Options, comma separated: " + entry.subOptions.map(\.helpText).joined(separator: ", ") + "."
            }
            // `(default:` is kept on one line with the first word of the default.
            if let shown = entry.defaultText?.shown { text += " (default:\u{A0}\(shown))" }
            return helpRow(label, text)
        }
    }
}

extension DefaultText {
    /// `20`, `0, no editor`, `the zone the other files write, else this machine's`.
    var shown: String {
        switch self {
        case .value(let value, let note?): "\(value), \(note)"
        case .value(let value, nil): value
        case .described(let text): text
        }
    }
}

extension SubOption {
    /// `budget=<MB> (1-1048576, default 256)`.
    var helpText: String {
        let notes = [accepts, help, defaultText.map { "default \($0.shown)" }].compactMap { $0 }
        return "\(name)=\(placeholder)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
}

/// The label in a column 24 wide after two spaces, its text beside it (or below, if the label is wider), continued
/// under itself.
func helpRow(_ label: String, _ text: String) -> [String] {
    let column = 26
    let head = "  " + label
    let lines = head.count <= column - 2
        ? wrapped(head + String(repeating: " ", count: column - head.count) + text, indent: column)
        : [head] + wrapped(String(repeating: " ", count: column) + text, indent: column)
    return lines.map { $0.replacingAll("\u{A0}", with: " ") }
}

extension String {
    /// Without Foundation's `replacingOccurrences`.
    fileprivate func replacingAll(_ character: Character, with replacement: Character) -> String {
        String(map { $0 == character ? replacement : $0 })
    }

    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
