import Foundation
import Testing

@testable import LogAnalysis
@testable import Replay
import Vocabulary
@testable import SupervisorTesting

/// `analyze --replay`: each incident as the moments of its worker's life that reproduce it, measured from the input.
@Suite struct ReplayWriter {
    /// Reader (pid 5200) launches WebContent 5233, which takes a background assertion and writes a line of its own
    /// 2.35 ms in; 7.15 ms in, the raise to foreground finds it gone. A JetsamEvent report, dated after the raise,
    /// says why.
    static let killedBeforeRender = #"""
        2026-04-14 16:02:07.310000-0700 Reader[5200:71001] [Process] 0x1046c2a80 - [PID=5233] WebProcessProxy::didFinishLaunching:
        2026-04-14 16:02:07.310450-0700 Reader[5200:71001] [ProcessSuspension] 0x1046c2a80 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=5233
        2026-04-14 16:02:07.311800-0700 Reader[5200:71001] [ProcessSuspension] 0x1046c2a80 - [PID=5233] ProcessThrottler::didConnectToProcess:
        2026-04-14 16:02:07.312350-0700 Reader[5200:71004] [Loading] WebContent[pid=5233, processIdentifier=12] WebPage::loadRequest: navigationID=3
        2026-04-14 16:02:07.316900-0700 Reader[5200:71003] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
        2026-04-14 16:02:07.317150-0700 Reader[5200:71003] [ProcessSuspension] 0x1046c2a80 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5233, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
        2026-04-14 16:02:07.590000-0700 Reader[5200:71001] [Process] 0x1046c2a80 - [PID=5233] WebProcessProxy::didClose: (web process 0 crash)

        """#

    static let jetsamReport = #"""
        {"bug_type":"298","timestamp":"2026-04-14 16:02:08.00 -0700","os_version":"iPhone OS 18.3 (22D63)","incident_id":"5E2C0A11-0000-4000-8000-00000000B001"}
        {
          "date" : "2026-04-14 16:02:07.98 -0700",
          "memoryStatus" : {"pageSize" : 16384},
          "processes" : [
          {"pid" : 5233, "name" : "com.apple.WebKit.WebContent", "coalition" : 640, "rpages" : 1200, "reason" : "vm-pageshortage", "killDelta" : 410},
          {"pid" : 5200, "name" : "Reader", "coalition" : 640, "rpages" : 5100, "states" : ["frontmost"]}
          ]
        }
        """#

    @Test func aKillBeforeRenderIsScheduledWithItsGapsBandCauseAndEvidence() throws {
        let report = try analyze(
            [("device.log", Array(Self.killedBeforeRender.utf8)), ("JetsamEvent.ips", Array(Self.jetsamReport.utf8))],
            replay: true)
        let export = report.replay
        #expect(export.schedule.sources == ["device.log", "JetsamEvent.ips"])
        let entry = try #require(export.schedule.incidents.only)
        #expect(entry.id == "pid 5233" && entry.kind == .killedBeforeRender)
        // Launch to the failed raise; the death after the process's own line and no later than that raise (the
        // report is dated after it).
        #expect(entry.attach == ReplayIncident.Span(7.15))
        #expect(entry.death == ReplayIncident.Span(lowMs: 2.35, highMs: 7.15))
        #expect(entry.band == .background && entry.rendered == false)
        #expect(entry.cause == .kill && entry.detail == "jetsam: vm-pageshortage")
        #expect(entry.evidence.count == 5)
        #expect(entry.evidence.first == "device.log:1 " + Self.killedBeforeRender.split(separator: "\n")[0])
        #expect(entry.evidence.contains("device.log:6 " + Self.killedBeforeRender.split(separator: "\n")[5]))
        #expect(entry.evidence.last?.hasPrefix("JetsamEvent.ips:") == true)
        // What is written reads back as the format says.
        #expect(try ReplaySchedule(json: Array(export.text.utf8)) == export.schedule)
        #expect(export.text.split(separator: "\n").count == 3)
    }

    /// A process last seen holding WebKit's near-suspended assertion died suspended: its band says so, and a
    /// replay hides its view before the death.
    @Test func aProcessThatDiedSuspendedIsReplayedSuspended() throws {
        let log = #"""
            2026-04-14 16:05:00.100000-0700 Reader[5200:71001] [ProcessSuspension] 0x1046c2b10 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess NearSuspended Assertion' for process with PID=5310
            2026-04-14 16:05:00.140250-0700 Reader[5200:71003] [ProcessSuspension] 0x1046c2b10 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5310, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}

            """#
        let export = try analyze([("a.log", Array(log.utf8))], replay: true).replay
        #expect(export.schedule.incidents.first { $0.id == "pid 5310" }?.band == .suspended)
    }

    /// The launch not in the input (a pid first seen taking an assertion), no time at all (Xcode 15+), the GPU
    /// process, and a death that names no pid.
    @Test func whatTheInputDoesNotTellIsAnIntervalAndSaysSo() throws {
        let unseenLaunch = #"""
            2026-04-14 16:05:00.100000-0700 Reader[5200:71001] [ProcessSuspension] 0x1046c2b10 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=5310
            2026-04-14 16:05:00.105000-0700 Reader[5200:71004] [Loading] WP[5310] WebPage::didCommitLoad
            2026-04-14 16:05:00.140250-0700 Reader[5200:71003] [ProcessSuspension] 0x1046c2b10 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5310, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
            2026-04-14 16:05:01.000000-0700 Reader[5200:71001] [Process] 0x1046c2c00 - GPUProcessProxy::gpuProcessExited: reason=Crash
            2026-04-14 16:07:30.000000-0700 Reader[5200:71001] [Process] 0x1046c2d00 - WebProcessProxy didClose (web process crash)

            """#
        let untimed = #"""
            0x1046c2e00 - [PID=5520] WebProcessProxy::didFinishLaunching:
            0x1046c2e00 - ProcessAssertion::acquireSync Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5520, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={}

            """#
        let export = try analyze([("a.log", Array(unseenLaunch.utf8)), ("b.log", Array(untimed.utf8))], replay: true).replay
        let gone = try #require(export.schedule.incidents.first { $0.id == "pid 5310" })
        #expect(gone.kind == .goneWhenRaised && gone.rendered == nil && gone.band == .background && gone.cause == .unknown)
        #expect(gone.attach == ReplayIncident.Span(lowMs: 0, highMs: 40.25) && gone.death == gone.attach)
        #expect(gone.detail.contains("launch not in the input: assumed between its first line (a.log:1) and the raise"))
        let blind = try #require(export.schedule.incidents.first { $0.id == "pid 5520" })
        let window = ReplayIncident.Span(lowMs: 0, highMs: 10_000)
        #expect(blind.kind == .killedBeforeRender && blind.attach == window && blind.death == window)
        #expect(blind.detail.hasSuffix("no time to measure it by: attach assumed within 10 s of launch; death assumed within 10 s of launch"))
        #expect(export.schedule.incidents.count == 2)
        #expect(export.summary(path: "S.json") == "Replay schedule: 2 incidents written to S.json (2 skipped, with no "
            + "WebContent life to replay: 1 of the GPU process, 1 naming no pid).")
    }

    /// A process alive at 10:00 and found gone at 12:57 (its lines less than an hour apart, so one timeline): its
    /// attach lies wholly past the hour a schedule holds, so it is left out and counted. One whose death lies between
    /// 30 and 70 minutes after launch is written, its interval cut at the hour, and says so. Neither traps.
    @Test func aLifePastTheHourIsCutOrLeftOutNeverATrap() throws {
        let long = #"""
            2026-04-14 10:00:00.000000-0700 Reader[5200:71001] [Process] 0x1046c2a80 - [PID=5233] WebProcessProxy::didFinishLaunching:
            2026-04-14 10:50:00.312350-0700 Reader[5200:71004] [Loading] WebContent[pid=5233, processIdentifier=12] WebPage::loadRequest: navigationID=3
            2026-04-14 11:40:00.312350-0700 Reader[5200:71004] [Loading] WebContent[pid=5233, processIdentifier=12] WebPage::loadRequest: navigationID=4
            2026-04-14 12:30:00.312350-0700 Reader[5200:71004] [Loading] WebContent[pid=5233, processIdentifier=12] WebPage::loadRequest: navigationID=5
            2026-04-14 12:57:00.317150-0700 Reader[5200:71003] [ProcessSuspension] 0x1046c2a80 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=5233, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}

            """#
        let straddling = #"""
            2026-04-14 10:00:00.000000-0700 Reader[5200:71001] [Process] 0x1046c2a90 - [PID=5240] WebProcessProxy::didFinishLaunching:
            2026-04-14 10:30:00.000000-0700 Reader[5200:71004] [Loading] WebContent[pid=5240, processIdentifier=13] WebPage::loadRequest: navigationID=3
            2026-04-14 11:10:00.000000-0700 Reader[5200:71001] [Process] 0x1046c2a90 - [PID=5240] WebProcessProxy::didClose: (web process 0 crash)

            """#
        let export = try analyze([("long.log", Array(long.utf8)), ("straddling.log", Array(straddling.utf8))], replay: true).replay
        let entry = try #require(export.schedule.incidents.only)
        #expect(entry.id == "pid 5240" && entry.death == ReplayIncident.Span(lowMs: 1_800_000, highMs: ReplayIncident.Span.limitMs))
        #expect(entry.detail.hasSuffix("the death may lie past the hour after launch a schedule holds: cut there"))
        #expect(export.summary(path: "S.json") == "Replay schedule: 1 incident written to S.json (1 skipped, with no "
            + "WebContent life to replay: 1 past the hour after launch a schedule holds).")
        #expect(try ReplaySchedule(json: Array(export.text.utf8)) == export.schedule)
    }
}

extension BesideOthers {
    /// `analyze --replay` as a user types it, on our own runs and on files it must not touch.
    @Suite struct ReplayWriterCLI {
        /// A raced run, its iOS log analyzed into a schedule: each race the log shows as a kill before render is
        /// there, dead in the background before an attach measured as the run measured it.
        @Test func aRacedRunsIOSLogRoundTripsIntoTheSchedule() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/R.jsonl"
            let schedulePath = folder.path + "/S.json"
            let run = try runSupervisorBounded([
                "run", "--inject-race", "0.05", "--loads", "200", "--seed", "3", "--log", log, "--log-format", "ios",
                "--watchdog", "200", "--blank-timeout", "1000",
            ], seconds: 60)
            try #require(run.status == 0, "\(run.stderr)")
            let analyzed = try runSupervisor(["analyze", log + ".ios.log", "--replay", schedulePath])
            #expect(analyzed.status == 0 && analyzed.stderr.isEmpty, "\(analyzed.stderr)")
            let schedule = try ReplaySchedule(json: Array(try Data(contentsOf: URL(fileURLWithPath: schedulePath))))
            #expect(analyzed.stdout.replacingOccurrences(of: "\n", with: " ").contains(
                "Replay schedule: \(schedule.incidents.count) incidents written to \(schedulePath)."))
            let json = try runSupervisor(["analyze", log + ".ios.log", "--json"])
            let reported = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let incidents = try #require(reported["incidents"] as? [[String: Any]])
            let killedBeforeRender = Set(incidents.filter { $0["kind"] as? String == "killed-before-render" }.compactMap { $0["pid"] as? Int })
            #expect(Set(schedule.incidents.filter { $0.kind == .killedBeforeRender }.map(\.id)) == Set(killedBeforeRender.map { "pid \($0)" }))

            let record = try RunRecord(log)
            let checked = record.races.filter { record.unobserved.contains($0) && killedBeforeRender.contains($0) }
            #expect(checked.count >= 3, "too few races to show anything: \(record.races)")
            for pid in checked {
                let entry = try #require(schedule.incidents.first { $0.id == "pid \(pid)" }, "pid \(pid)")
                let spawn = try #require(record.micros(pid, "spawn"))
                let after = { (event: String, band: String?) throws -> Double in
                    Double(try #require(record.micros(pid, event, band: band), "pid \(pid): \(event)") - spawn) / 1000
                }
                let (attach, raise) = (try after("attach", nil), try after("priority", "foreground"))
                let (injected, died) = (try after("inject", nil), try after("death", nil))
                #expect(entry.rendered == false && entry.band == .background && entry.cause == .kill, "pid \(pid)")
                #expect(entry.attach.exact && entry.death.exact && entry.death.highMs < entry.attach.lowMs, "pid \(pid)")
                // The log writes microseconds; the raise it shows is the attach's own priority event, in the same
                // turn of the loop, so the gap is the run's attach, late by no more than that turn.
                let micro = 0.001
                #expect(abs(entry.attach.lowMs - raise) <= micro, "pid \(pid)")
                #expect(attach - micro <= entry.attach.lowMs && entry.attach.lowMs <= attach + (raise - attach) + micro, "pid \(pid)")
                #expect(injected - micro <= entry.death.lowMs && entry.death.lowMs <= died + micro, "pid \(pid)")
            }
            #expect(orphanedWorkers().isEmpty)
        }

        /// A schedule that cannot be written is one error before any reading: an input that would fail is not read.
        @Test func anUnwritableScheduleFailsBeforeAnyWork() throws {
            let folder = try TemporaryFolder(["race.log": ReplayWriter.killedBeforeRender, "notes.txt": "milk, eggs\n"])
            for input in ["race.log", "notes.txt"] {
                let result = try runSupervisor(["analyze", folder.path + "/" + input, "--replay", folder.path + "/missing/S.json"])
                #expect(result.status == 1 && result.stdout.isEmpty)
                #expect(unwrapped(result.stderr) == "supervisor: error: cannot write '\(folder.path)/missing/S.json': "
                    + "No such file or directory\n")
            }
            let same = try runSupervisor(["analyze", folder.path + "/race.log", "--replay", folder.path + "/race.log"])
            #expect(same.status == 64 && unwrapped(same.stderr).contains("cannot be both a log to analyze and the replay schedule"))
            #expect(try String(contentsOfFile: folder.path + "/race.log", encoding: .utf8) == ReplayWriter.killedBeforeRender)
        }

        /// "No incidents" is written as an empty schedule only of input that was read.
        @Test func anEmptyScheduleOnlyForInputThatWasRead() throws {
            let folder = try TemporaryFolder([
                "quiet.syslog": "Apr 14 16:02:07 iPad SpringBoard[61] <Notice>: Scene update\n", "notes.txt": "milk, eggs\n",
            ])
            let quiet = try runSupervisor(["analyze", folder.path + "/quiet.syslog", "--replay", folder.path + "/S.json"])
            #expect(quiet.status == 0 && quiet.stdout.contains("Replay schedule: 0 incidents written to"))
            let written = try String(contentsOfFile: folder.path + "/S.json", encoding: .utf8)
            #expect(try ReplaySchedule(json: Array(written.utf8)).incidents.isEmpty)
            let unread = try runSupervisor(["analyze", folder.path + "/notes.txt", "--replay", folder.path + "/T.json"])
            #expect(unread.status == 1 && !FileManager.default.fileExists(atPath: folder.path + "/T.json"))
        }
    }
}

/// What a run's event log says of each worker, read by its schema's keys.
private struct RunRecord {
    let events: [[String: Any]]

    init(_ path: String) throws {
        events = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Workers an injected race killed.
    var races: [Int] {
        events.filter { $0["event"] as? String == "inject" && $0["kind"] as? String == "race" }.compactMap { $0["pid"] as? Int }
    }

    var unobserved: Set<Int> { Set(events.filter { $0["event"] as? String == "unobserved" }.compactMap { $0["pid"] as? Int }) }

    /// When `pid`'s first `event` (of `band`, for a priority) was written, in microseconds since 1970: the log's
    /// `2026-11-24T08:44:19.619228Z`.
    func micros(_ pid: Int, _ event: String, band: String? = nil) -> Int? {
        let found = events.first { $0["pid"] as? Int == pid && $0["event"] as? String == event && (band == nil || $0["band"] as? String == band) }
        guard let text = found?["time"] as? String, let dot = text.firstIndex(of: "."),
            let whole = ISO8601DateFormatter().date(from: text[..<dot] + "Z"), let fraction = Int(text[dot...].dropFirst().dropLast())
        else { return nil }
        return Int(whole.timeIntervalSince1970) * 1_000_000 + fraction
    }
}

extension Array {
    /// The one element, or nil.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
