/// Help texts, laid out the way swift-argument-parser lays them out.
enum Help {
    static let root = """
        OVERVIEW: Run WebContent render workers the way a web engine's UI process runs its content processes, and
        keep their views alive when the workers die.

        USAGE: supervisor <subcommand>

        OPTIONS:
          -h, --help              Show help information.

        SUBCOMMANDS:
          run                     Load pages in views backed by real WebContent worker processes.
          bench                   Measure spawn and death detection beside a C floor.

          See 'supervisor help <subcommand>' for detailed help.
        """

    static let run = """
        OVERVIEW: Load pages in views backed by real WebContent worker processes.

        Each load happens in a fresh view with a fresh worker, as the field test app did: load, check, repeat.
        A worker that dies while its view is on screen is recovered by the policy. Without --content the built-in
        pages are served.

        USAGE: supervisor run [--policy <policy>] [--loads <n>] [--views <k>] [--content <dir>] [--seed <s>]
                              [--log <file>] [--dwell <ms>] [--worker <path>] [--json]

        OPTIONS:
          --policy <policy>       reload: keep the view and give it a new worker; rebuild: replace view and
                                  worker. (default: rebuild)
          --loads <n>             Loads to perform. (default: 20)
          --views <k>             Views loading at once. (default: 1)
          --content <dir>         Serve the .html pages in <dir> instead of the built-in pages.
          --seed <s>              Seed for every random choice. (default: 1)
          --log <file>            Write the event log to <file> as JSON Lines.
          --dwell <ms>            Keep each rendered view on screen this long before closing it. (default: 0)
          --worker <path>         The WebContent executable. (default: the one next to this binary)
          --json                  Print the summary as one JSON object.
          -h, --help              Show help information.
        """

    static let bench = """
        OVERVIEW: Measure spawn and death detection beside a C floor.

        Each metric is measured over fresh views with real workers; with --floor, the same work done by a plain C
        program (scripts/floor.c, built by scripts/bench) is measured in the same run, and the ratio is ours/floor
        at p50.

        USAGE: supervisor bench [--iterations <n>] [--floor <path>] [--worker <path>] [--json]

        OPTIONS:
          --iterations <n>        Samples per metric. (default: 500)
          --floor <path>          The C floor program built from scripts/floor.c.
          --worker <path>         The WebContent executable. (default: the one next to this binary)
          --json                  Print {"metrics":[{"name","unit","p50","p99","floor","floorP99","ratio"}]}.
          -h, --help              Show help information.
        """
}
