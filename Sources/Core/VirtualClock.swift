/// Time that moves only when told to: timers fire in deadline order as `advance` passes them, each seeing `now` at
/// its own deadline. Policies, limits and watchdogs are tested on it in microseconds of real time.
package final class VirtualClock {
    package private(set) var now: Int
    private var timers: [(deadline: Int, id: Int, action: () -> Void)] = []
    private var nextID = 0

    package init(now: Int = 0) { self.now = now }

    @discardableResult
    package func schedule(after delay: Int, _ action: @escaping () -> Void) -> Int {
        nextID += 1
        timers.append((now + delay, nextID, action))
        return nextID
    }

    package func cancel(_ id: Int) { timers.removeAll { $0.id == id } }

    /// Moves to `now + nanoseconds`, firing every timer due on the way, timers they schedule included.
    package func advance(by nanoseconds: Int) {
        let end = now + nanoseconds
        while let next = timers.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) {
            cancel(next.id)
            now = next.deadline
            next.action()
        }
        now = end
    }
}
