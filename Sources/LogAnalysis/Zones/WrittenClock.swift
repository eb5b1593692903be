import System

/// The zone and date a file's first dated lines write, found before the analysis reads anything, so that a file of
/// the same device that writes no zone (idevicesyslog, `log show --style compact`) can be read in that zone.
public struct WrittenClock: Sendable, Equatable {
    /// Seconds east of UTC.
    public let zoneSeconds: Int
    /// The date of that line, in days since 1970.
    public let day: Int

    /// How far into a file the first dated lines are looked for.
    public static let scanLength = 64 << 10

    /// The first record in `bytes` whose envelope writes the device's zone. Our own logs and the unified-log
    /// parser's write UTC whatever the device's zone, so they tell nothing of it.
    public static func scan(_ bytes: Span<UInt8>) -> WrittenClock? {
        var record: [UInt8] = []
        var format: LogFormat?
        var start = 0
        while start < min(bytes.count, scanLength) {
            let newline = bytes.index(of: 10, from: start) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == 13 { end -= 1 }
            let line = bytes.extracting(start..<end)
            start = newline + 1
            switch Envelope.shape(of: line) {
            case .continuation where format != nil && record.count < RecordAssembler.recordLimit:
                record.append(10)
                for i in 0..<line.count { record.append(line[i]) }
                continue
            case .record(let next):
                if let clock = read(record, as: format) { return clock }
                record.removeAll(keepingCapacity: true)
                for i in 0..<line.count { record.append(line[i]) }
                format = next.writesDeviceZone ? next : nil
            default:
                if let clock = read(record, as: format) { return clock }
                format = nil
            }
        }
        return read(record, as: format)
    }

    /// The first bytes of an open file, read where they are: the file's offset is left for the analysis.
    public static func scan(file fd: Int32) -> WrittenClock? {
        guard let bytes = try? Sys.read(fd, count: scanLength, at: 0) else { return nil }
        return scan(bytes.span)
    }

    private static func read(_ record: [UInt8], as format: LogFormat?) -> WrittenClock? {
        guard let format else { return nil }
        var day: Int?
        let envelope = Envelope.parse(record.span, as: format, day: &day, assuming: .machine)
        guard case .written(let seconds) = envelope.zone, let time = envelope.time else { return nil }
        return WrittenClock(zoneSeconds: seconds, day: (time / 1_000_000 + seconds).floorDivided(by: 86_400))
    }
}

extension LogFormat {
    /// Whether the zone a line of this format writes is the device's own.
    package var writesDeviceZone: Bool {
        switch self {
        case .xcode, .consoleApp, .flutter, .logShow, .logShowSyslog, .logShowNDJSON, .logShowJSON: true
        case .messageOnly, .syslog, .logShowCompact, .eventLog, .jetsamLog, .unifiedLog, .crashReport, .jetsamReport,
            .diagnosticReport, .processListing: false
        }
    }
}
