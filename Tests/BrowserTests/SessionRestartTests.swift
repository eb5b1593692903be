import Foundation
import Glibc
import Testing

@testable import Events
@testable import Browser
@testable import SupervisorTesting

extension Processes {
    @Suite struct SessionRestart {
        /// SIGKILL the supervisor in the middle of a session and start it again on the same file: every tab's
        /// history and index come back as last saved, the visible tab renders, and the journaled input is there.
        @Test func aSupervisorKilledMidSessionRestoresEverything() throws {
            let folder = try TemporaryFolder([:])
            let session = folder.path + "/tabs.session"
            let journal = folder.path + "/editor.journal"
            let firstLog = folder.path + "/first.jsonl"
            let first = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--session", session, "--tabs", "6", "--loads", "1000000", "--dwell", "3",
                 "--typing", "200", "--journal", journal, "--log", firstLog],
                folder: folder)
            let saves = { logEvents(firstLog).filter { $0["event"] as? String == "session-saved" } }
            // Several saves, after navigations and a tab switch or two, with typed input journaled.
            #expect(eventually(within: 20) {
                let events = logEvents(firstLog)
                return saves().count >= 20 && events.contains { $0["event"] as? String == "tab-realized" && $0["reason"] as? String == "shown" && $0["tab"] as? Int != 1 }
                    && saves().last?["journalRecords"] as? Int ?? 0 > 20
            })
            let orphans = first.liveChildren().map(\.pid)
            kill(first.pid, SIGKILL)
            _ = first.wait()
            #expect(reapOrphans(orphans))
            let last = try #require(saves().last)
            let onDisk = try SessionFile.read(session)
            #expect(onDisk.damage == nil)
            #expect(onDisk.session.tabs.count == 6)
            // The digest covers every tab's entries, index and visibility, in the file as the supervisor left it.
            let file = try SessionFile.readRecords(session).records
            let leftDigest = SessionDigest(file.records.map(\.bytes)).value
            // What the log last reported saved is in the file: its first bytes, as far as the logged saves wrote,
            // hold the tabs of the last logged digest. (The log may not have every save the file has: the last one's
            // event can be lost with the supervisor.)
            let logged = saves().reduce(0) { size, save in
                let bytes = save["bytes"] as? Int ?? 0
                return save["whole"] as? Bool == true ? bytes : size + bytes
            }
            #expect(file.size >= logged)
            let prefix = folder.path + "/logged.session"
            let bytes = try #require(FileManager.default.contents(atPath: session))
            try bytes.prefix(logged).write(to: URL(fileURLWithPath: prefix))
            let asLogged = try SessionFile.readRecords(prefix)
            #expect(asLogged.damage == nil && asLogged.records.size == logged)
            #expect(SessionDigest(asLogged.records.records.map(\.bytes)).value == last["digest"] as? String)

            let secondLog = folder.path + "/second.jsonl"
            let second = try runSupervisorBounded(
                ["run", "--policy", "guarded", "--session", session, "--loads", "2", "--typing", "200", "--journal", journal,
                 "--log", secondLog])
            #expect(second.status == 0, "\(second.stderr)")
            let events = logEvents(secondLog)
            let restored = try #require(events.first { $0["event"] as? String == "session-restored" })
            // The restore reads the file as it was left.
            #expect(restored["digest"] as? String == leftDigest)
            #expect(restored["tabs"] as? Int == 6)
            let visible = try #require(onDisk.session.tabs.first { $0.visible })
            let realized = events.first { $0["event"] as? String == "tab-realized" }
            #expect(realized?["tab"] as? Int == Int(visible.id))
            #expect(realized?["index"] as? Int == visible.history.index)
            let firstFetch = events.first { $0["event"] as? String == "fetch" && ($0["url"] as? String)?.hasPrefix(ContentProvider.origin) == true && $0["url"] as? String != ContentProvider.editorURL }
            #expect(firstFetch?["url"] as? String == visible.history.current?.url)
            #expect(events.contains { $0["event"] as? String == "render" })
            let editor = try #require(events.first { $0["event"] as? String == "editor-open" })
            #expect(editor["restored"] as? Int ?? 0 >= last["journalRecords"] as? Int ?? .max)
            let audit = try #require(events.first { $0["event"] as? String == "editor" })
            #expect(audit["lostInputs"] as? Int == 0)
            #expect(audit["intact"] as? Bool == true)
        }
    }
}
