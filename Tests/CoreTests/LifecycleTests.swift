import CShim
import Foundation
import Glibc
import Testing
import Vocabulary

@testable import Core
@testable import Browser
@testable import Scenario
@testable import System
@testable import SupervisorTesting

extension Processes {
    /// Nothing leaks and nothing outlives the supervisor.
    @Suite struct Lifecycle {
        @Test func aThousandSpawnKillCyclesLeaveNoDescriptorOrZombieBehind() throws {
            let before = try openSupervisorDescriptors()
            var loadOfPid: [Int32: Int] = [:]
            var killedLoads: Set<Int> = []
            do {
                // Rebuild, observing deaths from spawn: each kill is recovered at once.
                var policy = Policy.rebuild
                policy.observe = .spawn
                let (summary, events) = try simulate({ $0.loads = 1000; $0.views = 2; $0.policy = policy }, content: ContentProvider()) { event in
                    if event.name == "spawn", let pid = event.pid { loadOfPid[pid] = event.int("load") }
                    if event.name == "hello", let pid = event.pid, let load = loadOfPid[pid], !killedLoads.contains(load) {
                        killedLoads.insert(load)
                        killFromOutside(pid)
                    }
                }
                #expect(events.named("death").filter { $0.int("signal") == 9 }.count == 1000)
                #expect(summary.rendered == 1000)
                #expect(summary.spawns == 2000 && summary.deaths == 2000)
            }
            // Nothing the supervisor could have opened is still open; earlier tests' Foundation pipes may close meanwhile.
            let leaked = try leakedDescriptors(since: before)
            #expect(leaked.isEmpty, "still open: \(leaked)")
            #expect(childProcesses().isEmpty)
        }

        @Test func aWorkerHoldsOnlyStandardDescriptorsAndItsChannel() throws {
            var seen: [Int] = []
            _ = try simulate({ $0.loads = 1 }, content: ContentProvider()) { event in
                if event.name == "hello", let pid = event.pid { seen = descriptors(of: pid) }
            }
            #expect(seen == [0, 1, 2, 3, 4])
        }

        /// A child run to its end (`Sys.run`, as the bench runs `analyze` and grep) keeps its standard descriptors
        /// and nothing else of ours, though this process holds many: `ls` sees at most 0 to 2 and the directory it
        /// reads.
        @Test func aChildRunToItsEndInheritsOnlyItsStandardDescriptors() throws {
            let folder = try TemporaryFolder([:])
            let output = folder.path + "/fds"
            #expect(try Sys.run("/bin/ls", ["/proc/self/fd"], output: output) == .code(0))
            let fds = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
            #expect(!fds.isEmpty && fds.allSatisfy { $0 <= 3 }, "\(fds)")
        }

        @Test func aWorkerLeadsItsOwnProcessGroup() throws {
            var group: pid_t = 0
            var worker: pid_t = -1
            _ = try simulate({ $0.loads = 1 }, content: ContentProvider()) { event in
                if event.name == "hello", let pid = event.pid {
                    worker = pid
                    group = getpgid(pid)
                }
            }
            #expect(group == worker)
        }

        @Test func aWorkerExitsWithin100msOfItsSupervisorBeingKilled() throws {
            let content = try TemporaryFolder(["page.html": page("Page")])
            let (supervisor, worker) = try startSupervisorShowingAPage(content)
            defer { supervisor.waitUntilExit() }
            let pidfd = sv_pidfd_open(worker)
            try #require(pidfd >= 0)
            defer { close(pidfd) }
            kill(supervisor.processIdentifier, SIGKILL)
            let killedAt = Sys.monotonicNanoseconds()
            var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            let exited = poll(&ready, 1, 1000) == 1
            let elapsedMs = Double(Sys.monotonicNanoseconds() - killedAt) / 1e6
            #expect(exited)
            #expect(elapsedMs < 100, "worker took \(elapsedMs) ms to die")
            try reapOrphan(pidfd)
        }

        @Test(arguments: [SIGINT, SIGTERM])
        func anInterruptedRunReapsItsWorkersAndExits130(signal: Int32) throws {
            let content = try TemporaryFolder(["page.html": page("Page")])
            let (supervisor, worker) = try startSupervisorShowingAPage(content)
            let pidfd = sv_pidfd_open(worker)
            try #require(pidfd >= 0)
            defer { close(pidfd) }
            kill(supervisor.processIdentifier, signal)
            supervisor.waitUntilExit()
            #expect(supervisor.terminationStatus == 130)
            var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&ready, 1, 0) == 1, "the worker outlived its supervisor's exit")
            #expect(childProcesses().isEmpty)
        }
    }
}

/// Starts `supervisor run` on a page that stays on screen for a minute, and returns once the page has rendered,
/// with the pid of the worker showing it. The event log goes to stdout, so this awaits the render event instead
/// of sleeping.
func startSupervisorShowingAPage(_ content: TemporaryFolder) throws -> (Process, Int32) {
    let (supervisor, workers) = try startSupervisorShowing(views: 1, ["--content", content.path])
    return (supervisor, workers[0])
}

/// Reaps a worker that was orphaned into this process (see `startSupervisorShowing`), once it has exited.
func reapOrphan(_ pidfd: Int32) throws {
    var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
    try #require(poll(&ready, 1, 5000) == 1)
    var code: Int32 = 0
    var status: Int32 = 0
    // The pidfd turns readable as the worker exits, which can be a moment before the kernel has re-parented it
    // here from its dying supervisor: until then it is not our child to reap (ECHILD).
    let reaped = eventually(within: 2) { sv_waitid_pidfd(pidfd, &code, &status, 1) == 0 }
    try #require(reaped && code != 0)
}
