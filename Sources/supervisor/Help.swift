import Events
/// Help texts, laid out the way swift-argument-parser lays them out.
enum Help {
    static let version = "0.12.0"

    static let root = """
        OVERVIEW: Run WebContent render workers the way a web engine's UI process runs its content
        processes, and keep their views alive when the workers die.

        USAGE: supervisor <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          run                     Load pages in views backed by real WebContent worker processes.
          compare                 Run every recovery policy against the same seeded workload and faults.
          bench                   Measure the supervisor's machinery beside a C floor.
          analyze                 Find kill-before-render incidents in our logs and in iOS device logs.
          session                 Create, restore and show session files of many tabs.

          See 'supervisor help <subcommand>' for detailed help.
        """

    static let workloadOptions = """
          --loads <n>             Loads to perform. (default: 20)
          --views <k>             Views loading at once. (default: 1 for run, 8 for compare)
          --arrival <ms>          Start a load every <ms> instead of one per free view, so that a policy's
                                  blank views cannot lighten everyone else's load. (default: off for run,
                                  5 for compare)
          --hidden <h>            How many of the views are hidden tabs: they load off screen and are shown
                                  later. (default: 0)
          --hidden-time <ms>      How long a hidden tab stays off screen before it is shown. (default: 50)
          --content <dir>         Serve the .html pages in <dir> instead of the built-in pages.
          --seed <s>              Seed for every random choice: pages, attach delays, faults. (default: 1)
          --inject-race <rate>    Kill this fraction of loads' first workers at background priority after
                                  spawn and before attach: 1/200, 1/20, 1; a protected worker is spared.
                                  (default: 0)
          --inject-kill <rate>    Kill this fraction of hidden loads' workers after render, while hidden.
                                  (default: 0)
          --jetsam[=<options>]    Run the Jetsam memory-pressure killer beside the workers. Options, comma
                                  separated: budget=<MB> (1-1048576, default 256), interval=<ms>
                                  (0.1-60000, default 2), pressure=critical (kill even under budget),
                                  log=<file> (its kills, one JSON line each; default <log>.jetsam.jsonl).
          --attach-delay <ms>     From view creation to attach, as MS or MIN-MAX. (default: 2-6)
          --watchdog <ms>         Period of the blank watchdog's title check. (default: 3000)
          --blank-timeout <ms>    A load with no title this long after it was shown is blank.
                                  (default: 5000)
          --dwell <ms>            Keep each rendered view on screen this long before closing it.
                                  (default: 0)
          --worker <path>         The WebContent executable. (default: the one next to this binary)
          --hang-timeout <ms>     Kill a worker that owes an answer this long as unresponsive.
                                  (default: 3000)
          --typing <n>            Open an editor view for the whole run and type <n> inputs a second into
                                  it; inputs are kept until the worker acknowledges them.
                                  (default: 0, no editor)
          --journal <file>        Save acknowledged inputs to <file>, and restore the ones an earlier run
                                  saved there; held for the run (a second run is refused), and never
                                  a file that is not a journal. (needs --typing)
          --salvage-journal       Open a journal damaged in inputs it had saved by keeping its intact
                                  inputs and rewriting it without the damage (refused otherwise).
        """

    static let policies = """
        POLICIES:
          none                    Nothing: no observer reaction, no watchdog.
          reload                  Reload in place on a termination callback or a blank watchdog hit.
          rebuild                 Replace view and worker on a termination callback or a blank watchdog hit.
          always-foreground       Never background a worker; otherwise like reload.
          webkit-default          WebKit without a delegate: reload if visible, else when next shown, at
                                  most once per 30 s; no watchdog.
          guarded                 Observe from spawn, protect from the killer from spawn on, rebuild at once
                                  on any death, reuse closed views' workers as spares.
        Every policy that recovers stops at a crash loop: more than 3 crashes of a load's workers in 5 s
        (kills from outside do not count) end it on an error page; restarts in the window back off.
        """

    static let run = """
        OVERVIEW: Load pages in views backed by real WebContent worker processes.

        Each load happens in a fresh view with a fresh worker, as the field test app did: load, check,
        repeat. A new worker starts at background priority; its view attaches after a short delay, takes
        the foreground assertion and only then wires its termination observer (for every policy but
        guarded). SIGINT or SIGTERM shuts the workers down (SIGKILL after 500 ms; a second signal at once)
        and prints the summary, which says after how many loads the run was interrupted. Exit status: 0,
        64 for a usage error, 130 when interrupted, 1 for anything else (a worker binary that cannot
        launch, a limit reached, a write that failed, typed input lost). Files named on the command line
        are checked before anything starts: only regular files are opened, an output is a new file or
        replaces an existing one whole when the run ends, and no file may play two roles. '--' ends the
        options.

        USAGE: supervisor run [--policy <policy>] [<workload options>] [--session <file> [--tabs <n>]]
                              [--allow-host <hosts>] [--log <file>] [--log-format ios] [--json]

        OPTIONS:
          --policy <policy>       The recovery policy. (default: rebuild)
        \(workloadOptions)
          --session <file>        Browse tabs instead: restore the tabs saved in <file> (or make --tabs new
                                  ones), show the visible one, perform --loads navigations (links, back,
                                  forward, reload, tab switches, chosen by the seed), and save the tabs to
                                  <file> as they change: at most every 50 ms, and at the end, each save
                                  appending only the tabs that changed, whole or not at all. Only the shown
                                  tabs get a worker. A damaged file is restored as far as it is intact,
                                  with a warning; a file that is not a session, or in use, is an error.
          --tabs <n>              Tabs in a new session. (default: 3)
          --allow-host <hosts>    Hosts (comma-separated, repeatable) whose pages may load in a tab besides
                                  the app's own ('local'); a link elsewhere opens externally.
          --log <file>            Write the event log to <file> as JSON Lines; '-' (or /dev/stdout) for
                                  standard output, the summary then going to standard error.
          --log-format ios        Also write the run as an iOS-style console log to <file>.ios.log.
          --json                  Print the summary as one JSON object.
          -h, --help              Show help information.

        \(policies)
        """

    static let compare = """
        OVERVIEW: Run every recovery policy against the same seeded workload and faults.

        Every choice (page, attach delay, which loads are raced) is a function of the seed and the load's
        index, so each policy faces the same faults; a policy that protects its workers is spared them, and
        the table says how many each policy met (delivered) and escaped (spared). Prints two tables (what
        users saw; faults and cost) with a legend, or JSON, and optionally an SVG chart. Interrupted, it
        says how many loads the last policy ran and which policies never ran.

        USAGE: supervisor compare [--policies <list>] [<workload options>] [--json] [--svg <file>]

        OPTIONS:
          --policies <list>       Comma-separated policies. (default: all six)
        \(workloadOptions)
          --json                  Print {"seed", "plannedLoads", "interrupted", "notRun", "runs":[…]},
                                  one run summary per policy that ran.
          --svg <file>            Write a chart: time-to-visible CDF, blank loads and injected faults
                                  (delivered, spared) per policy.
          -h, --help              Show help information.

        \(policies)
        """

    static let session = """
        OVERVIEW: Create, restore and show session files: every tab's back/forward list, current entry
        and visibility, and the editor journal's position.

        A session file is versioned and checksummed tab by tab: a truncated or corrupted file restores the
        tabs that are intact and reports the rest. Restored tabs are unrealized (no worker, only their
        saved state) until shown.

        USAGE: supervisor session create <file> [--tabs <n>] [--seed <s>] [--content <dir>]
               supervisor session restore <file> [--json] [--worker <path>] [--content <dir>]
               supervisor session show <file> [--json]

        SUBCOMMANDS:
          create                  Write a session of --tabs tabs (default: 100), each with two to five
                                  entries from the content's pages, the first one visible. <file> must be
                                  new or a session file not in use: nothing else is overwritten.
          restore                 Restore every tab, realize and render the visible one (one worker, no
                                  spare), and print {"tabs", "realized", "workersSpawned", "tabsReadyMs",
                                  "restoreMs" (to the visible tab's worker launched), "renderedMs",
                                  "bytesPerUnrealizedTab" (supervisor heap per tab), "damage"}. The file
                                  is not written.
          show                    Print every tab: shown or not, its place in history and its current
                                  page.

        OPTIONS:
          -h, --help              Show help information.
        """

    static let bench = """
        OVERVIEW: Measure the supervisor's machinery beside a C floor and beside Foundation.Process.

        Every metric drives real workers: spawn→hello, kill→detected, kill→re-rendered (guarded and rebuild,
        with no attach delay), the channel's title-probe round trip and one-way throughput of small frames
        (supervisor and worker pinned to one CPU, as the floor is), 256 live workers at once (supervisor
        RSS, CPU per event, idle wake-ups per second), a 10,000-tab session restored (floor: reading and
        CRC-checking its file), and analyze on two generated device logs (one with a WebKit line in ten),
        each beside grep -c on the same file (its time, and its peak RSS). With --floor, the same work done
        by a plain C program (scripts/floor.c, built by scripts/bench) is measured in the same run; the
        ratio is ours/floor at p50. With --bare, the launchers alone: ours, the floor's and
        Foundation.Process's, each starting a child without libc that does nothing before its hello
        (scripts/bare.c). Each target from the benchmark issue is checked and reported as met or MISSED, or
        as not checked when it needs a floor that was not given.

        USAGE: supervisor bench [--iterations <n>] [--floor <path>] [--bare <path>] [--worker <path>]
                                [--analyze-mb <n>] [--analyze-only] [--json]

        OPTIONS:
          --iterations <n>        Samples per latency metric; round trips take ten times as many.
                                  (default: 500)
          --analyze-mb <n>        Size of the generated device log, in MB, written to $TMPDIR or /tmp and
                                  removed after. (default: 1024)
          --analyze-only          Measure only the two analyze rows; no worker is started.
          --floor <path>          The C floor program built from scripts/floor.c.
          --bare <path>           The libc-free child built from scripts/bare.c.
          --worker <path>         The WebContent executable. (default: the one next to this binary)
          --json                  Print {"metrics":[{"name","unit","p50","p99","floor","floorP99","ratio",
                                  "target","met"}]}; "met" is null for a target not checked.
          -h, --help              Show help information.
        """

    static let analyze = """
        OVERVIEW: Find kill-before-render incidents in our logs and in real iOS and macOS device logs.

        Reads Xcode console logs (with metadata, or message-only), Console.app copies in any language,
        syslog/idevicesyslog, flutter -v device relays, log show output in every style (default, syslog,
        compact, ndjson, json), the open-source unified-log parser's JSON Lines, our --log JSON Lines,
        --log-format ios logs and Jetsam's kill log, in any mix: the format is told line by line. Lines
        it cannot place are counted and skipped; a file with no line it can place is named, and if no
        input has one the exit status is 1. Builds a timeline per WebContent pid (launch, assertions,
        render, termination, teardown) and reports each death that matters, once however many files
        tell of it:
          killed-before-render    a foreground raise failed shortly after launch, before any render: the
                                  seed's blank view, which only a rebuilt web view recovers
          killed-after-render     rendered or in use, then killed from outside (jetsam, a memory limit)
          gone-when-raised        a background or suspended assertion failed, or a raise on a process
                                  the input never shows launching: gone, but when it died is unknown
          killed                  a Jetsam report names it killed; whether it had rendered is unknown
          crash                   reported as a crash, with no evidence of an outside kill
          launch-failed           the web process never launched
          gpu-process-crash       the GPU process exited, not WebContent
          host-app-crash          the app itself crashed (its crash report)
        Each incident names its rule, a confidence (confirmed, likely, possible), what the user saw, what
        would have recovered the view and the file:line of its evidence. Only a confirmed or likely kill
        before render says the view stayed blank. Exit status 0 whatever was found, unless --fail-on says
        otherwise.

        USAGE: supervisor analyze <log>... [--json] [--timeline <pid>] [--svg <file>] [--html <file>]
                                  [--fail-on <kinds>] [--truth <run.jsonl>] [--tz <zone>] [--stats]

        ARGUMENTS:
          <log>                   Files, directories (recursively) or - for standard input. Crash and
                                  JetsamEvent reports (.ips, .crash), .gz files and sysdiagnose archives
                                  or folders are read too; a .logarchive is not (it says how to export it).

        OPTIONS:
          --json                  Print {"files", "linesRead", "linesSkipped", "formats", "incidents":
                                  [{"pid", "kind", "confidence", "rule", "firstSeen", "lastSeen",
                                  "evidence", "userSaw", "detail", "recovery"}], "found": {kind:
                                  {confidence: count}}}; "found" counts incidents beyond the 10,000
                                  listed.
          --timeline <pid>        Also print that pid's story, step by step, with the gap before each step.
          --svg <file>            Draw one swim lane per WebContent pid on a shared time axis.
          --html <file>           Write the report as one self-contained page to share: the verdict,
                                  the incidents, the swim lanes, and each incident's lines quoted from
                                  the input. It fetches nothing (no script, font or image).
          --fail-on <kinds>       Exit 3 if an incident of these kinds (comma-separated, at least one) is
                                  found, for CI; kind:confidence counts only that confidence or surer
                                  (killed-before-render:likely).
          --truth <run.jsonl>     Compare what the logs alone yield with a run's event log (and its Jetsam
                                  log, <run.jsonl>.jetsam.jsonl, if present; or give it as another
                                  --truth): precision and recall per kind. Repeatable.
          --tz <zone>             Read times written without a zone (idevicesyslog, log show --style
                                  compact, Console copies) in this zone: +HHMM, +HH:MM, UTC, local, or a
                                  name such as America/Los_Angeles. (default: the zone the other files
                                  write, else this machine's)
          --stats                 Also print how long the analysis took and its peak memory.
          -h, --help              Show help information.
        """
}
