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
        /// Locks `path` as a writer does, and leaves the lock to a child that keeps it for `seconds`.
        func lockKeptByAChild(_ path: String, seconds: String) throws -> pid_t {
            let fd = open(path, O_RDONLY)  // No O_CLOEXEC: the child keeps it, as one being spawned does.
            try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            var child: pid_t = 0
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup(seconds), nil]
            defer { arguments.forEach { free($0) } }
            try #require(posix_spawn(&child, "/bin/sleep", nil, nil, arguments, environ) == 0)
            close(fd)
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
