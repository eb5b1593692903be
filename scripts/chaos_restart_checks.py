"""The invariants of `scripts/chaos --kill-supervisor-every`, checked over every restart from the logs of all
incarnations and from the journal and session file as chaos reads them itself (chaos_files) right after each kill,
before the next incarnation starts.

1. Inputs: every `journal-synced` line (logged after the journal's fdatasync returned, so never before its inputs
   were on the disk) is held by the journal after the kill and at the end: the journal's first `records` inputs
   hash to its `digest`. Each restart restores exactly what the journal holds (`journal-opened` records and
   `editor-open` restored), so an input cannot be dropped and then typed again under the same label. The final
   document is the journal's inputs: the last incarnation's audit says its worker's document is them exactly
   (`intact`, nothing lost or doubled, `acknowledged` equal to their count), and each input acknowledged in any
   incarnation appears in it exactly once.
2. Sessions: each restore (`session-restored`: tabs, digest, journal position) equals what the file holds, read by
   chaos after the kill; and the file holds the last state the killed incarnation logged (its last `session-saved`,
   or what it restored if it saved nothing), or the state of one save after it: a save's line is emitted when its
   fdatasync has returned and flushed in that wake-up, and the next save starts at least one wake-up later, so at
   most the last save can be on the disk with its line lost. A file last written whole holds no earlier state to
   compare with: that case is counted apart (`wholeUnlogged`), and the restore must still equal the file. An
   incarnation killed within 0.5 s of its start with nothing in its log (its first wake-up never flushed) has
   nothing to compare: counted as `unlogged`, and the next restart is compared with the files as they are then.
3. Workers (chaos_restarts): none is alive 100 ms after its supervisor's SIGKILL.
4. Files: the journal and the session file, as chaos reads them after each kill, have no damage but a torn tail, and
   the next incarnation reports exactly that tail (`journal-opened` tornBytesDropped; the session's torn last
   save in `session-restored` damage) and nothing else: no salvage, no refused file, no new session.
"""
import re
from collections import Counter

from chaos_files import Journal

TORN_SAVE = re.compile(r"its last save was cut short \(([\d,]+) bytes\), so the one before it was restored")


def first(logged, name):
    return next((e for e in logged if e["event"] == name), None)


class Checks:
    def __init__(self):
        self.failures = []
        self.syncs = []  # (incarnation, records, digest) over every incarnation
        self.restored = {}  # incarnation: inputs it restored
        self.reported = set()  # losses already failed, by (incarnation, inputs still held)
        self.journal, self.session = Journal(None), None  # as read before the next incarnation starts
        self.last_state = None
        self.inputs = Counter()
        self.sessions = Counter()
        self.torn = {"session": Counter(), "journal": Counter()}
        self.kills = Counter()
        self.loads = Counter()
        self.torn_log_lines = 0

    def expect(self, journal, session):
        self.journal, self.session = journal, session
        if session.states:
            self.last_state = session.states[-1]

    def fail(self, incarnation, text):
        self.failures.append(f"incarnation {incarnation.index}: {text}")

    def restart(self, incarnation, logged):
        """What the incarnation restored, against the files as chaos read them before it started (invariants 1, 2, 4)."""
        journal, session = self.journal, self.session
        if first(logged, "session-created"):
            self.fail(incarnation, "started a new session: the session file was refused")
        restored = first(logged, "session-restored")
        if restored is None and not logged and incarnation.killed_at is not None \
                and incarnation.killed_at - incarnation.started < 0.5:
            # Killed before its event loop's first wake-up flushed the log: nothing to compare (the next restart
            # is compared with the files as they are then).
            self.sessions["unlogged"] += 1
            return
        if restored is None:
            return self.fail(incarnation, "logged no session-restored")
        if not session.states:
            return self.fail(incarnation, f"chaos could not read the session file: {session.damage}")
        self.sessions["compared"] += 1
        state = (restored["tabs"], restored["digest"], restored["journalRecords"])
        if state == session.states[-1]:
            self.sessions["equal"] += 1
        else:
            self.fail(incarnation, f"restored {state}, but the session file holds {session.states[-1]}")
        damage = restored.get("damage")
        match = TORN_SAVE.fullmatch(damage or "")
        if session.torn:
            self.torn["session"].update(count=1, bytes=session.torn)
            if not match or int(match.group(1).replace(",", "")) != session.torn:
                self.fail(incarnation, f"the session's torn last save ({session.torn} bytes) reported as {damage!r}")
        elif damage is not None:
            self.fail(incarnation, f"session damage reported where chaos found none: {damage}")
        opened = first(logged, "journal-opened")
        if opened is None:
            return self.fail(incarnation, "logged no journal-opened")
        if journal.torn:
            self.torn["journal"].update(count=1, bytes=journal.torn)
        if (opened["records"], opened["tornBytesDropped"], opened.get("salvaged")) != (len(journal.texts), journal.torn, None):
            self.fail(incarnation, f"journal opened as {opened['records']} inputs, {opened['tornBytesDropped']} torn "
                      f"bytes, salvaged {opened.get('salvaged')!r}; chaos read {len(journal.texts)} and {journal.torn}")
        editor = first(logged, "editor-open")
        if editor is not None and editor["restored"] != len(journal.texts):
            self.fail(incarnation, f"the editor restored {editor['restored']} inputs of {len(journal.texts)}")
        if first(logged, "journal-behind"):
            self.fail(incarnation, "the session counts more saved inputs than the journal holds (journal-behind)")

    def check_syncs(self, incarnation, journal, when):
        """Invariant 1: every input a journal-synced line acknowledged, in any incarnation, is in `journal` as it was.
        Counts as lost, per incarnation, those past the last of its lines that `journal` still bears out: found after
        any kill, since a restart that dropped an input types the next one under the same label."""
        digests = journal.prefix_digests()
        for index, restored in self.restored.items():
            lines = [(records, digest) for i, records, digest in self.syncs if i == index]
            if not lines:
                continue
            top = max(records for records, _ in lines)
            held = max([restored] + [r for r, d in lines if r < len(digests) and digests[r] == d])
            if held < top:
                if (index, held) in self.reported:
                    continue
                self.reported.add((index, held))
                self.inputs["lost"] += top - held
                self.fail(incarnation, f"{when}, the journal ({len(journal.texts)} inputs) does not hold inputs "
                          f"{held + 1}…{top} as incarnation {index} logged them synced")

    def record_inputs(self, incarnation, logged, typed=None, acked=None):
        opened = first(logged, "journal-opened")
        restored = opened["records"] if opened else len(self.journal.texts)
        syncs = [e for e in logged if e["event"] == "journal-synced"]
        self.syncs += [(incarnation.index, e["records"], e["digest"]) for e in syncs]
        self.restored[incarnation.index] = restored
        if typed is None or incarnation.killed_at is None and typed < restored:
            typed = syncs[-1]["typed"] if syncs else restored
            acked = syncs[-1]["records"] if syncs else restored
            self.inputs["unacknowledgedAtKills"] += typed - acked
        self.inputs["typed"] += typed - restored
        self.inputs["acknowledged"] += acked - restored

    def record_run(self, incarnation, logged, until):
        """Loads, and the worker kills sent before `until` (monotonic seconds): each found killed from outside."""
        for e in logged:
            if e["event"] == "load-end":
                self.loads[e["outcome"]] += 1
        deaths = {e["pid"]: e for e in logged if e["event"] == "death" and "pid" in e}
        self.kills["sent"] += len(incarnation.kills)
        for pid, sent in incarnation.kills:
            if sent >= until:
                continue
            self.kills["checked"] += 1
            death = deaths.get(pid)
            if death and death["status"] == "killed" and death.get("signal") == 9 and death["cause"] == "outside":
                self.kills["detected"] += 1
            else:
                self.fail(incarnation, f"worker {pid} SIGKILLed from outside, logged as "
                          f"{death and (death['status'], death.get('signal'), death['cause'])}")

    def killed(self, incarnation, logged, journal, session, grace):
        """After the incarnation's SIGKILL, before the next starts (invariants 1, 2, 4)."""
        self.record_inputs(incarnation, logged)
        self.check_syncs(incarnation, journal, "after its kill")
        for name, file in (("journal", journal), ("session file", session)):
            if file.damage:
                self.fail(incarnation, f"the {name} is damaged beyond a torn tail after the kill: {file.damage}")
        states = [self.last_state] if self.last_state else []
        restored = first(logged, "session-restored")
        if restored:
            states = [(restored["tabs"], restored["digest"], restored["journalRecords"])]
        states += [(e["tabs"], e["digest"], e["journalRecords"]) for e in logged if e["event"] == "session-saved"]
        last = states[-1] if states else None
        if session.states and last == session.states[-1]:
            self.sessions["lastSaveLogged"] += 1
        elif len(session.states) >= 2 and last == session.states[-2]:
            self.sessions["saveLineLost"] += 1
        elif len(session.states) == 1 and last is not None:
            self.sessions["wholeUnlogged"] += 1
        else:
            self.fail(incarnation, f"its last logged session state {last} is neither what the file holds "
                      f"({session.states[-1:]}) nor the save before it")
        self.record_run(incarnation, logged, incarnation.killed_at - grace)
        self.expect(journal, session)

    def ended(self, incarnation, logged, journal, grace):
        """After the last incarnation's exit: the final document (invariant 1)."""
        audit = first(logged, "editor")
        if audit is None:
            self.fail(incarnation, "logged no editor audit")
            audit = {"typed": None, "acknowledged": 0}
        self.record_inputs(incarnation, logged, typed=audit["typed"], acked=audit["acknowledged"])
        self.check_syncs(incarnation, journal, "at the end")
        if journal.damage or journal.torn:
            self.fail(incarnation, f"the journal is not whole after a clean end: {journal.damage or journal.torn}")
        texts = journal.texts
        if audit.get("intact") is not True or audit.get("lostInputs") != 0 or audit.get("duplicateInputs") != 0 \
                or audit["acknowledged"] != len(texts):
            self.fail(incarnation, f"the final document is not the journal's {len(texts)} inputs: {audit}")
        words = Counter(b"".join(texts).split())
        acknowledged = max((records for _, records, _ in self.syncs), default=0)
        counts = [words[text.strip()] for text in texts[:acknowledged]]
        self.inputs["finalDocument"] = len(texts)
        self.inputs["duplicated"] = sum(c - 1 for c in counts if c > 1)
        if self.inputs["lost"] or self.inputs["duplicated"]:
            self.fail(incarnation, f"of {acknowledged} acknowledged inputs, {self.inputs['lost']} are not in the final "
                      f"document as acknowledged and {self.inputs['duplicated']} are there more than once")
        self.inputs["finalAudit"] = {k: audit.get(k) for k in ("lostInputs", "duplicateInputs", "intact", "documentFrom")}
        self.record_run(incarnation, logged, float("inf"))

    def report(self):
        i = self.inputs
        return {
            "inputs": {"typed": i["typed"], "acknowledged": i["acknowledged"],
                       "unacknowledgedAtKills": i["unacknowledgedAtKills"], "finalDocument": i["finalDocument"],
                       "lost": i["lost"], "duplicated": i["duplicated"], "finalAudit": i.get("finalAudit")},
            "sessions": {k: self.sessions[k] for k in ("compared", "equal", "lastSaveLogged", "saveLineLost",
                                                       "wholeUnlogged", "unlogged")},
            "tornTails": {k: {"count": v["count"], "bytes": v["bytes"]} for k, v in self.torn.items()},
            "workerKills": {k: self.kills[k] for k in ("sent", "checked", "detected")},
            "loads": sum(self.loads.values()), "blank": self.loads["blank"], "failed": self.loads["failed"],
            "tornLogLines": self.torn_log_lines,
        }
