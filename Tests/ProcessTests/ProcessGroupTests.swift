import CShim
import Foundation
import Glibc
import Testing
import WireProtocol

@testable import Process
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
@testable import SupervisorTesting

extension Processes {
    /// A worker's children die with it: it leads its own process group, which is killed when the worker is
    /// killed, and again when its death is seen, before the reap lets its pid (the group's id) go.
    @Suite struct ProcessGroup {
        /// A `--worker` script that leaves a `sleep` behind (holding the channel's pipes) and then execs the real
        /// worker, once per load: workers shut down at the end, and one killed mid-run, leave no live orphan.
        @Test func aForkingWorkerLeavesNoLiveOrphan() throws {
            // Orphans are re-parented here rather than to init, so that this test can reap what it made.
            _ = sv_set_child_subreaper()
            let folder = try TemporaryFolder([:])
            let (script, children) = try forkingWorker(in: folder)
            var killed = false
            let (summary, _) = try simulate({
                $0.workerPath = script
                $0.loads = 3
                $0.dwellNanoseconds = 100_000_000
            }, content: ContentProvider()) { event in
                if event.name == "visible", !killed, let pid = event.pid {
                    killed = true
                    killFromOutside(pid)
                }
            }
            #expect(summary.rendered == 3 && killed)
            let pids = try String(contentsOfFile: children, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
            #expect(pids.count >= 4)
            let alive = { pids.filter { !isDead($0) } }
            #expect(eventually(within: 2) { alive().isEmpty }, "still alive: \(alive())")
            for pid in alive() { kill(pid, SIGKILL) }
            reapOrphans(pids)
        }

        /// Killing a worker kills its group at once, not only at its reap: its child is gone while the worker
        /// itself is still unreaped.
        @Test func killingAWorkerKillsItsGroupBeforeTheReap() throws {
            _ = sv_set_child_subreaper()
            Sys.ignoreSignal(SIGPIPE)
            let folder = try TemporaryFolder([:])
            let (script, children) = try forkingWorker(in: folder)
            let launcher = try WorkerLauncher(executable: script, loop: EventLoop(), sandboxed: true)
            let worker = try launcher.launchProcess()
            // Its hello means the script has started its child and exec'd the worker.
            var scratch = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: worker.channel.readFD, events: Int16(POLLIN), revents: 0)
            try #require(poll(&ready, 1, 5000) == 1 && (try worker.channel.fill(using: &scratch)))
            #expect(try worker.channel.next() == .hello(pid: worker.pid, version: protocolVersion, sandbox: .installed))
            let child = try #require(Int32(try String(contentsOfFile: children, encoding: .utf8).split(separator: "\n")[0]))
            #expect(!isDead(child))
            worker.signal(SIGKILL, by: .supervisor)
            #expect(eventually(within: 2) { isDead(child) })
            #expect(!worker.reaped)
            var exited = pollfd(fd: worker.pidfd, events: Int16(POLLIN), revents: 0)
            _ = poll(&exited, 1, 5000)
            #expect(try worker.reap(wait: true) != nil)
            if !isDead(child) { kill(child, SIGKILL) }
            reapOrphans([child])
        }

        /// A `--worker` script whose children leave its process group by `setsid`, one of them forking again and
        /// exiting (a daemon's double fork): the group kill cannot reach them, but the supervisor, a child
        /// subreaper, inherits each when its parent dies and kills it. None is alive once the run has ended.
        @Test func aChildThatLeftTheWorkersGroupDiesWithTheRunToo() throws {
            // What the supervisor leaves, if anything, is re-parented here rather than to init, to be reaped.
            _ = sv_set_child_subreaper()
            let folder = try TemporaryFolder([:])
            let script = folder.path + "/worker.sh"
            let children = folder.path + "/children"
            try """
            #!/bin/sh
            setsid /bin/sh -c 'echo $$ >> \(children); exec /bin/sleep 1000' &
            setsid /bin/sh -c '/bin/sleep 1000 & echo $! >> \(children)'
            exec \(workerPath) "$@"
            """.write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            let result = try runSupervisorBounded(["run", "--worker", script, "--loads", "3", "--dwell", "50"])
            #expect(result.status == 0, "\(result.stderr)")
            let pids = try String(contentsOfFile: children, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
            #expect(pids.count == 6)
            let alive = { pids.filter { !isDead($0) } }
            #expect(alive().isEmpty, "still alive: \(alive())")
            for pid in alive() { kill(pid, SIGKILL) }
            reapOrphans(pids)
        }
    }
}

/// A `--worker` script that starts a `sleep` (which inherits the channel's pipes), notes its pid in `children`,
/// then execs the real worker.
func forkingWorker(in folder: TemporaryFolder) throws -> (script: String, children: String) {
    let script = folder.path + "/worker.sh"
    let children = folder.path + "/children"
    try """
    #!/bin/sh
    /bin/sleep 1000 &
    echo $! >> \(children)
    exec \(workerPath) "$@"
    """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    return (script, children)
}
