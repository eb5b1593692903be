import CShim
import Glibc
import Synchronization

/// What a child leaves behind: a process it started that escaped its process group (`setsid`), which the group
/// kill at its death cannot reach, and which init would otherwise inherit and keep.
///
/// A command that starts workers makes this process a child subreaper (`adopt`): an orphaned descendant is then
/// re-parented here, not to init (PR_SET_CHILD_SUBREAPER(2const); Linux's kernel/exit.c, find_new_reaper, hands it
/// to a live thread of the nearest subreaper, and forget_original_parent splices it into that thread's children).
/// Every child started with `Sys.spawn` is known until its reap, so any other child is such an orphan: `sweep`
/// kills it and reaps it. /proc/PID/task/TID/children lists a thread's children; read while children exit, it may
/// miss one (proc_tid_children(5)), which the next sweep finds.
package enum Orphans {
    private struct State {
        var adopting = false
        /// Children started with `Sys.spawn` and not reaped yet.
        var spawned: Set<Int32> = []
        /// A sweep is due on a loop: orphans were killed and not all reaped.
        var sweepDue = false
    }

    private static let state = Mutex(State())

    /// Makes this process the reaper of its descendants' orphans, for a command whose every child is started with
    /// `Sys.spawn` (any other child would be taken for an orphan). Call it before the first child is started.
    /// The corresponding C function is `prctl(PR_SET_CHILD_SUBREAPER)`.
    package static func adopt() throws(SystemError) {
        _ = try retrying("prctl(PR_SET_CHILD_SUBREAPER)") { sv_set_child_subreaper() }
        state.withLock { $0.adopting = true }
    }

    /// Runs `start`, which starts one child and returns its pid, and records the child in the same step: a sweep on
    /// another thread (runs side by side) reads the children before it reads what was recorded, so it never takes
    /// a child still being started for an orphan.
    static func spawning(_ start: () throws(SystemError) -> Int32) throws(SystemError) {
        try state.withLock { (state: inout State) throws(SystemError) in
            _ = state.spawned.insert(try start())
        }
    }

    static func reaped(_ pid: Int32) {
        _ = state.withLock { $0.spawned.remove(pid) }
    }

    /// SIGKILLs every orphan re-parented here, and reaps those already dead, then any orphan their deaths left;
    /// returns how many are killed but not reaped yet (a later sweep reaps them). Nothing without `adopt`.
    @discardableResult
    package static func sweep() -> Int {
        guard state.withLock({ $0.adopting }) else { return 0 }
        while true {
            let orphans = children().subtracting(state.withLock { $0.spawned })
            var reaped = 0
            for pid in orphans {
                // Still our child until we reap it, so the pid cannot name anyone else.
                kill(pid, SIGKILL)
                if waitpid(pid, nil, WNOHANG) == pid { reaped += 1 }
            }
            // A reaped orphan's own children were re-parented here before it died: look again.
            if reaped == 0 { return orphans.count }
        }
    }

    /// Sweeps now, and again on `loop` shortly after while orphans it killed are still dying: after each reap of a
    /// child, whose orphans are re-parented here by then (before its exit is reported).
    package static func sweep(on loop: EventLoop) {
        guard sweep() > 0 else { return }
        let alreadyDue = state.withLock { state in
            defer { state.sweepDue = true }
            return state.sweepDue
        }
        guard !alreadyDue else { return }
        loop.schedule(afterNanoseconds: 5_000_000) {
            state.withLock { $0.sweepDue = false }
            sweep(on: loop)
        }
    }

    /// Sweeps until no orphan is left, waiting for each to die: the last step of a command that adopted them.
    package static func sweepAll() {
        guard state.withLock({ $0.adopting }) else { return }
        while sweep() > 0 {
            for pid in children().subtracting(state.withLock { $0.spawned }) {
                while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
            }
        }
    }

    /// This process's children, as every thread's /proc/self/task/TID/children lists them.
    private static func children() -> Set<Int32> {
        var found: Set<Int32> = []
        for task in (try? Sys.directoryEntries("/proc/self/task")) ?? [] {
            guard let file = try? Sys.open("/proc/self/task/\(task)/children", O_RDONLY) else { continue }
            let text = (try? Sys.readAll(file.rawValue)) ?? []
            for number in text.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }) {
                if let pid = Int32(String(decoding: number, as: UTF8.self)) { found.insert(pid) }
            }
        }
        return found
    }
}
