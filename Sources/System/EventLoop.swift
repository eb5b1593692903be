import CShim
import Glibc

/// One thread's epoll loop: descriptors, timers and signals, and nothing else wakes it.
///
/// There is no polling: with no descriptor ready and no timer due, `epoll_wait` sleeps indefinitely. Timers share
/// one timerfd armed at the earliest deadline, so sub-millisecond deadlines are honoured without busy waiting.
package final class EventLoop: RunClock {
    package typealias Handler = (_ events: UInt32) -> Void

    private let epoll: FileDescriptor
    private let timerFD: FileDescriptor
    private var handlers: [UInt64: Handler] = [:]
    private var nextToken: UInt64 = 1
    private var timers: [Int: (deadline: Int, action: () -> Void)] = [:]
    private var deadlines = MinHeap()
    private var nextTimer = 0
    private var armedDeadline = Int.max
    private var soon: [() -> Void] = []
    private static let timerToken: UInt64 = 0

    package init() throws(SystemError) {
        epoll = FileDescriptor(try retrying("epoll_create1", .poll) { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        timerFD = FileDescriptor(try retrying("timerfd_create", .other) {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        })
        _ = try retrying("epoll_ctl(ADD timerfd)", .poll) {
            sv_epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, timerFD.rawValue, EPOLLIN.rawValue, Self.timerToken)
        }
    }

    // MARK: - Descriptors

    /// Watches `fd`; the returned token unregisters it. The loop never owns or closes the descriptor.
    package func watch(_ fd: Int32, events: UInt32 = EPOLLIN.rawValue, handler: @escaping Handler) throws(SystemError) -> UInt64 {
        let token = nextToken
        nextToken += 1
        _ = try retrying("epoll_ctl(ADD)", .poll, fd: fd) { sv_epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, events, token) }
        handlers[token] = handler
        return token
    }

    /// Stops watching. With `fd` nil the descriptor is already closed, which removed it from the epoll set.
    package func unwatch(_ fd: Int32?, token: UInt64) {
        handlers[token] = nil
        if let fd { _ = sv_epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, 0, 0) }
    }

    /// Runs `work` on this loop before it next waits: a way to unwind the stack between steps of a chain that
    /// could otherwise recurse once per load.
    package func soon(_ work: @escaping () -> Void) {
        soon.append(work)
    }

    // MARK: - Timers

    /// CLOCK_MONOTONIC, moved on by every quiet stretch the loop passed in simulated time (`run`'s `quiet`).
    package var now: Int { Sys.monotonicNanoseconds() + simulatedNanoseconds }

    /// The time passed in simulated time rather than waited for.
    package private(set) var simulatedNanoseconds = 0

    @discardableResult
    package func schedule(at deadline: Int, _ action: @escaping () -> Void) -> TimerID {
        nextTimer += 1
        timers[nextTimer] = (deadline, action)
        deadlines.push(deadline, nextTimer)
        if deadline < armedDeadline { arm(deadline) }
        return TimerID(nextTimer)
    }

    package func cancel(_ timer: TimerID?) {
        guard let timer, timers.removeValue(forKey: timer.value) != nil else { return }
        if deadlines.peek?.id == timer.value { rearm() }
    }

    /// Drops cancelled timers from the top of the heap and arms the timerfd for the next live one, so a cancelled
    /// timer never causes a wake-up.
    private func rearm() {
        while let (_, id) = deadlines.peek, timers[id] == nil { deadlines.pop() }
        arm(deadlines.peek?.deadline ?? Int.max)
    }

    private func arm(_ deadline: Int) {
        armedDeadline = deadline
        var spec = itimerspec()
        if deadline != Int.max {
            // A zero it_value disarms the timer, so a deadline already past is nudged to 1 ns.
            let at = max(deadline - simulatedNanoseconds, 1)
            spec.it_value = timespec(tv_sec: at / 1_000_000_000, tv_nsec: at % 1_000_000_000)
        }
        timerfd_settime(timerFD.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func fireDueTimers() {
        // Only to clear the timerfd: which timers are due is read from the clock, so a read that fails changes
        // nothing but an extra wake-up.
        var expirations: UInt64 = 0
        _ = try? syscall(.read, "read(timerfd)", fd: timerFD.rawValue) { Glibc.read(timerFD.rawValue, &expirations, 8) }
        let now = self.now
        while let (deadline, id) = deadlines.peek, deadline <= now {
            deadlines.pop()
            if let timer = timers.removeValue(forKey: id) { timer.action() }
        }
        rearm()
    }

    // MARK: - Running

    /// How many times `epoll_wait` has returned: the loop's wake-ups, which only a descriptor or a due timer cause.
    package private(set) var wakeUps = 0

    /// Dispatches events until `done()` holds. `afterBatch` runs once per wake-up, after its handlers.
    ///
    /// With `quiet`, a wait for a timer while `quiet()` holds and no descriptor is ready is passed in simulated
    /// time: the loop moves its clock on to the timer's deadline and fires it. `quiet()` must hold only when
    /// nothing outside the loop's timers can happen that its owner would act on (no process has anything to do),
    /// so that the stretch passed is one in which nothing happens but time.
    package func run(until done: () -> Bool, afterBatch: () -> Void = {}, quiet: (() -> Bool)? = nil) throws(SystemError) {
        var data = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            while !soon.isEmpty {
                let batch = soon
                soon = []
                for work in batch { work() }
            }
            afterBatch()
            if done() { return }
            // A quiet loop only looks whether anything is ready before it moves on to its next timer.
            let skipping = quiet != nil && armedDeadline != Int.max && armedDeadline > now && quiet!()
            let count = try retrying("epoll_wait", .poll) {
                sv_epoll_wait(epoll.rawValue, &data, &events, 64, skipping ? 0 : -1)
            }
            if count == 0, skipping {
                simulatedNanoseconds += max(0, armedDeadline - now)
                fireDueTimers()
                continue
            }
            wakeUps += 1
            for i in 0..<Int(count) {
                if data[i] == Self.timerToken {
                    fireDueTimers()
                } else if let handler = handlers[data[i]] {
                    handler(events[i])
                }
            }
        }
    }
}

/// A binary min-heap of (deadline, timer id).
private struct MinHeap {
    private var items: [(deadline: Int, id: Int)] = []

    package var peek: (deadline: Int, id: Int)? { items.first }

    package mutating func push(_ deadline: Int, _ id: Int) {
        items.append((deadline, id))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].deadline < items[parent].deadline else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    package mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left].deadline < items[smallest].deadline { smallest = left }
            if right < items.count && items[right].deadline < items[smallest].deadline { smallest = right }
            if smallest == parent { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
