import Glibc
import System

/// Time that moves only when told to: timers fire in deadline order as `advance` passes them, each seeing `now` at
/// its own deadline. Policies, limits and watchdogs are tested on it in microseconds of real time.
package final class VirtualClock: RunClock {
    package private(set) var now: Int
    private var timers: [(deadline: Int, id: Int, action: () -> Void)] = []
    private var soon: [() -> Void] = []
    private var nextID = 0

    private let start: Int

    package init(now: Int = 0) { (self.now, start) = (now, now) }

    /// All of it: no time here is waited for.
    package var simulatedNanoseconds: Int { now - start }

    @discardableResult
    package func schedule(at deadline: Int, _ action: @escaping () -> Void) -> TimerID {
        nextID += 1
        timers.append((deadline, nextID, action))
        return TimerID(nextID)
    }

    package func cancel(_ timer: TimerID?) {
        guard let timer else { return }
        timers.removeAll { $0.id == timer.value }
    }

    package func soon(_ work: @escaping () -> Void) { soon.append(work) }

    /// Timers set and not yet fired or cancelled.
    package var pending: Int { timers.count }

    /// Runs as the event loop does, with no wait: work asked for `soon`, then the next timer, until `done()` holds.
    /// A run with nothing left to do and not done would wait for ever on a real loop; here it is an error.
    package func run(until done: () -> Bool, afterBatch: () -> Void, quiet: (() -> Bool)?) throws(SystemError) {
        while true {
            while !soon.isEmpty { soon.removeFirst()() }
            afterBatch()
            if done() { return }
            guard let next = timers.min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) else {
                throw SystemError("virtual run: nothing left to happen", errno: EDEADLK)
            }
            cancel(TimerID(next.id))
            now = max(now, next.deadline)
            next.action()
        }
    }

    /// Moves to `now + nanoseconds`, firing every timer due on the way (and work asked for `soon` before each),
    /// timers they schedule included.
    package func advance(by nanoseconds: Int) {
        let end = now + nanoseconds
        while true {
            while !soon.isEmpty { soon.removeFirst()() }
            guard let next = timers.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
            else { break }
            cancel(TimerID(next.id))
            now = max(now, next.deadline)
            next.action()
        }
        now = end
    }
}
