import Glibc
import System
import Vocabulary

/// How a worker's end is collected: as its parent (`ChildWorkerExit`, a `ChildProcess` reaped with waitid), or
/// through the holder that is its parent (`HeldWorkerExit`, issue 34): its pidfd says when it exited, the holder
/// reaps it, and the kernel then tells any pidfd how it ended.
package protocol WorkerExit: AnyObject {
    var pid: Int32 { get }
    /// The pidfd, readable once the process has exited.
    var descriptor: Int32 { get }
    func signal(_ signal: Int32) throws(SystemError)
    /// Signals the rest of its process group (whatever it started), and only while that group's id cannot be anyone
    /// else's.
    func signalGroup(_ signal: Int32)
    /// Whether it has exited (with `wait`, once it has), still unreaped.
    func hasExited(wait: Bool) throws(SystemError) -> Bool
    /// How it ended, once it has exited; after this the value is dropped, and its pidfd with it.
    func reap() throws(SystemError) -> ProcessExit
}

/// A worker this process started: its parent reaps it.
package final class ChildWorkerExit: WorkerExit {
    private let child: ChildProcess
    package let pid: Int32

    package init(_ child: consuming ChildProcess) {
        pid = child.pid
        self.child = child
    }

    package var descriptor: Int32 { child.descriptor }
    package func signal(_ signal: Int32) throws(SystemError) { try child.signal(signal) }
    /// Until this process reaps it, its pid, the group's id, is its own.
    package func signalGroup(_ signal: Int32) { Sys.signalGroup(pid, signal) }
    package func hasExited(wait: Bool) throws(SystemError) -> Bool { try child.hasExited(wait: wait) }
    package func reap() throws(SystemError) -> ProcessExit { try child.reap() }
}

/// A worker the holder started and reaps: this process holds its pidfd, and asks the holder to have reaped it
/// before reading how it ended (PIDFD_INFO_EXIT).
package final class HeldWorkerExit: WorkerExit {
    private let pidfd: FileDescriptor
    private let holder: HolderLink
    package let pid: Int32

    package init(pid: Int32, pidfd: consuming FileDescriptor, holder: HolderLink) {
        self.pid = pid
        self.pidfd = pidfd
        self.holder = holder
    }

    package var descriptor: Int32 { pidfd.rawValue }
    package func signal(_ signal: Int32) throws(SystemError) { try Sys.pidfdSignal(pidfd.rawValue, signal) }

    /// Only while it runs: once it has exited, the holder reaps it (and kills what it left, re-parented to the
    /// holder), and its pid may then name another process. Between the check and the signal, a pid could be taken again only after the holder's reap
    /// and a whole turn of the pid space.
    package func signalGroup(_ signal: Int32) {
        guard (try? hasExited(wait: false)) == false else { return }
        Sys.signalGroup(pid, signal)
    }

    package func hasExited(wait: Bool) throws(SystemError) -> Bool {
        var ready = [pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)]
        return try retrying("poll(pidfd)", .poll) { poll(&ready, 1, wait ? -1 : 0) } == 1
    }

    package func reap() throws(SystemError) -> ProcessExit {
        _ = try hasExited(wait: true)
        try holder.ping()
        guard let exit = try Sys.reapedExit(pidfd.rawValue) else { throw SystemError("read a held worker's exit", errno: EPROTO) }
        return exit
    }
}
