/// The header chunk (tag 0x1000): the clock the file's times are in, and where and when it was written.
public struct TraceHeader: Sendable {
    /// Nanoseconds per tick are numerator / denominator (1/1 on Intel, 125/3 on Apple silicon).
    public let numerator: UInt32
    public let denominator: UInt32
    /// The wall clock, POSIX seconds, the file's times are counted from.
    public let wallSeconds: Int
    public let timeZoneMinutesWest: Int
    public let bootUUID: LogUUID
    public let build: String
    public let hardwareModel: String
    public let timeZonePath: String
    /// The boot's clock from the archive's timesync files, when they name this file's boot: entries' times come from
    /// it rather than the header's.
    public internal(set) var clock: Timesync.Boot?

    init(_ bytes: [UInt8], _ chunk: Chunk) throws(ChunkFailure) {
        let data = chunk.data
        guard data.count >= 208 else { throw ChunkFailure(offset: data.lowerBound, reason: "a header of \(data.count) bytes") }
        let base = data.lowerBound - Chunk.preambleSize
        numerator = bytes.u32(base + 16)
        denominator = bytes.u32(base + 20)
        guard numerator > 0, denominator > 0 else {
            throw ChunkFailure(offset: base, reason: "a header whose timebase is \(numerator)/\(denominator)")
        }
        wallSeconds = Int(Int32(bitPattern: bytes.u32(base + 32)))
        timeZoneMinutesWest = Int(Int32(bitPattern: bytes.u32(base + 44)))
        // The sub chunks at fixed places: system information (build, model), generation (boot), time zone.
        build = ByteReader.cString(bytes, at: base + 72 + 16, within: (base + 88)..<(base + 104)) ?? ""
        hardwareModel = ByteReader.cString(bytes, at: base + 104, within: (base + 104)..<(base + 136)) ?? ""
        bootUUID = LogUUID(bytes[(base + 144)..<(base + 160)])
        timeZonePath = ByteReader.cString(bytes, at: base + 176, within: (base + 176)..<(base + 224)) ?? ""
    }

    /// Nanoseconds since 1970 of continuous time `ticks`: from the boot's timesync records when there are some, else
    /// the header's wall clock plus the ticks in nanoseconds, as libyal's reader computes it when no timesync file
    /// matches the boot.
    public func wallNanoseconds(_ ticks: UInt64) -> Int {
        if let clock { return clock.wallNanoseconds(ticks) }
        let (high, low) = ticks.multipliedFullWidth(by: UInt64(numerator))
        // Past what 64 bits of nanoseconds hold (over 500 years of ticks): damage, kept at the far end.
        guard high < UInt64(denominator) else { return Int.max }
        let nanoseconds = UInt64(denominator).dividingFullWidth((high, low)).quotient
        let (sum, overflow) = (wallSeconds * 1_000_000_000).addingReportingOverflow(Int(clamping: nanoseconds))
        return overflow ? Int.max : sum
    }
}
