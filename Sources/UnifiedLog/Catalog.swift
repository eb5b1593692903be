/// A catalog chunk (tag 0x600b): the processes whose entries the chunksets after it hold, until the next catalog.
/// Each is keyed by its proc_id pair (not its pid), and names its pid, its images and its subsystems. Offsets in it
/// are counted from its UUID array, 24 bytes into its data.
struct Catalog {
    struct ProcessKey: Hashable {
        let first: UInt64
        let second: UInt32
    }

    struct Subsystem {
        let subsystem: String
        let category: String
    }

    struct Process {
        /// The entry's own index, by which sub chunks name the processes of their chunkset.
        let index: UInt16
        let pid: UInt32
        let euid: UInt32
        let mainUUID: Int
        let sharedCacheUUID: Int?
        /// Its images: where each is loaded, and its size, for a sender found by address.
        let images: [(uuid: Int, load: UInt64, size: UInt32)]
        let subsystems: [UInt16: Subsystem]
    }

    let uuids: [LogUUID]
    let processes: [ProcessKey: Process]
    /// The earliest time of any entry in the chunksets after it.
    let earliest: UInt64
    /// Each chunkset's earliest time and the processes (by entry index) whose chunks it holds, in the order they
    /// follow it (from its sub chunks; empty if they do not parse). Checked on the real iOS file: every chunk of each
    /// chunkset is of a process its sub chunk names.
    let chunksets: [(start: UInt64, processes: [UInt16])]

    init(_ bytes: [UInt8], _ chunk: Chunk) throws(ChunkFailure) {
        let data = chunk.data
        func failure(_ reason: String) -> ChunkFailure { ChunkFailure(offset: data.lowerBound, reason: "a catalog: " + reason) }
        guard data.count >= 24 else { throw failure("\(data.count) bytes") }
        let strings = Int(bytes.u16(data.lowerBound))
        let processesAt = Int(bytes.u16(data.lowerBound + 2))
        let processCount = Int(bytes.u16(data.lowerBound + 4))
        let subChunksAt = Int(bytes.u16(data.lowerBound + 6))
        let base = data.lowerBound + 24
        guard strings % 16 == 0, strings <= processesAt, processesAt <= subChunksAt, subChunksAt <= data.upperBound - base
        else { throw failure("offsets \(strings), \(processesAt), \(subChunksAt) out of order or past its end") }
        uuids = stride(from: base, to: base + strings, by: 16).map { LogUUID(bytes[$0..<($0 + 16)]) }
        let stringBlock = (base + strings)..<(base + processesAt)
        var reader = ByteReader(bytes, (base + processesAt)..<(base + subChunksAt))
        var processes: [ProcessKey: Process] = [:]
        do {
            for _ in 0..<processCount {
                let start = reader.at
                let index = try reader.u16()
                try reader.skip(2)
                let main = Int(try reader.u16())
                let cache = try reader.u16()
                let key = ProcessKey(first: try reader.u64(), second: try reader.u32())
                let pid = try reader.u32()
                let euid = try reader.u32()
                try reader.skip(4)
                let imageCount = Int(try reader.u32())
                try reader.skip(4)
                guard imageCount <= reader.remaining / 16 else { throw failure("\(imageCount) images in a process entry") }
                var images: [(uuid: Int, load: UInt64, size: UInt32)] = []
                for _ in 0..<imageCount {
                    let size = try reader.u32()
                    try reader.skip(4)
                    let uuid = Int(try reader.u16())
                    let low = UInt64(try reader.u32())
                    let high = UInt64(try reader.u16())
                    images.append((uuid, high << 32 | low, size))
                }
                let subsystemCount = Int(try reader.u32())
                try reader.skip(4)
                guard subsystemCount <= reader.remaining / 6 else { throw failure("\(subsystemCount) subsystems in a process entry") }
                var subsystems: [UInt16: Subsystem] = [:]
                for _ in 0..<subsystemCount {
                    let id = try reader.u16()
                    let name = Int(try reader.u16()), category = Int(try reader.u16())
                    subsystems[id] = Subsystem(
                        subsystem: ByteReader.cString(bytes, at: stringBlock.lowerBound + name, within: stringBlock) ?? "",
                        category: ByteReader.cString(bytes, at: stringBlock.lowerBound + category, within: stringBlock) ?? "")
                }
                reader.align8(from: start)
                processes[key] = Process(
                    index: index, pid: pid, euid: euid, mainUUID: main, sharedCacheUUID: cache == 0xFFFF ? nil : Int(cache),
                    images: images, subsystems: subsystems)
            }
        } catch is ByteReader.Overrun {
            throw failure("a process entry past its end")
        } catch let error as ChunkFailure {
            throw error
        } catch {
            throw failure("\(error)")
        }
        self.processes = processes
        earliest = bytes.u64(data.lowerBound + 16)
        chunksets = Self.subChunks(bytes, (base + subChunksAt)..<data.upperBound, count: Int(bytes.u16(data.lowerBound + 8)))
    }

    /// Each sub chunk: u64 start, u64 end, u32 size, u32 algorithm, u32 count and as many u16 process entry indexes,
    /// u32 count and as many u16 string offsets, padded to 8.
    private static func subChunks(_ bytes: [UInt8], _ range: Range<Int>, count: Int) -> [(start: UInt64, processes: [UInt16])] {
        var reader = ByteReader(bytes, range)
        var chunksets: [(start: UInt64, processes: [UInt16])] = []
        do {
            for _ in 0..<count {
                let start = reader.at
                let time = try reader.u64()
                try reader.skip(16)
                let processes = Int(try reader.u32())
                guard processes <= reader.remaining / 2 else { return [] }
                chunksets.append((time, try (0..<processes).map { _ throws(ByteReader.Overrun) in try reader.u16() }))
                try reader.skip(2 * Int(try reader.u32()))
                reader.align8(from: start)
            }
        } catch {
            return []
        }
        return chunksets
    }
}
