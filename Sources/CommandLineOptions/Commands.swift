/// Every command's options and help, declared once, for the commands to parse with and for tests to check.
public enum Commands {
    public static let version = "0.12.0"
    public static let run = RunOptions()
    public static let compare = CompareOptions()
    public static let bench = BenchOptions()
    public static let analyze = AnalyzeOptions()
    public static let session = SessionOptions()
    public static let policies = PoliciesOptions()
    public static let log = LogOptions()

    /// In the order the root help lists them.
    public static let helps: [CommandHelp] = [
        run.help, compare.help, policies.help, bench.help, analyze.help, session.help, log.help,
    ]

    public static var rootHelp: String {
        let commands = helps.flatMap { helpRow($0.name, $0.abstract) }
        return (["""
            OVERVIEW: Run WebContent render workers the way a web engine's UI process runs its content
            processes, and keep their views alive when the workers die.

            USAGE: supervisor <subcommand>

            OPTIONS:
            """] + helpRow("--version", "Show the version.") + helpRow("-h, --help", "Show help information.")
            + ["", "SUBCOMMANDS:"] + commands + ["", "  See 'supervisor help <subcommand>' for detailed help."])
            .joined(separator: "\n")
    }
}
