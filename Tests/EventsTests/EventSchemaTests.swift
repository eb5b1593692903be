import Foundation
import Testing
import Vocabulary

@testable import Events
@testable import LogAnalysis
@testable import Core
@testable import Scenario
@testable import Browser
@testable import SupervisorTesting

/// The event log's one codec: every event is written and read back whole, and no key is ever read as a default.
@Suite struct EventSchema {
    static let audit = EditorAudit(
        typed: 10, restored: 0, acknowledged: 7, saved: nil, replayed: 2, lostInputs: 3, duplicateInputs: 1,
        mismatches: 0, intact: false, documentFrom: .worker, tornBytesDropped: 0, deferred: 4)

    /// One of every case, with every optional value present.
    static let samples: [SupervisorEvent] = [
        .runBegin(.init(policy: "guarded", delegate: true, loads: 20, views: 2, hidden: 1, seed: 7, raceRate: 0.05, killRate: 0, tabs: 3)),
        .runEnd(interrupted: true, simulatedMs: 41.5), .interrupt(signal: .SIGINT), .abort(reason: "disk full"),
        .loadBegin(load: 1, url: "https://a.test/", hidden: true), .navigationBegin(load: 2, tab: 3, action: .back),
        .loadEnd(.init(load: 1, tab: 4, outcome: .rendered, recoveries: 1, hidden: true, error: "e", blankMs: 2.5, timeToVisibleMs: 3.5)),
        .blank(load: 4), .visible(load: 1, timeToVisibleMs: 1.25, first: false, editor: true), .viewOpen(load: 1, visible: false),
        .viewClose, .attach, .show(load: 1), .hide(load: 1), .spawn(load: 1, reused: true), .spare(reused: true), .spareTaken(ready: false), .noSpare(reason: .takenByPreviousLoad),
        .reclaim(generation: 2), .adopt(url: "app://local/a.html"), .adoptionRefused(reason: "no saved tab has its list"),
        .cacheCheck(site: "app://local"), .notCached(site: nil, reason: .noSite), .cacheAdd(site: "https://example.com", size: 2, capacity: 10),
        .cacheTaken(site: "https://example.com", size: 1, capacity: 10), .cacheMiss(site: "app://site2.test", evicted: nil),
        .cacheMiss(site: "app://site3.test", evicted: .expired), .cacheEvict(site: "app://local", reason: .sameSite), .memoryPressure(critical: true),
        .processCountLimit(live: 4, limit: 4), .processRefused,
        .hello(spawnToHelloMs: 0.4, sandbox: .installed), .priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .noSuchProcess, error: nil, rbs: .targetMissing),
        .priority(band: .boosted, nice: 10, oomScoreAdj: 0, result: .failed, error: "No such device", rbs: nil),
        .load(url: "https://a.test/", attempt: 2), .commit(url: "https://a.test/"), .render(title: "T", workersRSSBytes: 4096),
        .fail(kind: .provisional, error: "x"), .fetch(url: "u", kind: .image, status: 404, bytes: 9),
        .workerHistory(index: 1, urls: ["a", "b\u{1}\"é😀"]), .shutdown, .kill(reason: "hang", verdict: .unresponsive, terminationReason: .unresponsive),
        .death(.init(
            status: .killed, terminationReason: .evictedForMemory, exit: .signal(9), reason: "r", rendered: true, attached: false, spare: true, band: .background,
            lifetimeMs: 12.5, cause: .outside, shutdown: true)),
        .death(.init(
            status: .normal, terminationReason: .idleExit, exit: .code(0), reason: nil, rendered: false, attached: true, spare: false, band: nil,
            lifetimeMs: 1, cause: .worker, shutdown: false)),
        .launchFailed(reason: "ENOENT"), .protocolViolation(reason: "flood"), .sendRefused(message: 3, reason: "too big"),
        .sendFailed(error: "EPIPE"), .unobserved, .termination(status: .crashed, reason: .crash),
        .recovery(kind: .rebuild, reason: .blank, attempt: 1), .recoverySuppressed(kind: .reload), .noItemToReload,
        .unresponsive(timeoutMs: 3000), .responsive(afterMs: 812.5),
        .memoryWarning(residentBytes: 90 << 20, limitBytes: 100 << 20),
        .prepareToSuspend, .suspended(answered: true), .resumed(suspendedMs: 60_000.5),
        .memoryLimit(residentBytes: 101 << 20, limitBytes: 100 << 20, warnedMsBefore: 31.5),
        .memoryLimit(residentBytes: 101 << 20, limitBytes: 100 << 20, warnedMsBefore: nil),
        .cpuLimit(usedPercent: 61.5, limitPercent: 50, windowMs: 480_000),
        .crashLoop(load: 1, crashes: 4, windowMs: 10000), .giveUp(load: 1, recoveries: 5), .watchdog(title: ""),
        .deadChannelSend(message: .titleQuery), .inject(kind: .race, oomScoreAdj: 0), .injectSpared(kind: .replayKill, oomScoreAdj: -1000),
        .tabRealized(tab: 1, reason: .liveState, entries: 3, index: 2),
        .navigationDecision(tab: 1, type: .linkActivated, frame: .main, url: "u", decision: .openExternally, reason: "r"),
        .errorPage(tab: 1, url: "u", code: -1003, kind: .tooManyNavigations), .openExternally(tab: 1, url: "mailto:a"),
        .internalRefused(url: "u", reason: .wrongKey), .sessionCreated(tabs: 10),
        .sessionRestored(tabs: 10, journalRecords: 5, digest: "d", damage: "torn tail"),
        .sessionSaved(.init(tabs: 10, whole: false, bytes: 99, digest: "d", journalRecords: nil, loopMs: 0.1, writeMs: 0.2)),
        .journalOpened(records: 3, tornBytesDropped: 2, salvaged: "crc"), .journalBehind(saved: 5, found: 3),
        .fileRewritten(file: .journal, foundBytes: 0, writtenBytes: 1_234),
        .journalSynced(records: 4, typed: 6, digest: "af63bd4c8601b7df"),
        .editorOpen(restored: 3), .editor(audit),
    ]

    static func line(_ kind: SupervisorEvent, dropping key: String? = nil) -> [UInt8] {
        var record = Event(kind, monotonic: 123_456_789, wall: 1_795_000_000_123_456_000, view: 4, pid: 77).json
        if let key, case .object(let members) = record { record = .object(members.filter { $0.0 != key }) }
        return Array(record.text.utf8)
    }

    @Test func everyEventIsReadBackAsWritten() throws {
        #expect(Set(Self.samples.map(\.name)).count == 76)
        for sample in Self.samples {
            let event = try Event(line: Self.line(sample))
            #expect(event.kind == sample)
            #expect(event.monotonic == 123_456_789 && event.wall == 1_795_000_000_123_456_000)
            #expect(event.view == 4 && event.pid == 77)
        }
    }

    /// Dropping any key of any event is either an error or reads as the event without that key (an optional value
    /// absent): never a default put in its place.
    @Test func noKeyIsReadAsADefault() throws {
        for sample in Self.samples {
            for (key, _) in sample.fields {
                guard let event = try? Event(line: Self.line(sample, dropping: key)) else { continue }
                #expect(!event.kind.fields.contains { $0.0 == key }, "\(sample.name) without \(key)")
            }
        }
    }

    @Test func aRenamedCountIsAnError() {
        let record = String(decoding: Self.line(.editor(Self.audit)), as: UTF8.self)
            .replacingOccurrences(of: "\"lostInputs\"", with: "\"lost\"")
        #expect(throws: EventDecodingError.missingField(event: "editor", field: "lostInputs")) {
            try Event(line: Array(record.utf8))
        }
        #expect(throws: EventDecodingError.unknownEvent("editor-close")) {
            try Event(line: Array(#"{"time":"2026-11-24T05:00:00.000000Z","mono":1,"event":"editor-close"}"#.utf8))
        }
    }

    /// A closed set's member spelled any other way is an error that names the event, the key and the spelling.
    @Test func anUnknownSpellingIsAnErrorNamingItsKey() {
        let cases: [(SupervisorEvent, key: String, spelled: String)] = [
            (Self.samples.first { $0.name == "death" }!, "status", #""killed""#),
            (.priority(band: .hidden, nice: 10, oomScoreAdj: 800, result: .applied, error: nil, rbs: nil), "band", #""hidden""#),
            (.recovery(kind: .reload, reason: .shown, attempt: 1), "reason", #""shown""#),
            (.fetch(url: "u", kind: .subframe, status: 200, bytes: 1), "kind", #""subframe""#),
        ]
        for (event, key, spelled) in cases {
            let record = String(decoding: Self.line(event), as: UTF8.self)
                .replacingOccurrences(of: "\"\(key)\":\(spelled)", with: "\"\(key)\":\"injection\"")
            #expect(throws: EventDecodingError.badValue(event: event.name, field: key, value: "injection")) {
                try Event(line: Array(record.utf8))
            }
        }
    }

    @Test func theRunBeginsWithTheSchemaVersion() {
        let line = String(decoding: Self.line(Self.samples[0]), as: UTF8.self)
        #expect(line.contains(#""event":"run-begin","view":4,"pid":77,"schemaVersion":3,"policy":"guarded","delegate":true"#))
    }

    @Test func theSummaryCountsTheEditorsAudit() {
        let summary = RunSummary(policy: "rebuild")
        summary.record(Event(.editor(Self.audit), monotonic: 1, wall: 1))
        #expect(summary.lostInputs == 3 && summary.duplicateInputs == 1)
        #expect(summary.text.contains("10 typed (0 restored from the journal), 2 replayed, 3 lost, 1 applied twice"))
        #expect(summary.json.text.contains(#""lostInputs":3,"duplicateInputs":1"#))
    }

    /// A long run opens and closes views without end: the summary holds the views open, not every one it saw.
    @Test func theSummaryForgetsAClosedView() {
        let summary = RunSummary(policy: "rebuild")
        for view in 1...10_000 {
            summary.record(Event(.viewOpen(load: view, visible: true), monotonic: view, wall: view, view: view))
            summary.record(Event(.viewClose, monotonic: view, wall: view, view: view))
        }
        summary.record(Event(.viewOpen(load: 1, visible: true), monotonic: 1, wall: 1, view: 10_001))
        #expect(summary.loadOfView == [10_001: 1])
    }

    @Test func aRunWithoutAnEditorLostNothing() {
        let summary = RunSummary(policy: "rebuild")
        #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0 && summary.audit == nil)
    }

    @Test func malformedLinesAreErrorsNotTraps() {
        let lines = [
            "", "{", "[]", #"{"event":1}"#, #"{"event":"attach"}"#, String(repeating: "[", count: 100_000),
            #"{"time":"2026-11-24T05:00:00.000000Z","mono":1.5,"event":"attach"}"#, "{\"event\":\"attach\",\"mono\":\"\u{0}\"}",
        ]
        for text in lines {
            #expect(throws: EventDecodingError.self) { try Event(line: Array(text.utf8)) }
        }
    }
}

extension Processes {
    /// A real run's every event, written as the log writes it and read back, is the event that was emitted.
    @Suite struct RunLogSchema {
        @Test(.runningLimit(.seconds(60))) func aRealRunsLogReadsBackWhole() throws {
            let folder = try TemporaryFolder([:])
            let (_, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 12
                $0.views = 2
                $0.hidden = 1
                $0.raceRate = 0.3
                $0.typingIntervalNanoseconds = 3_000_000
                $0.journalPath = folder.path + "/journal"
            }, content: ContentProvider())
            let names = Set(events.map(\.name))
            #expect(names.isSuperset(of: ["run-begin", "spawn", "hello", "death", "visible", "load-end", "editor", "inject"]))
            for event in events {
                let read = try Event(line: Array(event.json.text.utf8))
                #expect(read.kind == event.kind && read.monotonic == event.monotonic)
                #expect(read.pid == event.pid && read.view == event.view)
            }
            #expect(childProcesses().isEmpty)
        }
    }
}
