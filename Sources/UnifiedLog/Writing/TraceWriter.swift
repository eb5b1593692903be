/// One tracev3 file of an `ArchiveWriter`: the header, one catalog of the processes in it, then chunksets of at most
/// `chunksetLimit` bytes, each of firehose chunks (a process's run of entries, at most `firehoseLimit` bytes of
/// tracepoints, as logd's 4 KB buffers hold) and statedumps, LZ4-compressed.
struct TraceWriter {
    static let chunksetLimit = 64 * 1024
    static let firehoseLimit = 3 * 1024

    let archive: ArchiveWriter
    let entries: [ArchiveWriter.Entry]
    let dumps: [ArchiveWriter.StateDump]

    /// A chunkset of the file: its time span, the processes whose chunks it holds, its chunks.
    struct Chunkset {
        var start: UInt64
        var end: UInt64
        var pids: [UInt32]
        var data: [UInt8]
    }

    /// A process of the file: its key, its catalog entry's parts.
    struct Process {
        let pid: UInt32
        let path: String
        var subsystems: [String] = []  // "subsystem\0category"
        var first: UInt64 { UInt64(pid) + 100_000 }
    }

    func bytes() -> [UInt8] {
        var processes: [UInt32: Process] = [:]
        var order: [UInt32] = []
        func note(_ pid: UInt32, _ path: String, _ subsystem: String?) {
            if processes[pid] == nil {
                processes[pid] = Process(pid: pid, path: path)
                order.append(pid)
            }
            if let subsystem, !processes[pid]!.subsystems.contains(subsystem) { processes[pid]!.subsystems.append(subsystem) }
        }
        for entry in entries { note(entry.pid, entry.process, entry.subsystem.isEmpty ? nil : entry.subsystem + "\0" + entry.category) }
        for dump in dumps { note(dump.pid, dump.process, nil) }

        // The chunks, in time order, then packed into chunksets.
        var inner: [(time: UInt64, pid: UInt32, chunk: [UInt8])] = []
        var at = 0
        while at < entries.count {
            var end = at + 1, size = tracepointSize(entries[at])
            while end < entries.count, entries[end].pid == entries[at].pid, size + tracepointSize(entries[end]) <= Self.firehoseLimit {
                size += tracepointSize(entries[end])
                end += 1
            }
            inner.append((archive.ticks(entries[at].wallNanoseconds), entries[at].pid, firehose(entries[at..<end], processes[entries[at].pid]!)))
            at = end
        }
        for dump in dumps { inner.append((archive.ticks(dump.wallNanoseconds), dump.pid, stateDump(dump, processes[dump.pid]!))) }
        inner.sort { $0.time < $1.time }
        var sets: [Chunkset] = []
        for (time, pid, chunk) in inner {
            if sets.isEmpty || sets[sets.count - 1].data.count + chunk.count > Self.chunksetLimit {
                sets.append(Chunkset(start: time, end: time, pids: [], data: []))
            }
            sets[sets.count - 1].end = time
            sets[sets.count - 1].data += chunk
            if !sets[sets.count - 1].pids.contains(pid) { sets[sets.count - 1].pids.append(pid) }
        }

        var out = ByteWriter()
        out.chunk(tag: Chunk.Tag.header.rawValue, subtag: 0x11, header(start: inner.first?.time ?? 0))
        out.chunk(tag: Chunk.Tag.catalog.rawValue, subtag: 0x11, catalog(order.map { processes[$0]! }, sets: sets))
        for set in sets { out.chunk(tag: Chunk.Tag.chunkset.rawValue, subtag: 0x11, LZ4Block.chunkset(set.data)) }
        return out.bytes
    }

    private func header(start: UInt64) -> [UInt8] {
        var out = ByteWriter()
        out.u32(UInt32(ArchiveWriter.numerator))
        out.u32(UInt32(ArchiveWriter.denominator))
        out.u64(start)
        out.u32(UInt32(truncatingIfNeeded: archive.bootWallSeconds))
        out.u32(0)
        out.u32(0)
        out.u32(0)  // minutes west of UTC
        out.u32(0)  // no daylight saving
        out.u32(1)  // 64-bit
        out.u32(0x6100)
        out.u32(8)
        out.u64(start)
        out.u32(0x6101)
        out.u32(56)
        out.u32(0x0100_000C)  // ARM64
        out.u32(1)
        out.field("19E258", width: 16)
        out.field("iPhone14,2", width: 32)
        out.u32(0x6102)
        out.u32(24)
        out.append(archive.bootUUID.bytes)
        out.u32(88)  // logd's pid
        out.u32(0)
        out.u32(0x6103)
        out.u32(48)
        out.field("/var/db/timezone/zoneinfo/UTC", width: 48)
        return out.bytes
    }

    /// UUIDs (each process's executable, then the shared cache), subsystem strings, process entries, then a sub chunk
    /// for each chunkset. Offsets count from the UUID array.
    private func catalog(_ processes: [Process], sets: [Chunkset]) -> [UInt8] {
        var uuids = processes.map { LogUUID(named: $0.path) }
        uuids.append(ArchiveWriter.sharedCacheUUID)
        var strings: [UInt8] = []
        var stringAt: [String: UInt16] = [:]
        for process in processes {
            for pair in process.subsystems {
                for part in pair.split(separator: "\0", omittingEmptySubsequences: false) where stringAt[String(part)] == nil {
                    stringAt[String(part)] = UInt16(strings.count)
                    strings += part.utf8
                    strings.append(0)
                }
            }
        }
        var entries = ByteWriter()
        for (index, process) in processes.enumerated() {
            let start = entries.count
            entries.u16(UInt16(processes.count - 1 - index))
            entries.u16(0)
            entries.u16(UInt16(index))
            entries.u16(UInt16(uuids.count - 1))
            entries.u64(process.first)
            entries.u32(process.pid)
            entries.u32(process.pid)
            entries.u32(501)
            entries.u32(0)
            entries.u32(0)  // no images loaded at addresses
            entries.u32(0)
            entries.u32(UInt32(process.subsystems.count))
            entries.u32(0)
            for (id, pair) in process.subsystems.enumerated() {
                let parts = pair.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
                entries.u16(Self.subsystemID(id))
                entries.u16(stringAt[parts[0]]!)
                entries.u16(stringAt[parts[1]]!)
            }
            entries.pad8(from: start)
        }
        var sub = ByteWriter()
        for set in sets {
            let start = sub.count
            sub.u64(set.start)
            sub.u64(set.end)
            sub.u32(UInt32(set.data.count))
            sub.u32(0x100)
            // Its processes by their entries' index fields, which count down from the last.
            sub.u32(UInt32(set.pids.count))
            for pid in set.pids { sub.u16(UInt16(processes.count - 1 - processes.firstIndex { $0.pid == pid }!)) }
            sub.u32(0)
            sub.pad8(from: start)
        }
        let stringsAt = uuids.count * 16
        var paddedStrings = strings
        while (stringsAt + paddedStrings.count) % 8 != 0 { paddedStrings.append(0) }
        let processesAt = stringsAt + paddedStrings.count
        let subAt = processesAt + entries.count
        var out = ByteWriter()
        out.u16(UInt16(stringsAt))
        out.u16(UInt16(processesAt))
        out.u16(UInt16(processes.count))
        out.u16(UInt16(subAt))
        out.u16(UInt16(sets.count))
        out.append([UInt8](repeating: 0, count: 6))
        out.u64(sets.first?.start ?? 0)
        for uuid in uuids { out.append(uuid.bytes) }
        out.append(paddedStrings)
        out.append(entries.bytes)
        out.append(sub.bytes)
        return out.bytes
    }

    static func subsystemID(_ index: Int) -> UInt16 { UInt16(0x40 + index) }

    private func tracepointSize(_ entry: ArchiveWriter.Entry) -> Int {
        let values = entry.arguments.reduce(0) { size, value in
            if case .string(let text) = value { return size + text.utf8.count + 1 }
            return size
        }
        return (24 + 4 + 2 + 2 + entry.arguments.count * 10 + values + 7) & ~7
    }

    /// A run of one process's entries: the preamble, then a log record for each.
    private func firehose(_ run: ArraySlice<ArchiveWriter.Entry>, _ process: Process) -> [UInt8] {
        let base = archive.ticks(run.first!.wallNanoseconds)
        var points = ByteWriter()
        for entry in run {
            let start = points.count
            var data = ByteWriter()
            data.u32(0x1_0000 + UInt32(start))  // the sender's address
            let subsystem = process.subsystems.firstIndex(of: entry.subsystem + "\0" + entry.category)
            if let subsystem { data.u16(Self.subsystemID(subsystem)) }
            data.u8(0x02)
            data.u8(UInt8(entry.arguments.count))
            var values: [UInt8] = []
            for value in entry.arguments {
                switch value {
                case .int(let number):
                    data.u8(0x00)
                    data.u8(8)
                    data.u64(UInt64(bitPattern: number))
                case .string(let text):
                    data.u8(0x22)
                    data.u8(4)
                    data.u16(UInt16(values.count))
                    data.u16(UInt16(text.utf8.count + 1))
                    values += text.utf8
                    values.append(0)
                case .hidden:
                    data.u8(0x01)
                    data.u8(4)
                    data.u32(0)
                }
            }
            data.append(values)
            let flags: UInt16 = (entry.library == nil ? 0x0002 : 0x0004) | (subsystem == nil ? 0 : 0x0200)
            let delta = archive.ticks(entry.wallNanoseconds) - base
            points.u8(Firehose.log)
            points.u8(entry.type.logType)
            points.u16(flags)
            points.u32(archive.reference(entry.format, of: entry))
            points.u64(entry.thread)
            points.u32(UInt32(truncatingIfNeeded: delta))
            points.u16(UInt16(truncatingIfNeeded: delta >> 32))
            points.u16(UInt16(data.count))
            points.append(data.bytes)
            points.pad8()
        }
        var out = ByteWriter()
        out.u64(process.first)
        out.u32(process.pid)
        out.u8(0)
        out.u8(0)
        out.u16(0)
        out.u16(UInt16(16 + points.count))
        out.u16(0x1000)  // no private data
        out.u16(0)
        out.u8(0)
        out.u8(1)
        out.u64(base)
        out.append(points.bytes)
        var chunk = ByteWriter()
        chunk.chunk(tag: Chunk.Tag.firehose.rawValue, subtag: 0, out.bytes)
        return chunk.bytes
    }

    /// A statedump of a binary plist holding the dump's text.
    private func stateDump(_ dump: ArchiveWriter.StateDump, _ process: Process) -> [UInt8] {
        let payload = BinaryPlistWriter.string(dump.text)
        var out = ByteWriter()
        out.u64(process.first)
        out.u32(process.pid)
        out.u32(0)
        out.u64(archive.ticks(dump.wallNanoseconds))
        out.u64(0)
        out.append(LogUUID(named: dump.process).bytes)
        out.u32(1)
        out.u32(UInt32(payload.count))
        out.field("", width: 64)
        out.field("", width: 64)
        out.field(dump.title, width: 64)
        out.append(payload)
        var chunk = ByteWriter()
        chunk.chunk(tag: Chunk.Tag.statedump.rawValue, subtag: 0, out.bytes)
        return chunk.bytes
    }
}

extension LogEntry.MessageType {
    var logType: UInt8 {
        switch self {
        case .default: 0x00
        case .info: 0x01
        case .debug: 0x02
        case .error: 0x10
        case .fault: 0x11
        }
    }
}
