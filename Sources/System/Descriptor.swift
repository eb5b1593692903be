import Vocabulary

/// A descriptor this process owns. It cannot be copied, so it has one owner, and it is closed exactly once: by
/// `close()`, which uses it up, or when its owner lets it go. "Closed" is therefore not a value it can hold: a
/// closed descriptor no longer exists to be used.
package struct FileDescriptor: ~Copyable {
    /// The number the kernel knows it by, for a call to use while this value is alive.
    package let rawValue: Int32

    /// Takes ownership of `rawValue`, which nothing else may close.
    package init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { Sys.close(rawValue) }

    package consuming func close() {
        Sys.close(rawValue)
        discard self
    }
}

/// The two ends of a pipe, each owned.
@frozen package struct Pipe: ~Copyable {
    package let read: FileDescriptor
    package let write: FileDescriptor
}

/// A child process this one started and has not reaped yet, with the pidfd that names it: a signal sent through
/// the pidfd reaches this child or nothing, never a process that inherited a recycled pid. Its owner drops the
/// value once `reap` succeeds, so "reaped" is the absence of a `ChildProcess`, and its pidfd is closed only after
/// the reap.
package struct ChildProcess: ~Copyable {
    package let pid: Int32
    private let pidfd: FileDescriptor

    package init(pid: Int32, pidfd: consuming FileDescriptor) {
        self.pid = pid
        self.pidfd = pidfd
    }

    /// Readable once the child has exited: what an event loop watches.
    package var descriptor: Int32 { pidfd.rawValue }

    package func signal(_ signal: Int32) throws(SystemError) {
        try Sys.pidfdSignal(pidfd.rawValue, signal)
    }

    /// Whether it has exited (with `wait`, once it has), still unreaped: its pid, and the group it leads, stay
    /// its own until `reap`.
    package func hasExited(wait: Bool = false) throws(SystemError) -> Bool {
        try Sys.hasExited(pidfd.rawValue, wait: wait)
    }

    /// Reaps it, waiting for its exit if it has not exited yet. The owner then drops the value, closing its pidfd;
    /// a reap that fails leaves it whole, to try again, rather than losing a child that was never reaped.
    package func reap() throws(SystemError) -> ProcessExit {
        guard let result = try Sys.reap(pidfd.rawValue, wait: true) else {
            preconditionFailure("waitid(P_PIDFD) returned without a child after waiting for it")
        }
        Orphans.reaped(pid)
        return result
    }
}
