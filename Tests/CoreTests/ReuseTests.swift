import Glibc
import Testing

@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// `guarded` keeps closed views' healthy workers as spares for the next views.
    @Suite struct Reuse {
        @Test func closedViewsWorkersServeTheNextViewsAndAKilledSpareIsReplaced() throws {
            let before = try openSupervisorDescriptors()
            var launched: [Int32] = []
            var parked = 0
            var killedSpare: Int32?
            do {
                // Each view stays 20 ms: the spare launched once the first view has rendered is launched before that
                // view closes. A view closing at once parks its worker first on a loaded machine, and with that one
                // waiting no spare is launched at all (which is right, and leaves nothing to kill).
                let (summary, events) = try simulate({ $0.loads = 40; $0.dwellNanoseconds = 20_000_000; $0.policy = .guarded },
                                                     content: ContentProvider()) {
                    event in
                    guard event.name == "spare", let pid = event.pid else { return }
                    guard event["reused"] == .bool(true) else { return launched.append(pid) }
                    parked += 1
                    // The freshly launched spare waits under the parked ones, which the next views take first. A new
                    // one is launched only when no spare is left, so with a slower worker it may come after the
                    // tenth park: the kill waits for it.
                    if parked >= 10, killedSpare == nil, let idle = launched.first {
                        killedSpare = idle
                        killFromOutside(idle)
                    }
                }
                #expect(summary.rendered == 40)
                #expect(events.named("spawn").count == 40)
                #expect(summary.reuses >= 30, "only \(summary.reuses) of 40 views got a reused worker")
                let order = events.filter { ["spare", "death", "render", "view-open", "view-close"].contains($0.name) }
                    .map { "\($0.name) \($0.pid.map(String.init) ?? "-")\($0["reused"] == .bool(true) ? " reused" : "")" }
                let death = try #require(events.named("death").first { $0.pid == killedSpare }, "\(order)")
                #expect(death.int("signal") == 9 && death["spare"] == .bool(true))
                #expect(!events.named("spawn").contains { $0.pid == killedSpare })
                // It is replaced, after the next render rather than at once.
                #expect(launched.count == 2, "\(launched) killed \(String(describing: killedSpare)): \(order)")
            }
            #expect(try leakedDescriptors(since: before).isEmpty)
            #expect(childProcesses().isEmpty)
        }
    }
}
