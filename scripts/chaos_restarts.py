"""`scripts/chaos --kill-supervisor-every S`: crash-only restarts. The supervisor browses a session's tabs and types
into the editor with a journal; chaos SIGKILLs the supervisor itself every S seconds (each interval drawn by the seed
between S/2 and 3S/2), and starts it again on the same session and journal, one event log per incarnation, until the
duration ends; the last incarnation is ended by SIGTERM. Meanwhile its workers are SIGKILLed from outside at --rate.
The invariants are checked over every restart (see `Checks`), against what chaos reads from the files itself. With
--keep-workers the workers outlive each kill under the holder, and the next incarnation must take them back
(chaos_adoption); without it, none may outlive its supervisor by more than 100 ms.
"""
import ctypes, json, os, random, signal, subprocess, time

from chaos_files import Journal, Session
from chaos_adoption import Restarts, restart_lines
from chaos_proc import children, claimed_kill, is_worker, percentile, stat
from chaos_report import verdict, wrapped
from chaos_restart_checks import Checks

PR_SET_CHILD_SUBREAPER = 36
# How long after the supervisor's SIGKILL its workers may live: the README's bound (PR_SET_PDEATHSIG).
WORKER_DEATH_BOUND_MS = 100.0
# A kill of a worker this close to its supervisor's own kill may have no death in the log yet: not checked.
KILL_GRACE_S = 0.5


def events(path):
    """The log's events, as far as whole lines go; the count of lines that did not parse (a torn last line)."""
    found, torn = [], 0
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except FileNotFoundError:
        return [], 0
    for line in lines:
        if line.strip():
            try:
                found.append(json.loads(line))
            except ValueError:
                torn += 1
    return found, torn


class Incarnation:
    def __init__(self, index, command, work, seed):
        self.index = index
        self.log = os.path.join(work, f"run-{index}.jsonl")
        self.stderr = open(os.path.join(work, f"stderr-{index}"), "w+")
        self.stdout = open(os.path.join(work, f"summary-{index}.json"), "w+")
        self.process = subprocess.Popen(command + ["--log", self.log, "--seed", str(seed % 1_000_000 * 1000 + index)],
                                        stdout=self.stdout, stderr=self.stderr)
        self.pid = self.process.pid
        self.started = time.monotonic()
        self.kills = []  # (worker pid, monotonic seconds) sent from outside
        self.killed_at = None
        self.held = None  # with --keep-workers: the workers the holder kept across the kill before it started

    def error(self):
        self.stderr.seek(0)
        return self.stderr.read().strip()


def reap_orphans(me, supervisor_pids):
    """Reaps the dead workers re-parented to chaos (a subreaper): their zombies are ours now."""
    for pid, (state, _) in children(me).items():
        if state == "Z" and pid not in supervisor_pids:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def holder(me, supervisor):
    """The holder of `run --keep-workers`: the supervisor's child, or chaos's once the supervisor that started it
    died (chaos is a subreaper); None without one."""
    for parent in (supervisor, me):
        for pid, (state, name) in children(parent).items():
            if name == "Holder" and state != "Z":
                return pid
    return None


def workers_of(me, supervisor):
    """Whose children the workers are: the holder's with --keep-workers, else the supervisor's."""
    return children(holder(me, supervisor) or supervisor)


def live_workers(me, supervisor):
    """Live workers of the supervisor or its holder, or re-parented to chaos since one died (a zombie is already
    dead)."""
    found = set()
    for parent in (supervisor, me, holder(me, supervisor)):
        for pid, (state, name) in children(parent).items() if parent else ():
            if is_worker(name) and state != "Z":
                found.add(pid)
    return found


def kill_supervisor(incarnation, me, keep):
    """SIGKILLs the supervisor and measures how long its workers outlive it: (ms until none is alive, how many
    there were, those still alive after 2 s). With `keep`, they are the holder's to keep: (None, the live workers
    it holds once the supervisor is gone, [])."""
    at_kill = live_workers(me, incarnation.pid)
    try:
        fd = os.pidfd_open(incarnation.pid)
    except ProcessLookupError:
        return None  # it exited by itself (a zombie still has a pid: this is rare)
    start = time.monotonic()
    signal.pidfd_send_signal(fd, signal.SIGKILL)
    os.close(fd)
    incarnation.killed_at = start
    if keep:
        incarnation.process.wait()
        return None, live_workers(me, 0), []
    alive = at_kill
    while alive and time.monotonic() - start < 2.0:
        alive = live_workers(me, incarnation.pid) | {p for p in at_kill if (s := stat(p)) and s[1] != "Z"}
        if alive:
            time.sleep(0.0005)
    gone_ms = (time.monotonic() - start) * 1000
    incarnation.process.wait()
    reap_orphans(me, set())
    return round(gone_ms, 3), len(at_kill), sorted(alive)


def run(args, binary, work):
    """Runs the restarts and returns (report, failures)."""
    rng = random.Random(args.seed)
    me = os.getpid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise RuntimeError("cannot become a child subreaper (prctl): " + os.strerror(ctypes.get_errno()))
    session = os.path.join(work, "tabs.session")
    journal = os.path.join(work, "editor.journal")
    tabs = max(2, args.views)
    subprocess.run([binary, "session", "create", session, "--tabs", str(tabs), "--seed", str(args.seed)],
                   check=True, stdout=subprocess.DEVNULL)
    claims_path = os.path.join(work, "kills")
    claims = os.open(claims_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    command = [binary, "run", "--policy", "guarded", "--session", session, "--loads", "10000000", "--dwell", "200",
               "--typing", "20", "--journal", journal, "--json", "--outside-kills", claims_path]
    command += ["--live-tabs", str(args.workers)] if args.workers else []
    command += ["--keep-workers"] if args.keep_workers else []
    restarts = Restarts(args.keep_workers)
    held = None
    checks = Checks()
    checks.expect(Journal(journal), Session(session))
    failures = checks.failures
    incarnations = []
    deaths_ms, workers_at_kills, zombies = [], 0, set()
    rate = args.rate
    start = time.monotonic()
    end = start + args.duration
    final = None
    while True:
        incarnation = Incarnation(len(incarnations), command, work, args.seed)
        incarnation.held = held
        incarnations.append(incarnation)
        pid = incarnation.pid
        kill_at = time.monotonic() + args.kill_supervisor_every * rng.uniform(0.5, 1.5)
        next_kill = time.monotonic() + rng.expovariate(rate) if rate > 0 else float("inf")
        next_sample, candidate_zombies = time.monotonic(), {}
        while (now := time.monotonic()) < min(kill_at, end):
            if incarnation.process.poll() is not None:
                break
            workers = workers_of(me, pid)
            if now >= next_sample:
                next_sample += 0.1
                for p, (state, _) in workers.items():
                    if state == "Z":
                        candidate_zombies.setdefault(p, now)
                for p, since in list(candidate_zombies.items()):
                    info = stat(p)
                    if info is None or info[1] != "Z" or info[0] not in (pid, holder(me, pid)):
                        del candidate_zombies[p]
                    elif now - since >= 0.05:
                        zombies.add(p)
            if now >= next_kill:
                next_kill += rng.expovariate(rate)
                live = [p for p, (state, name) in workers.items() if is_worker(name) and state not in ("Z", "T", "t")]
                if live:
                    victim = rng.choice(live)
                    try:
                        claimed_kill(claims, victim)
                        incarnation.kills.append((victim, time.monotonic()))
                    except OSError:
                        pass
            time.sleep(max(0.0, min(next_kill, next_sample, kill_at, end) - time.monotonic()))
        killed = None
        if incarnation.process.poll() is None and time.monotonic() < end:
            killed = kill_supervisor(incarnation, me, args.keep_workers)
        if killed is None and incarnation.process.poll() is not None:
            failures.append(f"incarnation {incarnation.index} exited {incarnation.process.returncode} by itself: "
                            f"{incarnation.error()[:300]}")
            checks.restart(incarnation, events(incarnation.log)[0])
            break
        if killed is None:
            final = incarnation
            break
        gone_ms, count, alive = killed
        if args.keep_workers:
            held = count
        else:
            deaths_ms.append(gone_ms)
            workers_at_kills += count
        if alive:
            failures.append(f"workers alive 2 s after supervisor {pid} was SIGKILLed: {alive}")
        elif gone_ms is not None and gone_ms > WORKER_DEATH_BOUND_MS:
            failures.append(f"workers of supervisor {pid} outlived it by {gone_ms} ms (bound {WORKER_DEATH_BOUND_MS} ms)")
        logged, torn = events(incarnation.log)
        if incarnation.index > 0:
            restarts.restarted(incarnation, logged, incarnation.held)
        checks.restart(incarnation, logged)
        checks.killed(incarnation, logged, Journal(journal), Session(session), KILL_GRACE_S)
        checks.torn_log_lines += torn

    status = None
    if final is not None:
        # SIGTERM ends a run once its event loop takes signals: before that it is a plain kill. The loop's first
        # wake-up flushes `run-begin`.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and final.process.poll() is None \
                and not any(e["event"] == "run-begin" for e in events(final.log)[0]):
            time.sleep(0.02)
        final.process.send_signal(signal.SIGTERM)
        try:
            status = final.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            final.process.kill()
            status = final.process.wait()
            failures.append("the last supervisor did not exit within 30 s of SIGTERM")
        if status != 130:
            failures.append(f"the last supervisor exited {status}, not 130 (interrupted): {final.error()[:300]}")
        logged, torn = events(final.log)
        if final.index > 0:
            restarts.restarted(final, logged, final.held)
        checks.restart(final, logged)
        checks.ended(final, logged, Journal(journal), KILL_GRACE_S)
        checks.torn_log_lines += torn
    time.sleep(0.05)
    reap_orphans(me, set())
    leftovers = sorted(live_workers(me, 0))
    if leftovers:
        failures.append(f"workers outlived their supervisors: {leftovers[:5]}")
        for pid in leftovers:  # adopted by chaos, the subreaper: they are ours to end
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
        reap_orphans(me, set())
    if holder(me, 0) is not None:
        failures.append(f"the holder outlived the last supervisor: {holder(me, 0)}")
    if zombies:
        failures.append(f"zombies left unreaped for 50 ms or more: {sorted(zombies)[:5]}")
    failures += restarts.failures
    report = checks.report()
    if report["blank"] or report["failed"]:
        failures.append(f"loads not rendered: {report['blank']} blank, {report['failed']} failed")
    report.update({
        "supervisorKills": len(incarnations) - 1 if final is not None else len(incarnations),
        "restarts": len(incarnations) - 1,
        "finalExitStatus": status,
        "workersGoneAfterSupervisorKillMs": {"max": max(deaths_ms) if deaths_ms else None,
                                             "p50": percentile(deaths_ms, 50), "count": len(deaths_ms),
                                             "workersAtKills": workers_at_kills, "boundMs": WORKER_DEATH_BOUND_MS},
        "zombiesSeen": len(zombies), "leftovers": len(leftovers), "keepWorkers": args.keep_workers,
        "restartCost": restarts.report(),
    })
    report["ok"] = not failures
    report["failures"] = failures
    return report


def summary_lines(report):
    """The figures in a few lines of at most 100 columns, words whole."""
    return wrapped(figures(report))


def figures(report):
    r, i, s, t, w = (report, report["inputs"], report["sessions"], report["tornTails"],
                     report["workersGoneAfterSupervisorKillMs"])
    k = report["workerKills"]
    return [
        f"chaos: {r['supervisorKills']} supervisor SIGKILLs, {r['restarts']} restarts; last exit {r['finalExitStatus']}",
        f"  inputs: {i['typed']} typed, {i['acknowledged']} acknowledged across incarnations, "
        f"{i['unacknowledgedAtKills']} unacknowledged at kills (allowed to go); final document "
        f"{i['finalDocument']} inputs, lost {i['lost']}, duplicated {i['duplicated']}",
        f"  sessions: {s['compared']} restores compared, {s['equal']} equal to the file; last logged save on disk "
        f"{s['lastSaveLogged']}, one save's line lost {s['saveLineLost']}, rewritten whole unlogged {s['wholeUnlogged']}; "
        f"killed before any log line {s['unlogged']}",
        f"  torn tails reported: session {t['session']['count']} ({t['session']['bytes']} bytes), journal "
        f"{t['journal']['count']} ({t['journal']['bytes']} bytes); torn log lines {r['tornLogLines']}",
        f"  workers gone after the supervisor's kill: worst {w['max']} ms, p50 {w['p50']} ms over {w['count']} kills "
        f"({w['workersAtKills']} workers); leftovers {r['leftovers']}, zombies {r['zombiesSeen']}"
        if not r["keepWorkers"] else f"  workers kept by the holder across each kill; leftovers {r['leftovers']}, "
        f"zombies {r['zombiesSeen']}",
        f"  worker kills from outside: {k['sent']} sent, {k['checked']} checked, {k['detected']} found killed/SIGKILL "
        f"from outside; {r['loads']} loads, {r['blank']} blank, {r['failed']} failed",
    ] + restart_lines(report["restartCost"], report["keepWorkers"]) + verdict(report)
