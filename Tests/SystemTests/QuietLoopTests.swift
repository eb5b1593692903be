import Glibc
import Testing

@testable import System

/// The event loop's simulated waits: while its owner says nothing but a timer can happen, the loop moves its clock
/// on to the timer instead of sleeping; anything ready is handled first, and a loop that is not quiet sleeps.
@Suite struct QuietLoop {
    static let tenSeconds = 10_000_000_000

    /// A ten-second wait passes at once, and the clock says ten seconds went by.
    @Test func aQuietWaitPassesInSimulatedTime() throws {
        let loop = try EventLoop()
        let began = Sys.monotonicNanoseconds()
        let deadline = loop.now + Self.tenSeconds
        var firedAt: Int?
        loop.schedule(at: deadline) { firedAt = loop.now }
        try loop.run(until: { firedAt != nil }, quiet: { true })
        #expect(try #require(firedAt) >= deadline)
        #expect(loop.simulatedNanoseconds >= Self.tenSeconds - 100_000_000)
        // Not a timing: a loop that slept would have taken the ten seconds.
        #expect(Sys.monotonicNanoseconds() - began < Self.tenSeconds / 2)
    }

    /// A descriptor already readable is handled before the wait is passed, at the time it came, not after.
    @Test func whatIsReadyIsHandledBeforeTheWaitPasses() throws {
        let loop = try EventLoop()
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let readEnd = FileDescriptor(ends[0])
        let writeEnd = FileDescriptor(ends[1])
        let fd = readEnd.rawValue
        var byte: UInt8 = 1
        #expect(write(writeEnd.rawValue, &byte, 1) == 1)
        let deadline = loop.now + Self.tenSeconds
        var order: [String] = []
        let token = try loop.watch(fd) { _ in
            var got: UInt8 = 0
            _ = read(fd, &got, 1)
            order.append(loop.now < deadline ? "ready, before the timer's time" : "ready, late")
        }
        loop.schedule(at: deadline) { order.append("timer") }
        try loop.run(until: { order.contains("timer") }, quiet: { true })
        loop.unwatch(fd, token: token)
        #expect(order == ["ready, before the timer's time", "timer"])
    }

    /// When its owner is not quiet, the loop waits in real time and simulates nothing.
    @Test func aLoopThatIsNotQuietWaits() throws {
        let loop = try EventLoop()
        let began = Sys.monotonicNanoseconds()
        var fired = false
        loop.schedule(afterNanoseconds: 30_000_000) { fired = true }
        try loop.run(until: { fired }, quiet: { false })
        #expect(loop.simulatedNanoseconds == 0)
        #expect(Sys.monotonicNanoseconds() - began >= 30_000_000)
    }
}
