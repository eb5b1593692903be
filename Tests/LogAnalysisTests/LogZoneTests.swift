import Foundation
import Glibc
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import System
@testable import SupervisorTesting

/// Seconds since 1970 UTC of a UTC date and time.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int {
    LogTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
}

/// Times written without a zone, read in the zone assumed for them; `--tz` values; a file's zone found from its
/// first bytes.
@Suite struct AnalyzerZones {
    @Test func tzValuesAreParsed() throws {
        let offsets = try ["+0100", "-07:00", "+05", "-0930", "UTC", "Z", "utc", "GMT"].map { text -> Int in
            guard case .offset(let seconds) = try LogZone(parsing: text) else { return .min }
            return seconds
        }
        #expect(offsets == [3600, -25_200, 18_000, -34_200, 0, 0, 0, 0])
        guard case .local = try LogZone(parsing: "local") else { Issue.record("'local' is not the machine's zone"); return }
        for (text, message) in [
            ("+2500", "'+2500' is not a zone offset: write it as +HHMM, +HH:MM or +HH"),
            ("+01:2", "'+01:2' is not a zone offset: write it as +HHMM, +HH:MM or +HH"),
            ("Mars/Olympus_Mons", "unknown zone 'Mars/Olympus_Mons' (no such file in /usr/share/zoneinfo/)"),
            ("../../etc/passwd", "'../../etc/passwd' is not a zone: give +HHMM, UTC, or a name such as America/Los_Angeles"),
            ("", "'' is not a zone: give +HHMM, UTC, or a name such as America/Los_Angeles"),
        ] {
            #expect(throws: ZoneError.self) { try LogZone(parsing: text) }
            do {
                _ = try LogZone(parsing: text)
            } catch {
                #expect(error.description == message)
            }
        }
    }

    /// A tz database name keeps its daylight-saving changes, from the file's transitions and, past them, from its
    /// footer rule.
    @Test func aNamedZoneFollowsDaylightSaving() throws {
        let losAngeles = try LogZone(parsing: "America/Los_Angeles")
        #expect(losAngeles.name == "America/Los_Angeles")
        #expect(losAngeles.secondsEast(at: utc(2026, 3, 2, 18)) == -28_800)
        #expect(losAngeles.secondsEast(at: utc(2026, 7, 1)) == -25_200)
        #expect(losAngeles.secondsEast(at: utc(2026, 3, 8, 9, 59)) == -28_800)
        #expect(losAngeles.secondsEast(at: utc(2026, 3, 8, 10)) == -25_200)
        #expect(losAngeles.secondsEast(at: utc(2046, 7, 1)) == -25_200)
        #expect(losAngeles.secondsEast(at: utc(2046, 12, 1)) == -28_800)
        // Clock readings on the day the clocks go forward: before, after, and inside the gap.
        let wall = { (hour: Int, minute: Int) in utc(2026, 3, 8, hour, minute) * 1_000_000 }
        #expect(losAngeles.secondsEast(atWall: wall(1, 30)) == -28_800)
        #expect(losAngeles.secondsEast(atWall: wall(3, 30)) == -25_200)
        #expect(losAngeles.secondsEast(atWall: wall(2, 30)) == -28_800)
    }

    @Test func footerRulesOfBothHemispheres() throws {
        let rule = { (text: String) in try #require(ZoneRule(Array(text.utf8))) }
        let pacific = try rule("PST8PDT,M3.2.0,M11.1.0")
        #expect([utc(2030, 1, 15), utc(2030, 7, 15)].map(pacific.secondsEast(at:)) == [-28_800, -25_200])
        let sydney = try rule("AEST-10AEDT,M10.1.0,M4.1.0/3")
        #expect([utc(2030, 1, 15), utc(2030, 7, 15)].map(sydney.secondsEast(at:)) == [39_600, 36_000])
        let dublin = try rule("IST-1GMT0,M10.5.0,M3.5.0/1")
        #expect([utc(2030, 1, 15), utc(2030, 7, 15)].map(dublin.secondsEast(at:)) == [0, 3600])
        let tehran = try rule("<+0330>-3:30")
        #expect(tehran.secondsEast(at: utc(2030, 7, 15)) == 12_600)
        let julian = try rule("XST3XDT,J60/0,300")
        #expect([utc(2030, 2, 28, 12), utc(2030, 3, 1, 12), utc(2030, 12, 31)].map(julian.secondsEast(at:)) == [-10_800, -7200, -10_800])
        #expect(ZoneRule(Array("PST8PDT,M13.2.0,M11.1.0".utf8)) == nil)
    }

    /// The envelope reads a time written without a zone in the zone passed in, and a time written with one in its own.
    @Test func zonelessTimesAreReadInTheAssumedZone() throws {
        let seven = ZoneAssumption(zone: .offset(-25_200), reason: .otherFiles, year: 2026)
        let losAngeles = ZoneAssumption(zone: (try? LogZone(parsing: "America/Los_Angeles")) ?? .offset(0), reason: .option, year: 2026)
        func read(_ line: String, _ zone: ZoneAssumption) throws -> Envelope { try #require(envelopes(line, zone: zone).first).envelope }
        let syslog = try read("Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1 - [PID=4107] WebProcessProxy::didClose:", seven)
        #expect(syslog.time == (utc(2026, 3, 2, 17, 11) + 12) * 1_000_000)
        #expect(syslog.zone == .assumed(-25_200) && syslog.dated)
        #expect(try read("Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1", .machine).dated == false)
        let compact = { (date: String) in
            try read("\(date) 10:11:12.120 Df MyApp[4100:2f1a3] [com.apple.WebKit:Process] 0x1 - [PID=4107] WebProcessProxy::didClose:", losAngeles)
        }
        #expect(try compact("2026-03-02").time == (utc(2026, 3, 2, 18, 11) + 12) * 1_000_000 + 120_000)
        #expect(try compact("2026-07-02").time == (utc(2026, 7, 2, 17, 11) + 12) * 1_000_000 + 120_000)
        let xcode = try read("2026-03-02 10:11:12.120000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose:", seven)
        #expect(xcode.time == (utc(2026, 3, 2, 9, 11) + 12) * 1_000_000 + 120_000)
        #expect(xcode.zone == .written(3600))
    }

    @Test func aFilesZoneIsFoundInItsFirstDatedLines() {
        func scan(_ text: String) -> WrittenClock? { WrittenClock.scan(Array(text.utf8).span) }
        #expect(scan(Fixture.xcode) == WrittenClock(zoneSeconds: 3600, day: LogTime.days(year: 2025, month: 3, day: 2)))
        #expect(scan(LogShowFixture.jsonArray) == WrittenClock(zoneSeconds: -28_800, day: LogTime.days(year: 2026, month: 3, day: 2)))
        #expect(scan(LogShowFixture.ndjson)?.zoneSeconds == -28_800)
        #expect(scan(LogShowFixture.standard)?.zoneSeconds == -28_800)
        #expect(scan(Fixture.syslog) == nil)
        #expect(scan(LogShowFixture.compact) == nil)
        #expect(scan(LogShowFixture.unifiedLog) == nil)
        let late = String(repeating: "flutter: a line of the app's own\n", count: 300) + Fixture.xcode
        #expect(scan(late)?.zoneSeconds == 3600)
        // Just after midnight UTC, the date is still the day before in the zone written.
        #expect(scan("2026-03-02 23:30:00.000000-0800 MyApp[1:2] [x] y\n")?.day == LogTime.days(year: 2026, month: 3, day: 2))
    }

    /// The scan reads an open file where its first bytes are and leaves its offset for the analysis.
    @Test func aFileIsScannedWithoutMovingItsOffset() throws {
        let folder = try TemporaryFolder(["x.log": "noise\n" + Fixture.xcode])
        let fd = open(folder.path + "/x.log", O_RDONLY)
        defer { close(fd) }
        #expect(lseek(fd, 6, SEEK_SET) == 6)
        #expect(WrittenClock.scan(file: fd)?.zoneSeconds == 3600)
        #expect(lseek(fd, 0, SEEK_CUR) == 6)
    }

    @Test func theRuleTakesTzThenTheOtherFilesThenTheMachine() {
        let seven = WrittenClock(zoneSeconds: -25_200, day: LogTime.days(year: 2026, month: 3, day: 2))
        let one = WrittenClock(zoneSeconds: 3600, day: LogTime.days(year: 2025, month: 3, day: 2))
        let fromFiles = ZoneAssumption(option: nil, written: [nil, seven])
        #expect(fromFiles.reason == .otherFiles && fromFiles.year == 2026 && fromFiles.zone.name == "-0700")
        let most = ZoneAssumption(option: nil, written: [one, seven, nil, seven])
        #expect(most.zone.name == "-0700" && most.year == 2026)
        let option = ZoneAssumption(option: .offset(0), written: [seven])
        #expect(option.reason == .option && option.zone.name == "UTC" && option.year == 2026)
        let none = ZoneAssumption(option: nil, written: [nil, nil])
        #expect(none.reason == .machine && none.year == nil && none.zone.name == "local time")
    }

    /// Seed 000's story split across two files of one device: the Xcode console (-0700) shows the launch; the
    /// idevicesyslog, which writes no zone and no year, shows the failed raise and the death. Read in the Xcode
    /// log's zone they are one kill before render; read as UTC, seven hours apart, they are not.
    @Test func anIncidentSplitAcrossAZonedAndAZonelessFileIsJoined() throws {
        let xcode = """
            2026-03-02 10:11:11.900000-0700 MyApp[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:
            2026-03-02 10:11:11.900100-0700 MyApp[4100:99001] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107

            """
        let syslog = """
            Mar  2 10:11:12 iPhone MyApp(RunningBoardServices)[4100] <Error>: \(LogShowFixture.rbsError)
            Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Error>: \(LogShowFixture.failed)
            Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: \(LogShowFixture.closed)

            """
        let files = [("xcode.log", xcode), ("device.syslog", syslog)]
        let assumed = ZoneAssumption(option: nil, written: files.map { WrittenClock.scan(Array($0.1.utf8).span) })
        #expect(assumed.reason == .otherFiles && assumed.zone.name == "-0700" && assumed.year == 2026)
        let joined = try analyze(files, zone: assumed)
        #expect(joined.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(joined.incidents.first.map { joined.time($0.lastSeen) } == "2026-03-02 10:11:12.000000-0700")
        #expect(joined.assumedZones.keys.sorted() == [1])
        #expect(joined.zoneNotes == ["device.syslog: times without a zone read as -0700 (the zone the other files write)."])
        let asUTC = try analyze(files, zone: ZoneAssumption(zone: .offset(0), reason: .option, year: 2026))
        #expect(!asUTC.summaryOfIncidents.contains("4107 killed-before-render confirmed"))
        #expect(asUTC.zoneNotes == ["device.syslog: times without a zone read as UTC (--tz)."])
    }
}

extension Processes {
    /// This machine's zone as the real binary finds it: TZ, for each time in question.
    @Suite struct AnalyzerZonesOfTheMachine {
        /// With nothing else to go by, a compact-style log (no zone) is read in the machine's zone: TZ set to Los
        /// Angeles puts March in -0800 and July in -0700; set to Kolkata, +0530.
        @Test func aZonelessLogIsReadInTZ() throws {
            let folder = try TemporaryFolder([
                "march.log": LogShowFixture.compact,
                "july.log": LogShowFixture.compact.replacingOccurrences(of: "2026-03-02", with: "2026-07-02"),
            ])
            func firstSeen(_ name: String, tz: String) throws -> String? {
                let output = folder.path + "/" + name + ".json"
                let status = try Sys.run(supervisorPath, ["analyze", folder.path + "/" + name, "--json"], environment: ["TZ=" + tz],
                                         output: output)
                #expect(status == .code(0))
                let text = try String(contentsOfFile: output, encoding: .utf8)
                return text.range(of: #""firstSeen":"[^"]*""#, options: .regularExpression).map { String(text[$0]) }
            }
            #expect(try firstSeen("march.log", tz: "America/Los_Angeles") == #""firstSeen":"2026-03-02 10:11:12.120000-0800""#)
            #expect(try firstSeen("july.log", tz: "America/Los_Angeles") == #""firstSeen":"2026-07-02 10:11:12.120000-0700""#)
            #expect(try firstSeen("march.log", tz: "Asia/Kolkata") == #""firstSeen":"2026-03-02 10:11:12.120000+0530""#)
        }
    }
}

extension Processes {
    /// The CLI's part: the zone the other inputs write is found before reading, `--tz` overrides it, and the
    /// summary says which zone a file without one was read in.
    @Suite struct AnalyzeZonesCLI {
        @Test func theOtherFilesZoneIsAssumedAndTzOverridesIt() throws {
            let folder = try TemporaryFolder([
                "a-xcode.log": """
                    2026-03-02 10:11:11.900000-0700 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:

                    """,
                "b-device.syslog": """
                    Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Error>: \(LogShowFixture.failed)

                    """,
            ])
            let joined = try runSupervisor(["analyze", folder.path])
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(joined.stdout.contains("killed-before-render  confirmed"), "\(joined.stdout)")
            let oneLine = { (text: String) in text.replacingOccurrences(of: "\n", with: " ") }
            #expect(oneLine(joined.stdout).contains("b-device.syslog: times without a zone read as -0700 (the zone the other files write)."))
            let utc = try runSupervisor(["analyze", folder.path, "--tz", "UTC"])
            #expect(!utc.stdout.contains("killed-before-render  confirmed") && oneLine(utc.stdout).contains("read as UTC (--tz)"))
            let bad = try runSupervisor(["analyze", folder.path, "--tz", "Mars/Olympus"])
            #expect(bad.status == 64 && bad.stderr.hasPrefix("supervisor: error: '--tz': "), "\(bad.stderr)")
        }
    }
}
