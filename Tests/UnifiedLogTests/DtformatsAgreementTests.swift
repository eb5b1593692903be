import Glibc
import Testing

@testable import UnifiedLog

/// Every entry an independent decoder (libyal's dtformats) lists for the real files, and no other (issue 33, must
/// show): the same time to the microsecond, mach time, pid, thread, event and message type, subsystem, category and
/// activity, compared as whole multisets.
@Suite struct DtformatsAgreement {
    /// A TSV line's first nine columns, as dtformats wrote them.
    static func listed(_ name: String) -> [String: Int] {
        var rows: [String: Int] = [:]
        let text = String(decoding: Fixture.bytes(name + ".dtformats.tsv"), as: UTF8.self)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).prefix(9)
            rows[columns.joined(separator: "\t"), default: 0] += 1
        }
        return rows
    }

    /// Ours, in the same columns and spellings: the time in microseconds (truncated, as dtformats does), "-" for what
    /// an entry has not (a state entry's level, subsystem and category; a log entry's subsystem, if it names none).
    static func decoded(_ name: String) throws -> (rows: [String: Int], file: TraceFile) {
        let file = try TraceFile(Fixture.bytes(name + ".tracev3"))
        var rows: [String: Int] = [:]
        for entry in file.entries {
            let columns = [
                Self.time(entry.wallNanoseconds), "\(entry.continuousTime)", "\(entry.pid)", "\(entry.thread)",
                entry.eventType.rawValue, entry.messageType?.rawValue ?? "-", entry.subsystem.isEmpty ? "-" : entry.subsystem,
                entry.category.isEmpty ? "-" : entry.category, "\(entry.activityID)",
            ]
            rows[columns.joined(separator: "\t"), default: 0] += 1
        }
        return (rows, file)
    }

    /// `2022-05-30 00:38:21.053672+0000`, from the C library's calendar.
    static func time(_ nanoseconds: Int) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let micro = Int32(nanoseconds % 1_000_000_000 / 1000)
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2)) "
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(micro, 6))+0000"
    }

    @Test(arguments: [Fixture.iOS, Fixture.mac])
    func everyEntryDtformatsListsAndNoOther(name: String) throws {
        let expected = Self.listed(name)
        let (ours, file) = try Self.decoded(name)
        #expect(file.failures.isEmpty, "\(file.failures)")
        let missing = expected.filter { ours[$0.key, default: 0] < $0.value }
        let extra = ours.filter { expected[$0.key, default: 0] < $0.value }
        #expect(missing.isEmpty && extra.isEmpty,
                "\(missing.count) rows missing, e.g. \(missing.keys.sorted().prefix(3)); \(extra.count) extra, e.g. \(extra.keys.sorted().prefix(3))")
        #expect(ours.values.reduce(0, +) == expected.values.reduce(0, +))
    }

    /// Its header says where and when it was written: an iPad mini (J96AP) on build 19D52, in Toronto, on Apple
    /// silicon's 125/3 timebase.
    @Test func theIOSFilesHeaderNamesItsDeviceAndClock() throws {
        let file = try TraceFile(Fixture.bytes(Fixture.iOS + ".tracev3"))
        #expect(file.header.numerator == 125 && file.header.denominator == 3)
        #expect(file.header.build == "19D52" && file.header.hardwareModel == "J96AP" && file.entries.count == 8_654)
        #expect(file.header.timeZonePath == "/var/db/timezone/zoneinfo/America/Toronto")
        #expect(file.header.bootUUID.description == "A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19")
    }
}
