"""/proc, as scripts/chaos reads it: a process's parent, state and name, and the children of one; and the kill that
chaos owns up to."""
import os
import signal


def stat(pid):
    """(parent, state, name) from /proc/PID/stat, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], name


def children(parent):
    """Children of `parent` by pid: (state, name). Read from /proc/PID/task/*/children."""
    found = {}
    try:
        tasks = os.listdir(f"/proc/{parent}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{parent}/task/{task}/children") as f:
                pids = [int(p) for p in f.read().split()]
        except OSError:
            continue
        for pid in pids:
            info = stat(pid)
            if info and info[0] == parent:
                found[pid] = (info[1], info[2])
    return found


def is_worker(name):
    """WebContent, or the portable worker (comm is cut to 15 characters: WebContentPorta)."""
    return name in ("WebContent", "WebContentPorta")


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, -(-len(ordered) * p // 100) - 1)], 3)


def claimed_kill(claims, victim):
    """SIGKILLs `victim` through a pidfd, naming it on `claims` (a descriptor open for appending to the file given to
    `run --outside-kills`) between the pidfd's open and the signal: the kernel never tells the supervisor who sent a
    signal, so this line is what makes the death a kill from outside. Raises OSError when the victim is gone."""
    fd = os.pidfd_open(victim)
    try:
        os.write(claims, f"{victim}\n".encode())
        signal.pidfd_send_signal(fd, signal.SIGKILL)
    finally:
        os.close(fd)
