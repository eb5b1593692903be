import Foundation
import Glibc
import Synchronization
import Testing
@testable import SupervisorTesting

@testable import System

extension Processes {
    /// Policies replayed side by side start workers on several threads while each one's reaps sweep for orphans:
    /// a sweep never takes a child still being started (not yet recorded) for an orphan and kills it.
    @Suite struct OrphanSweep {
        @Test(.runningLimit(.seconds(60))) func aSweepOnAnotherThreadNeverKillsAChildBeingStarted() throws {
            try Orphans.adopt()
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            defer { close(null) }
            let program = SpawnProgram("/bin/true", arguments: [], environment: [])
            let stop = Atomic(false)
            let sweeper = Thread { while !stop.load(ordering: .relaxed) { Orphans.sweep() } }
            sweeper.start()
            defer { stop.store(true, ordering: .relaxed) }
            var killed = 0
            for _ in 0..<400 {
                let child = try Sys.spawn(program, [.copy(null, as: 0), .copy(null, as: 1)], ownGroup: true)
                if case .signal = try child.reap() { killed += 1 }
            }
            #expect(killed == 0, "\(killed) of 400 children were killed as orphans while being started")
        }
    }
}
