/// Where the supervisor reads the time and sets its timers: the event loop in a run, a virtual clock in tests, so
/// that whatever depends on time can be tested without waiting for it.
package protocol Clock: AnyObject {
    /// CLOCK_MONOTONIC nanoseconds, or the virtual equivalent.
    var now: Int { get }
    @discardableResult
    func schedule(at deadline: Int, _ action: @escaping () -> Void) -> TimerID
    func cancel(_ timer: TimerID?)
    /// Runs `work` before the clock next waits: a way to unwind the stack between steps of a chain.
    func soon(_ work: @escaping () -> Void)
}

/// A clock that runs a whole run: the event loop, which waits on the kernel, or a virtual clock, which jumps from
/// timer to timer.
package protocol RunClock: Clock {
    /// Does the work asked for `soon`, then fires timers and handles events, until `done()` holds; `afterBatch` runs
    /// after each batch of work. With `quiet`, a wait while it holds passes in simulated time.
    func run(until done: () -> Bool, afterBatch: () -> Void, quiet: (() -> Bool)?) throws(SystemError)
    /// The time `run` passed in simulated time rather than waited for.
    var simulatedNanoseconds: Int { get }
}

/// A timer set on a `Clock`, to cancel it by.
package struct TimerID: Hashable, Sendable {
    package let value: Int

    package init(_ value: Int) { self.value = value }
}

extension Clock {
    @discardableResult
    package func schedule(afterNanoseconds delay: Int, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: now + delay, action)
    }
}
