/// The archive's `timesync/*.timesync` files: for each boot, the wall clock read against the kernel's continuous
/// clock now and then (libyal's "timesync" records). A boot record (signature `0xbbb0`, 48 bytes: the boot UUID, the
/// timebase, the wall clock at boot in nanoseconds) is followed by sync records (`Ts`, 32 bytes: continuous time in
/// ticks, the wall clock then). An entry's time is the wall clock of the last sync at or before it, plus the ticks
/// since in nanoseconds; a file whose boot no timesync file names keeps its header's clock.
public struct Timesync: Sendable {
    public struct Boot: Sendable {
        public let numerator: UInt64
        public let denominator: UInt64
        /// Sync points, sorted by ticks: the boot itself (0 ticks) first.
        var syncs: [(ticks: UInt64, wall: Int)]

        /// Nanoseconds since 1970 of continuous time `ticks`, from the last sync at or before it.
        public func wallNanoseconds(_ ticks: UInt64) -> Int {
            var low = 0, high = syncs.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if syncs[middle].ticks <= ticks { low = middle } else { high = middle }
            }
            let sync = syncs[low]
            let (since, negative) = ticks >= sync.ticks ? (ticks - sync.ticks, false) : (sync.ticks - ticks, true)
            let (high64, low64) = since.multipliedFullWidth(by: numerator)
            guard high64 < denominator else { return negative ? Int.min : Int.max }
            let nanoseconds = Int(clamping: denominator.dividingFullWidth((high64, low64)).quotient)
            let (sum, overflow) = negative ? sync.wall.subtractingReportingOverflow(nanoseconds) : sync.wall.addingReportingOverflow(nanoseconds)
            return overflow ? (negative ? Int.min : Int.max) : sum
        }
    }

    public private(set) var boots: [LogUUID: Boot] = [:]
    /// Bytes of a file that were not records (damage): what came before was kept.
    public private(set) var damaged = 0

    public init() {}

    /// Adds one timesync file's records; a record cut short or of an unknown kind ends the file's reading.
    public mutating func add(_ bytes: [UInt8]) {
        var at = 0
        var boot: LogUUID?
        while bytes.count - at >= 32 {
            if bytes[at] == 0xB0, bytes[at + 1] == 0xBB, bytes.count - at >= 48, bytes.u16(at + 2) == 48 {
                let uuid = LogUUID(bytes[(at + 8)..<(at + 24)])
                let (numerator, denominator) = (UInt64(bytes.u32(at + 24)), UInt64(bytes.u32(at + 28)))
                guard numerator > 0, denominator > 0 else { break }
                let wall = Int(truncatingIfNeeded: bytes.u64(at + 32))
                if boots[uuid] == nil { boots[uuid] = Boot(numerator: numerator, denominator: denominator, syncs: [(0, wall)]) }
                boot = uuid
                at += 48
            } else if bytes[at] == 0x54, bytes[at + 1] == 0x73, bytes.u16(at + 2) == 32, let current = boot {
                boots[current]?.syncs.append((bytes.u64(at + 8), Int(truncatingIfNeeded: bytes.u64(at + 16))))
                at += 32
            } else {
                break
            }
        }
        damaged += bytes.count - at
        for key in boots.keys { boots[key]?.syncs.sort { $0.ticks < $1.ticks } }
    }
}
