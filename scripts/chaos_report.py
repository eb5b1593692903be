"""What scripts/chaos prints: its figures in lines of at most 100 columns, broken only between words, and where
its files are. Kept apart from the runs so that the text can be checked on figures of any size without a run."""
import shutil, textwrap

WIDTH = 100


def wrapped(lines):
    """Each line broken at spaces to WIDTH columns, later pieces indented by four; a word is broken only when it is
    longer than a whole line, and never at its hyphens."""
    return [piece for line in lines
            for piece in textwrap.wrap(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False) or [""]]


def kill_lines(report):
    """The summary of a run with outside kills and hangs (the figures `--json` prints)."""
    r, k = report, report["killToRenderedMs"]
    lines = [
        f"chaos: {r['kills']} SIGKILLs, {r['detected']} detected as killed/SIGKILL from outside "
        f"({r['outsideKills']} in the summary); {r['hangs']} hangs, {r['hangsDetected']} found unresponsive",
        f"  kill → rendered again: p50 {k['p50']} ms, p99 {k['p99']} ms over {k['count']} visible views",
        f"  {r['loads']} loads, {r['blank']} blank, {r['failed']} failed; typed {r['typedInputs']}, lost "
        f"{r['lostInputs']}, applied twice {r['duplicateInputs']}",
    ]
    rss = r["rssKiB"]
    if r["fdDelta"] is not None and r["rssGrowthPercent"] is not None:
        lines.append(f"  zombies {r['zombiesSeen']}, descriptors {r['fdDelta']:+d} from baseline, RSS "
                     f"{r['rssGrowthPercent']:+}% ({rss['start']} → {rss['end']} KiB), leftovers {r['leftovers']}")
    else:
        lines.append("  (no baseline sample)")
    return wrapped(lines + verdict(report))


def verdict(report):
    """`chaos: ok`, or what failed and where the run's files were kept to look at."""
    if report["ok"]:
        return ["chaos: ok"]
    return ["chaos: FAILED: " + "; ".join(report["failures"]),
            f"  the run's logs and files are kept in {report['workDirectory']}"]


def finish(report, work):
    """Removes the run's folder when every check held; keeps it, named in the report, when one broke."""
    if report["ok"]:
        shutil.rmtree(work, ignore_errors=True)
        report["workDirectory"] = None
    else:
        report["workDirectory"] = work
    return report
