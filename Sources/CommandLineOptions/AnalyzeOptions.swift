import LogAnalysis
import Text
import Vocabulary

/// An incident kind `--fail-on` gates on, and the least confidence that counts.
public typealias IncidentGate = (kind: IncidentKind, atLeast: Incident.Confidence)

/// `supervisor analyze`: its options and help.
public struct AnalyzeOptions: Sendable {
    public let json = Flag(
        "--json",
        help: #"Print {"files", "linesRead", "linesSkipped", "formats", "incidents": [{"pid", "kind", "confidence", "#
            + #""rule", "firstSeen", "lastSeen", "evidence", "userSaw", "detail", "recovery"}], "found": {kind: "#
            + #"{confidence: count}}}; "found" counts incidents beyond the 10,000 listed."#)
    public let timeline = Option(
        "--timeline",
        ValueKind<Int32>(placeholder: "<pid>", read: { name, text throws(UsageError) in
            guard let pid = Int32(text), pid > 0 else { throw UsageError("'\(name)' takes a pid, not '\(text)'") }
            return pid
        }, show: { String($0) }),
        help: "Also print that pid's story, step by step, with the gap before each step.")
    public let svg = Option(
        "--svg", .path(),
        help: "Draw one swim lane per WebContent pid on a shared time axis; '-' for standard output, the report then "
            + "going to standard error.")
    public let html = Option(
        "--html", .path(),
        help: "Write the report as one self-contained page to share: the verdict, the incidents, the swim lanes, and "
            + "each incident's lines quoted from the input. It fetches nothing (no script, font or image). '-' for "
            + "standard output.")
    public let failOn = Option(
        "--fail-on", .incidentGates,
        help: "Exit 3 if an incident of these kinds (comma-separated, at least one) is found, for CI; "
            + "kind:confidence counts only that confidence or surer (killed-before-render:likely). RunningBoard's "
            + "error naming no pid is a possible killed-before-render; the line on standard error says what was found.")
    public let truth = Option(
        "--truth", .path("<run.jsonl>"),
        help: "Compare what the logs alone yield with a run's event log (and its Jetsam log, "
            + "<run.jsonl>.jetsam.jsonl, if present; or give it as another --truth): precision and recall per kind. "
            + "Repeatable.")
    public let zone = Option(
        "--tz",
        ValueKind<LogZone>(placeholder: "<zone>", read: { name, text throws(UsageError) in
            do throws(ZoneError) { return try LogZone(parsing: text) } catch { throw UsageError("'\(name)': \(error)") }
        }, show: { zone in if case .local = zone { "local" } else { zone.name } }),
        default: "the zone the other files write, else this machine's",
        help: "Read times written without a zone (idevicesyslog, log show --style compact, Console copies) in this "
            + "zone: +HHMM, +HH:MM, UTC, local, or a name such as America/Los_Angeles.")
    public let stats = Flag("--stats", help: "Also print how long the analysis took and its peak memory.")
    public let replay = Option(
        "--replay", .path(),
        help: "Write what reproduces each WebContent death found (its launch→raise and launch→death gaps, exact or "
            + "the interval they lie in, its band, whether it had rendered, the cause and the evidence) as a replay "
            + "schedule, for 'compare --replay'; '-' for standard output. The GPU process's and the host app's are "
            + "left out, and counted.")
    public let force = forceFlag

    public var table: OptionTable {
        OptionTable([json, timeline, svg, html, failOn, truth, zone, stats, replay, force], arguments: true)
    }

    public var help: CommandHelp {
        CommandHelp(
            name: "analyze", abstract: "Find kill-before-render incidents in our logs and in iOS device logs.",
            overview: """
                Find kill-before-render incidents in our logs and in real iOS and macOS device logs.

                Reads Xcode console logs (with metadata, or message-only), Console.app copies in any language,
                syslog/idevicesyslog, flutter -v device relays, log show output in every style (default, syslog,
                compact, ndjson, json), the open-source unified-log parser's JSON Lines, our --log JSON Lines,
                --log-format ios logs and Jetsam's kill log, in any mix: the format is told line by line. Lines
                it cannot place are counted and skipped; a file with no line it can place is named, and if no
                input has one the exit status is 1. Builds a timeline per WebContent pid (launch, assertions,
                render, termination, teardown) and reports each death that matters, once however many files
                tell of it:
                  killed-before-render    a foreground raise failed shortly after launch, before any render: a
                                          blank view with no termination callback, which only a rebuilt web
                                          view recovers
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
                """,
            usage: """
                supervisor analyze <log>... [--json] [--timeline <pid>] [--svg <file>] [--html <file>]
                                          [--fail-on <kinds>] [--truth <run.jsonl>] [--tz <zone>] [--stats]
                                          [--replay <file>] [--force]
                """,
            before: [(
                "ARGUMENTS",
                [("<log>", "Files, directories (recursively) or - for standard input. Crash and JetsamEvent reports "
                    + "(.ips, .crash), .gz files and sysdiagnose archives or folders are read too; a .logarchive is "
                    + "not (it says how to export it).")]
            )],
            tables: [("OPTIONS", table)])
    }
}

extension ValueKind where Value == [IncidentGate] {
    /// Incident kinds, each perhaps with the least confidence that counts (`killed-before-render:likely`). An empty
    /// list or name is a mistake, never a gate turned off.
    static var incidentGates: Self {
        ValueKind(placeholder: "<kinds>", read: { name, list throws(UsageError) in
            let names = try commaSeparated(list, of: "incident kinds", for: name)
            var gates: [IncidentGate] = []
            for entry in names {
                let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard let kind = IncidentKind(rawValue: parts[0]) else {
                    let hint = closestName(to: parts[0], in: Set(IncidentKind.allCases.map(\.rawValue)))
                    throw UsageError("unknown incident kind '\(parts[0])' for '\(name)'"
                        + (hint.map { "; did you mean '\($0)'?" } ?? " (see 'supervisor help analyze')"))
                }
                guard parts.count == 2 else {
                    gates.append((kind, .possible))
                    continue
                }
                guard let confidence = Incident.Confidence(rawValue: parts[1]) else {
                    throw UsageError("'\(name) \(entry)': the confidence after ':' is confirmed, likely or possible, "
                        + "not '\(parts[1])'")
                }
                gates.append((kind, confidence))
            }
            return gates
        }, show: { $0.map { "\($0.kind.rawValue):\($0.atLeast.rawValue)" }.joined(separator: ",") })
    }
}
