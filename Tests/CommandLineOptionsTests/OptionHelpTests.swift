import Testing

@testable import CommandLineOptions
@testable import Text
@testable import SupervisorTesting

/// One options section of a command's help, beside the table its parser reads.
struct HelpSection: Sendable, CustomTestStringConvertible {
    let command: String
    let title: String
    let help: String
    let table: OptionTable
    var testDescription: String { "\(command) \(title)" }

    static let all: [HelpSection] = Commands.helps.flatMap { help in
        help.tables.map { HelpSection(command: help.name, title: $0.title, help: help.text, table: $0.table) }
    }

    /// The section's rows as a user reads them in the printed help: an option's name (the first word of its label,
    /// without `[=…]`) and its text, continuation lines joined, up to the blank line that ends the section.
    var rows: [(name: String, text: String)] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title + ":") else { return [] }
        var rows: [(name: String, text: String)] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            if line.hasPrefix("  -") {
                let label = line.dropFirst(2).prefix { $0 != " " && $0 != "[" }
                rows.append((String(label), String(line.dropFirst(2))))
            } else if !rows.isEmpty {
                rows[rows.count - 1].text += " " + line.drop { $0 == " " }
            }
        }
        return rows
    }

    func row(_ name: String) -> String? { rows.first { $0.name == name }?.text }
}

/// `X` from `(default: X)` or `(default: X, what it means)`; nil if the text shows no default.
func shownDefault(_ text: String, marker: String = "(default: ") -> String? {
    guard let start = text.range(of: marker)?.upperBound else { return nil }
    let rest = text[start...]
    let end = rest.firstIndex { $0 == ")" || $0 == ";" } ?? rest.endIndex
    let value = rest[..<end]
    return String(value.range(of: ", ").map { value[..<$0.lowerBound] } ?? value)
}

/// Help is written from the same table the parser reads; these read the printed help back as text, so an option
/// left out of it, or a default it shows that the parser does not apply, fails here.
@Suite struct OptionHelp {
    /// Every option the parser accepts has a row in help, and every default value help shows is one the parser
    /// accepts and that gives the same setting as leaving the option out.
    @Test(arguments: HelpSection.all)
    func everyAcceptedOptionIsInHelpWithItsDefault(section: HelpSection) throws {
        let defaults = try section.table.parse([])
        for entry in section.table.entries {
            let error = parseError(section.table, [entry.name])
            #expect(error == nil || error == "missing value for '\(entry.name)'", "\(entry.name): \(error ?? "")")
            let row = try #require(section.row(entry.name), "\(section.command) accepts \(entry.name); help omits it")
            guard let parsed = defaults.shown(entry.name) else {
                // A default no option value names (the zone the other files write) is shown as prose.
                #expect((shownDefault(row) != nil) == (entry.defaultText != nil), "\(entry.name): \(row)")
                continue
            }
            let shown = try #require(shownDefault(row), "\(entry.name) defaults to \(parsed); help shows no default")
            let readBack = try section.table.parse([entry.name, shown])
            #expect(readBack.shown(entry.name) == parsed, "\(entry.name): help says \(shown), the parser uses \(parsed)")
        }
    }

    /// Every option help lists is one the parser accepts (`--help` is answered before any table is read).
    @Test(arguments: HelpSection.all)
    func everyOptionInHelpIsAccepted(section: HelpSection) {
        let rows = section.rows
        #expect(!rows.isEmpty)
        for (name, _) in rows where name != "-h," {
            let error = parseError(section.table, [name])
            #expect(error == nil || error == "missing value for '\(name)'", "help lists \(name): \(error ?? "")")
        }
    }

    /// An option that takes `key=value,…` (`--jetsam`) lists exactly the keys it accepts, each with the default
    /// the parser applies.
    @Test(arguments: HelpSection.all)
    func everySubOptionIsInHelpWithItsDefault(section: HelpSection) throws {
        for entry in section.table.entries where !entry.subOptions.isEmpty {
            let row = try #require(section.row(entry.name))
            // Words that begin `key=`.
            let keys = row.split(separator: " ").compactMap { word -> String? in
                let key = word.prefix { $0.isLetter }
                return !key.isEmpty && word.dropFirst(key.count).hasPrefix("=") ? String(key) : nil
            }
            #expect(Set(keys) == Set(entry.subOptions.map(\.name)), "\(row)")
            let bare = try section.table.parse([entry.name]).shown(entry.name)
            for key in entry.subOptions {
                let start = try #require(row.range(of: key.name + "=")?.upperBound, "\(key.name) missing: \(row)")
                let described = shownDefault(String(row[start...]), marker: "default ")
                guard case .value = key.defaultText else { continue }
                let shown = try #require(described, "\(entry.name) \(key.name) shows no default")
                #expect(parseError(section.table, ["\(entry.name)=\(key.name)=\(shown)"]) == nil)
                let readBack = try section.table.parse(["\(entry.name)=\(key.name)=\(shown)"]).shown(entry.name)
                #expect(readBack == bare, "\(entry.name) \(key.name): help says \(shown)")
            }
            #expect(parseError(section.table, ["\(entry.name)=nosuchkey=1"]) != nil)
        }
    }
}

extension Processes {
    /// What the binary prints is the help these tests read: `help <command>`, `<command> --help` and the root help.
    @Suite struct PrintedHelp {
        @Test func theBinaryPrintsTheTablesHelp() throws {
            for help in Commands.helps {
                for arguments in [["help", help.name], [help.name, "--help"]] {
                    let result = try runSupervisor(arguments)
                    #expect(result.status == 0 && result.stdout == help.text + "\n", "\(arguments)")
                }
            }
            #expect(try runSupervisor(["--help"]).stdout == Commands.rootHelp + "\n")
        }
    }
}
