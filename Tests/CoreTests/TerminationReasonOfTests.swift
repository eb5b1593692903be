import Glibc
import Testing
import Vocabulary

@testable import Core
@testable import Process

/// Why a death happened, from how and by whom: the rules `TerminationReason.of` applies, case by case.
@Suite struct TerminationReasonOf {
    @Test func eachDeathGetsWebKitsReason() {
        let kill = TerminationStatus.killed(signal: SIGKILL)
        func of(_ status: TerminationStatus, _ cause: DeathCause, band: PriorityBand? = .background,
                told: Bool = false, meant: TerminationReason? = nil) -> TerminationReason {
            TerminationReason.of(status, cause: cause, band: band, toldToExit: told, meant: meant)
        }
        #expect(of(kill, .injected) == .evictedForMemory && of(kill, .outside, band: .hidden) == .evictedForMemory)
        #expect(of(kill, .outside, band: .foreground) == .oomProtected && of(kill, .injected, band: .boosted) == .oomProtected)
        #expect(of(.unresponsive, .supervisor) == .unresponsive)
        #expect(of(.unresponsive, .supervisor, meant: .requestedByClient) == .requestedByClient)
        #expect(of(kill, .supervisor, meant: .exceededMemoryLimit) == .exceededMemoryLimit)
        #expect(of(.normal, .supervisor, told: true) == .idleExit)
        #expect(of(.protocolViolation(reason: "r"), .supervisor) == .crash)
        #expect(of(.crashed(signal: SIGSEGV), .worker) == .crash && of(kill, .unknown) == .crash)
        #expect(of(.normal, .worker) == .crash)
    }

    /// The app is told one of WebKit's five.
    @Test func theAppIsToldTheFoldedReason() {
        #expect(TerminationReason.idleExit.told == .requestedByClient && TerminationReason.evictedForMemory.told == .crash)
        #expect(TerminationReason.exceededMemoryLimit.told == .exceededMemoryLimit)
        #expect(TerminationReason.unresponsive.told == .crash)
    }
}
