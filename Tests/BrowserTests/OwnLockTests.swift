import Foundation
import Glibc
import Testing

@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// A file this process wrote and closed can stay locked for a moment in a child it is starting: posix_spawn
    /// copies the descriptor table, and only the exec closes the copy. Writing the file again, or opening the journal
    /// again, waits that out, where it had said the file was in use (seen when a test beside it spawned workers).
    @Suite struct OwnLockInAChild {
        /// Locks `path` as a writer does, and leaves the lock to a child that keeps it for `seconds`. Only that child
        /// inherits the descriptor (a dup2 onto itself clears its close-on-exec there): another test's child spawned
        /// meanwhile would keep the lock as long as it lives, which once outlasted the wait.
        func lockKeptByAChild(_ path: String, seconds: String) throws -> pid_t {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fd, fd)
            var child: pid_t = 0
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup(seconds), nil]
            defer { arguments.forEach { free($0) } }
            try #require(posix_spawn(&child, "/bin/sleep", &actions, nil, arguments, environ) == 0)
            close(fd)
            // The child holds it now: another descriptor of ours cannot take it.
            let probe = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(probe) }
            try #require(flock(probe, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK)
            return child
        }

        func reap(_ child: pid_t) {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }

        @Test func aLockOnlyAChildOfOursKeepsForAMomentIsWaitedOut() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/session"
            try SessionFile.write(SessionFile.encode(Session()), to: path)
            let child = try lockKeptByAChild(path, seconds: "0.05")
            defer { reap(child) }
            try SessionFile.write(SessionFile.encode(Session()), to: path)
        }

        /// The same for the input journal, opened again after a run's journal was closed.
        @Test func aJournalOnlyAChildOfOursKeepsLockedForAMomentIsOpened() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/journal"
            do { _ = try InputJournal(path: path) }
            let child = try lockKeptByAChild(path, seconds: "0.05")
            defer { reap(child) }
            _ = try InputJournal(path: path)
        }

        @Test func aLockAChildOfOursKeepsLongerIsStillInUse() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/session"
            try SessionFile.write(SessionFile.encode(Session()), to: path)
            let child = try lockKeptByAChild(path, seconds: "5")
            defer { reap(child) }
            #expect(throws: (any Error).self) { try SessionFile.write(SessionFile.encode(Session()), to: path) }
        }
    }
}
