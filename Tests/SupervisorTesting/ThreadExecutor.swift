import Foundation

/// Threads of their own for the process tests. The tests that need no gate take every thread of the shared pool from
/// the start, so a process test waited behind hundreds of them before it even reached the gate, and the long
/// serialized tier began half a minute late. On these threads the process tiers start at once, beside the others.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    static let alone = ThreadExecutor(threads: 2, name: "alone")
    static let besideOthers = ThreadExecutor(threads: 4, name: "beside others")

    /// How many threads run its jobs.
    let threads: Int
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int, name: String) {
        self.threads = threads
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.run() }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
