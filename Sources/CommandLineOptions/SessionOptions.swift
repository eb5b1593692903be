import Text

/// `supervisor session create|restore|show`: each subcommand's options, and their help.
public struct SessionOptions: Sendable {
    public struct Create: Sendable {
        public let tabs = DefaultedOption("--tabs", .integer(1...1_000_000), default: 100, help: "Tabs in the session.")
        public let seed = DefaultedOption(
            "--seed", .seed, default: 1, help: "Seed for the tabs' pages, their history and which one is visible.")
        public let content = Option(
            "--content", .path("<dir>"), help: "Take the pages from the .html files in <dir> instead of the built-in pages.")
        public let force = forceFlag

        public var table: OptionTable { OptionTable([tabs, seed, content, force], arguments: true) }
    }

    public struct Restore: Sendable {
        public let worker = workerOption
        public let content = Option(
            "--content", .path("<dir>"), help: "Serve the .html pages in <dir> instead of the built-in pages.")
        public let json = Flag("--json", help: "Print the measurements as one JSON object.")

        public var table: OptionTable { OptionTable([worker, content, json], arguments: true) }
    }

    public struct Show: Sendable {
        public let json = Flag("--json", help: #"Print {"tabs": [{"id", "visible", "index", "urls", "titles"}], "journal"}."#)

        public var table: OptionTable { OptionTable([json], arguments: true) }
    }

    public let create = Create()
    public let restore = Restore()
    public let show = Show()

    public var help: CommandHelp {
        CommandHelp(
            name: "session", abstract: "Create, restore and show session files of many tabs.",
            overview: """
                Create, restore and show session files: every tab's back/forward list, current entry
                and visibility, and the editor journal's position.

                A session file is versioned and checksummed tab by tab: a truncated or corrupted file restores the
                tabs that are intact and reports the rest. Restored tabs are unrealized (no worker, only their
                saved state) until shown.
                """,
            usage: """
                supervisor session create <file> [--tabs <n>] [--seed <s>] [--content <dir>] [--force]
                       supervisor session restore <file> [--json] [--worker <path>] [--content <dir>]
                       supervisor session show <file> [--json]
                """,
            before: [(
                "SUBCOMMANDS",
                [
                    ("create", "Write a session of --tabs tabs, each with two to five entries from the content's pages, "
                        + "the first one visible. <file> must be new or a session file not in use: nothing else is "
                        + "overwritten without --force, and it is never standard output (the file is binary)."),
                    ("restore", #"Restore every tab, realize and render the visible one (one worker, no spare), and "#
                        + #"print {"tabs", "realized", "workersSpawned", "tabsReadyMs", "restoreMs" (to the visible "#
                        + #"tab's worker launched), "renderedMs", "bytesPerUnrealizedTab" (supervisor heap per tab), "#
                        + #""damage"}. The file is not written."#),
                    ("show", "Print every tab: shown or not, its place in history and its current page."),
                ]
            )],
            tables: [("CREATE OPTIONS", create.table), ("RESTORE OPTIONS", restore.table), ("SHOW OPTIONS", show.table)])
    }
}
