"""What a restart costs the views, in both modes of `scripts/chaos --kill-supervisor-every`, and with --keep-workers
what became of the workers a holder kept across each kill (issue 34).

Every restart (an incarnation started after a kill) is timed from the moment chaos started it, on the clock the
event log's `mono` stamps are on (CLOCK_MONOTONIC): to its first event (the process up, the session read), to the
first view of a tab on screen with content (`visible`, not the editor's): today by a new worker that restores and
renders the page, with --keep-workers by the worker taken back. With --keep-workers, also to its last `adopt`.

The checks, with --keep-workers, per restart: the workers alive under the holder once the killed supervisor is gone
(sampled by chaos from /proc) are exactly those the next incarnation takes back (`reclaim`); each of them is adopted
(`adopt`; a spare back into the pool) or refused (`adoption-refused`), none left unanswered; an adopted view is given no new worker and loads
nothing before the incarnation's first navigation; at most two are refused (the editor's worker, which holds typed
input no tab has, and the tab whose navigation the kill cut or whose last commit the session had not saved yet).
"""
from collections import Counter

from chaos_proc import percentile

# Refused at a restart, with reason: the editor's worker, and the one tab whose navigation the kill cut.
MAX_REFUSED_PER_RESTART = 2


class Restarts:
    def __init__(self, keep):
        self.keep = keep
        self.failures = []
        self.first_event_ms, self.visible_ms, self.adopted_ms = [], [], []
        self.counts = Counter()
        self.refusals = Counter()

    def fail(self, incarnation, text):
        self.failures.append(f"incarnation {incarnation.index}: {text}")

    def restarted(self, incarnation, logged, held):
        """The incarnation started after a kill; `held`: the live workers the holder kept (None without it)."""
        started_ns = incarnation.started * 1e9
        if logged:
            self.first_event_ms.append((logged[0]["mono"] - started_ns) / 1e6)
        visible = next((e for e in logged if e["event"] == "visible" and not e.get("editor")), None)
        if visible is not None:
            self.visible_ms.append((visible["mono"] - started_ns) / 1e6)
        if held is None:
            return
        self.counts["held"] += len(held)
        reclaimed = {e["pid"] for e in logged if e["event"] == "reclaim"}
        adopted = [e for e in logged if e["event"] == "adopt"]
        refused = [e for e in logged if e["event"] == "adoption-refused"]
        self.counts["reclaimed"] += len(reclaimed)
        self.counts["adopted"] += len(adopted)
        self.counts["refused"] += len(refused)
        self.refusals.update(e["reason"] for e in refused)
        if incarnation.killed_at is not None and not logged:
            return  # killed before its first wake-up flushed the log: nothing to compare
        if reclaimed != held:
            self.fail(incarnation, f"took back {len(reclaimed)} workers, the holder kept {len(held)} "
                      f"(missing {sorted(held - reclaimed)[:5]}, extra {sorted(reclaimed - held)[:5]})")
        answered = {e["pid"] for e in adopted + refused}
        unanswered = reclaimed - answered
        # The incarnation may have been killed again before every answer came.
        if unanswered and incarnation.killed_at is None:
            self.fail(incarnation, f"{len(unanswered)} workers taken back were neither adopted nor refused")
        self.counts["unanswered"] += len(unanswered)
        if len(refused) > MAX_REFUSED_PER_RESTART:
            self.fail(incarnation, f"{len(refused)} workers refused: {Counter(e['reason'] for e in refused)}")
        if adopted:
            self.adopted_ms.append((adopted[-1]["mono"] - started_ns) / 1e6)
        views = {e["view"] for e in adopted if "view" in e}  # a spare taken back has none
        first_navigation = next((e["mono"] for e in logged if e["event"] == "load-begin"), float("inf"))
        reloaded = [e for e in logged if e.get("view") in views
                    and (e["event"] == "spawn" or e["event"] == "load" and e["mono"] < first_navigation)]
        if reloaded:
            self.fail(incarnation, f"adopted views loaded again: {reloaded[:2]}")

    def report(self):
        c = self.counts
        figures = {
            "restartToFirstEventMs": {"p50": percentile(self.first_event_ms, 50),
                                      "max": percentile(self.first_event_ms, 100)},
            "restartToVisibleMs": {"p50": percentile(self.visible_ms, 50), "max": percentile(self.visible_ms, 100),
                                   "count": len(self.visible_ms)},
        }
        if self.keep:
            figures["adoption"] = {
                "heldAtKills": c["held"], "reclaimed": c["reclaimed"], "adopted": c["adopted"],
                "refused": c["refused"], "unanswered": c["unanswered"],
                "adoptedShare": round(c["adopted"] / c["held"], 4) if c["held"] else None,
                "refusals": dict(self.refusals),
                "restartToLastAdoptMs": {"p50": percentile(self.adopted_ms, 50),
                                         "max": percentile(self.adopted_ms, 100)},
            }
        return figures


def restart_lines(report, keep):
    """The restart figures of `Restarts.report`, for the summary."""
    f, v = report["restartToFirstEventMs"], report["restartToVisibleMs"]
    how = "adopted" if keep else "respawned and rendered"
    lines = [f"  restart → first event p50 {f['p50']} ms (max {f['max']}); → the shown tab on screen ({how}) "
             f"p50 {v['p50']} ms (max {v['max']}) over {v['count']} restarts"]
    if keep:
        a = report["adoption"]
        lines.append(f"  held at kills {a['heldAtKills']}: {a['reclaimed']} taken back, {a['adopted']} adopted "
                     f"({a['adoptedShare']}), {a['refused']} refused, {a['unanswered']} unanswered; restart → "
                     f"last adopt p50 {a['restartToLastAdoptMs']['p50']} ms (max {a['restartToLastAdoptMs']['max']})")
    return lines
