import CommandLineOptions
import Core

/// `supervisor policies`: every built-in, one a line, in the form `--policy` reads back.
enum PoliciesCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.policies
        let arguments = try options.table.parse(words)
        let lines = Policy.all.map { arguments[options.json] ? $0.jsonForm.text : $0.inlineForm }
        try writeStandardOutput(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
