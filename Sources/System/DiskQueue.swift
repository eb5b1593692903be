import CShim
import Glibc
import Synchronization

/// A thread of its own for the calls that wait on a disk (a large write, fdatasync, a rename), so that the event
/// loop never does: jobs run one after another, in the order given, and each one's completion runs back on the
/// loop, woken through an eventfd like any other event.
///
/// The thread starts with every signal blocked, so SIGINT and SIGTERM still reach the loop's signalfd, and it
/// spawns nothing, so no worker's PR_SET_PDEATHSIG is tied to it.
package final class DiskQueue {
    private let shared: Shared
    private let loop: EventLoop
    private var thread = pthread_t()
    private var token: UInt64 = 0
    /// Completions still to run, in the order their jobs were given.
    private var completions: [() -> Void] = []

    /// What the loop and the thread both touch: the jobs waiting, and the two eventfds between them.
    private final class Shared: @unchecked Sendable {
        /// Readable when jobs are waiting, or when the thread must stop.
        package let submitted: FileDescriptor
        /// Readable when jobs have finished: its count is how many.
        package let finished: FileDescriptor
        package let jobs = Mutex<(waiting: [@Sendable () -> Void], stopping: Bool)>(([], false))

        package init() throws(SystemError) {
            submitted = FileDescriptor(try retrying("eventfd", .other) { sv_eventfd(0) })
            finished = FileDescriptor(try retrying("eventfd", .other) { sv_eventfd(1) })
        }

        /// Adds one to the count of the eventfd `fd`: it never blocks, as the count cannot come near its limit.
        ///
        /// The eventfds are the queue's own bookkeeping, not I/O that a disk or a peer can fail, so they bypass the
        /// fault seam: an injected fault must not lose a wake-up and leave `drain` waiting forever.
        package func signal(_ fd: borrowing FileDescriptor) {
            var one: UInt64 = 1
            var written: Int
            repeat { written = Glibc.write(fd.rawValue, &one, 8) } while written < 0 && errno == EINTR
            precondition(written == 8, "write(eventfd) failed: errno \(errno)")
        }

        /// Takes the count of the eventfd `fd`, waiting for one unless it is non-blocking; nil when it is zero.
        package func take(_ fd: borrowing FileDescriptor) -> UInt64? {
            var count: UInt64 = 0
            var read: Int
            repeat { read = Glibc.read(fd.rawValue, &count, 8) } while read < 0 && errno == EINTR
            if read < 0 && errno == EAGAIN { return nil }
            precondition(read == 8, "read(eventfd) failed: errno \(errno)")
            return count
        }

        package func serve() {
            while true {
                _ = take(submitted)
                let (batch, stopping) = jobs.withLock { jobs in
                    defer { jobs.waiting = [] }
                    return (jobs.waiting, jobs.stopping)
                }
                for job in batch {
                    job()
                    signal(finished)
                }
                if stopping { return }
            }
        }
    }

    package init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        shared = try Shared()
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let context = Unmanaged.passRetained(shared).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let shared = Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue()
            shared.serve()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Shared>.fromOpaque(context).release()
            throw SystemError("pthread_create", errno: created)
        }
        token = try loop.watch(shared.finished.rawValue) { [unowned self] _ in runCompletions() }
    }

    deinit {
        shared.jobs.withLock { $0.stopping = true }
        shared.signal(shared.submitted)
        pthread_join(thread, nil)
        loop.unwatch(shared.finished.rawValue, token: token)
    }

    /// Runs `job` on the thread after every job given before it; `then` runs on the loop once it is done.
    package func submit(_ job: @escaping @Sendable () -> Void, then completion: @escaping () -> Void) {
        completions.append(completion)
        shared.jobs.withLock { $0.waiting.append(job) }
        shared.signal(shared.submitted)
    }

    /// Whether a job is given and its completion has not run yet.
    package var isBusy: Bool { !completions.isEmpty }

    /// Waits, on the loop's thread, until every job given has run, and runs their completions.
    package func drain() {
        while !completions.isEmpty {
            _ = try? Sys.waitUntilReady(shared.finished.rawValue, for: POLLIN)
            runCompletions()
        }
    }

    private func runCompletions() {
        guard let count = shared.take(shared.finished) else { return }
        for _ in 0..<min(Int(count), completions.count) { completions.removeFirst()() }
    }
}
