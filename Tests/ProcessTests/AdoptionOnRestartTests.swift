import Foundation
import Glibc
import Testing

@testable import Events
@testable import SupervisorTesting

extension Processes {
    /// `run --keep-workers --session` (issue 34): a supervisor started again on the session takes back the workers
    /// its holder kept, and each tab whose saved state a worker matches adopts it, with nothing loaded again.
    @Suite struct AdoptionOnRestart {
        @Test func aRestartedSupervisorAdoptsTheWorkersItsHolderKept() throws {
            let folder = try TemporaryFolder([:])
            let session = folder.path + "/tabs.session"
            let keep = ["--keep-workers", "--lease", "5000"]
            // A user browsing six tabs, switching between them, until four tabs' workers have rendered. Each page is
            // looked at for longer than a session save can wait (50 ms): only the navigation the kill cuts can be
            // missing from the session.
            let (first, rendered) = try startSupervisor(
                ["run", "--session", session, "--tabs", "6", "--loads", "100000", "--dwell", "60", "--seed", "3"] + keep,
                untilRendered: 4)
            defer { KeepWorkers.stop(first, rendered) }
            let holder = try #require(
                processes().first { $0.parent == first.processIdentifier && $0.name == "Holder" }?.pid)
            kill(first.processIdentifier, SIGKILL)
            first.waitUntilExit()
            let held = Set(processes().filter { $0.parent == holder && $0.state != "Z" }.map(\.pid))
            #expect(held.count >= 4, "workers the holder kept: \(held.count)")

            let log = folder.path + "/restart.jsonl"
            let second = try runSupervisorBounded(
                ["run", "--session", session, "--loads", "0", "--log", log, "--json"] + keep)
            #expect(second.status == 0, "\(second.stderr)")
            let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line in
                try Event(line: Array(line.utf8))
            }
            let asked = Set(events.named("reclaim").compactMap(\.pid))
            let adopted = events.named("adopt")
            let refused = events.named("adoption-refused")
            #expect(asked == held, "taken back: \(asked.sorted()), held: \(held.sorted())")
            // Every worker is accounted for: adopted, refused, or killed for not answering (one the kill caught
            // before it could take the request, on a busy machine); at most one is not adopted.
            let silent = events.named("kill").filter { $0.string("reason")?.hasPrefix("no answer to resync") == true }
            let answered = Set((adopted + refused + silent).compactMap(\.pid))
            #expect(answered == held, "unaccounted for: \(held.subtracting(answered).sorted())")
            #expect(adopted.count >= held.count - 1, "refused: \(refused.map { $0.string("reason") ?? "" })")
            let began = try #require(events.named("reclaim").first?.monotonic)
            let visible = events.named("visible").first.map { Double($0.monotonic - began) / 1e6 }
            print("adoption on restart: \(adopted.count) of \(held.count) workers adopted; the shown tab visible "
                + (visible.map { String(format: "%.2f ms", $0) } ?? "never") + " after the first was taken back")
            // The shown tab's worker, labelled so in the holder, is taken back before the others.
            let shownView = events.first { $0.name == "view-open" && $0["visible"] == .bool(true) }?.view
            if let shown = adopted.first(where: { $0.view == shownView }) {
                #expect(events.named("reclaim").first?.pid == shown.pid)
            }
            let adoptedViews = Set(adopted.compactMap(\.view))
            // Adopted, nothing is loaded again: no load, commit or render in their views, and none launched for them.
            let loaded = events.filter { ["load", "commit", "render", "spawn"].contains($0.name) }
            #expect(loaded.allSatisfy { $0.view.map { !adoptedViews.contains($0) } ?? true })
            let json = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8))
            let summary = try #require(json as? [String: Any])
            let takenBack = try #require(summary["takenBack"] as? [String: Int])
            #expect(takenBack == ["asked": held.count, "adopted": adopted.count, "refused": refused.count])
            #expect(reapOrphans(Array(held)), "every worker taken back is dead once the second run is over")
        }
    }
}
