import CShim
import Glibc
import Synchronization

/// Runs jobs side by side, each on a thread of its own, at most `width` at once, started in order; the calling
/// thread sleeps on a signalfd and on the jobs' ends meanwhile, never polling.
///
/// SIGINT or SIGTERM (which the caller has blocked, as the threads then are too) is relayed to every job running,
/// its number written to an eventfd the job was given (a signalfd gives one signal to one reader only), and no job
/// starts after one. A job ends the way a run does: every worker reaped before it returns, so no worker's
/// PR_SET_PDEATHSIG outlives the thread that spawned it.
package enum SideBySide {
    /// What the threads and the waiting thread share: each job's result, and an eventfd counting the jobs ended.
    private final class Shared<Result: Sendable>: @unchecked Sendable {
        let ended: FileDescriptor
        let results: Mutex<[Int: Result]> = Mutex([:])

        init() throws(SystemError) {
            ended = FileDescriptor(try retrying("eventfd", .other) { sv_eventfd(1) })
        }
    }

    /// A started job: its thread, and the eventfd signals are relayed to it through.
    private final class Lane {
        let thread: pthread_t
        let relay: FileDescriptor

        init(thread: pthread_t, relay: consuming FileDescriptor) {
            self.thread = thread
            self.relay = relay
        }
    }

    /// Each job's result, in order; nil for a job never started because a signal came first. `job(i, relay)` must
    /// stop when its relay eventfd becomes readable, reading the signal's number from it.
    package static func run<Result: Sendable>(
        _ count: Int, width: Int, _ job: @escaping @Sendable (Int, consuming FileDescriptor) -> Result
    ) throws(SystemError) -> [Result?] {
        let shared = try Shared<Result>()
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        let signalFD = FileDescriptor(try retrying("signalfd") { signalfd(-1, &signals, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) })
        var lanes: [Int: Lane] = [:]
        var next = 0
        var interrupted = false
        while true {
            while !interrupted, next < count, lanes.count < width {
                lanes[next] = try start(next, shared, job)
                next += 1
            }
            if lanes.isEmpty { break }
            var ready = [pollfd(fd: signalFD.rawValue, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: shared.ended.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = try retrying("poll", .poll) { poll(&ready, 2, -1) }
            if ready[0].revents != 0 {
                var info = signalfd_siginfo()
                _ = withUnsafeMutableBytes(of: &info) { try? Sys.read(signalFD.rawValue, into: $0) }
                interrupted = true
                var signal = UInt64(info.ssi_signo)
                for lane in lanes.values { _ = Glibc.write(lane.relay.rawValue, &signal, 8) }
            }
            if ready[1].revents != 0 {
                var ends: UInt64 = 0
                _ = Glibc.read(shared.ended.rawValue, &ends, 8)
                let done = shared.results.withLock { Set($0.keys) }
                for (i, lane) in lanes where done.contains(i) {
                    pthread_join(lane.thread, nil)
                    lanes[i] = nil
                }
            }
        }
        return shared.results.withLock { results in (0..<count).map { results.removeValue(forKey: $0) } }
    }

    private static func start<Result: Sendable>(
        _ i: Int, _ shared: Shared<Result>, _ job: @escaping @Sendable (Int, consuming FileDescriptor) -> Result
    ) throws(SystemError) -> Lane {
        let relay = FileDescriptor(try retrying("eventfd", .other) { sv_eventfd(1) })
        let given = try Sys.duplicate(relay.rawValue, above: 2)
        let body = Body { [given = Transfer(given)] in
            let result = job(i, given.take())
            shared.results.withLock { $0[i] = result }
            var one: UInt64 = 1
            _ = Glibc.write(shared.ended.rawValue, &one, 8)
        }
        let context = Unmanaged.passRetained(body).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError("pthread_create", errno: created)
        }
        return Lane(thread: thread, relay: relay)
    }

    /// A thread's work, handed to it whole.
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// A descriptor handed to the thread that takes it, once.
    private final class Transfer: @unchecked Sendable {
        private var fd: FileDescriptor?
        init(_ fd: consuming FileDescriptor) { self.fd = consume fd }
        func take() -> FileDescriptor { fd.take()! }
    }
}
