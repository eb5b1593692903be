import Foundation
import Testing
import Vocabulary

@testable import Events
@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// `--truth` holds a run's event log to its schema: a renamed key is one clear error, never a default that would
    /// make the ground truth say, for example, that a worker never rendered.
    @Suite struct TruthSchema {
        static func log(_ events: [SupervisorEvent], renaming: (from: String, to: String)? = nil) -> String {
            events.enumerated().map { index, kind in
                var line = Event(kind, monotonic: 1_000_000 * (index + 1), wall: 1_795_000_000_000_000_000, view: 1, pid: 4107)
                    .json.text
                if let renaming { line = line.replacingOccurrences(of: "\"\(renaming.from)\":", with: "\"\(renaming.to)\":") }
                return line + "\n"
            }.joined()
        }

        static let run: [SupervisorEvent] = [
            .runBegin(.init(policy: "none", delegate: true, loads: 1, views: 1, hidden: 0, seed: 1, raceRate: 0, killRate: 0, tabs: nil)),
            .spawn(load: 0, reused: false),
            .death(.init(
                status: .killed, terminationReason: .evictedForMemory, exit: .signal(9), reason: nil, rendered: false, attached: false, spare: false,
                band: .background, lifetimeMs: 3, cause: .outside, shutdown: false)),
        ]

        @Test(.runningLimit(.seconds(60))) func aRenamedKeyInTheTruthIsOneError() throws {
            let folder = try TemporaryFolder([
                "good.jsonl": Self.log(Self.run), "bad.jsonl": Self.log(Self.run, renaming: ("rendered", "painted")),
            ])
            let good = try runSupervisor(["analyze", folder.path + "/good.jsonl", "--truth", folder.path + "/good.jsonl"])
            #expect(good.status == 0, "\(good.stderr)")
            let bad = try runSupervisor(["analyze", folder.path + "/good.jsonl", "--truth", folder.path + "/bad.jsonl"])
            #expect(bad.status == 1)
            #expect(unwrapped(bad.stderr).contains(
                "'--truth': the event log does not fit its schema: \(folder.path)/bad.jsonl:3: the 'death' event has no 'rendered'"))
        }
    }
}
