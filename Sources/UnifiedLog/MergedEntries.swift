/// The entries of many tracev3 files in time order, in bounded memory: the files' top-level chunks are indexed
/// first (preambles, headers, catalogs: a few reads per file), then chunksets are decoded one at a time in the order
/// of their earliest entry (their catalog's sub chunks say it), and an entry is handed out once no chunkset still to
/// be decoded can hold an earlier one. Memory holds the index and the entries of chunksets that overlap in time.
public final class MergedEntries: Sequence, IteratorProtocol {
    /// A tracev3 file: its name, its size, and a way to read a range of it.
    public struct Input {
        public let name: String
        public let size: Int
        public let read: (Range<Int>) throws -> [UInt8]

        public init(name: String, size: Int, read: @escaping (Range<Int>) throws -> [UInt8]) {
            self.name = name
            self.size = size
            self.read = read
        }
    }

    /// A chunkset to decode: its file, its catalog, where its data lies, and its earliest time on the wall clock.
    private struct Pending {
        let file: Int
        let catalog: Int
        let data: Range<Int>
        let start: Int
    }

    private struct File {
        let input: Input
        let header: TraceHeader
        var catalogs: [Catalog] = []
        /// What one chunkset's reading leaves the next of the same file: oversize chunks, processes' paths.
        var reading: Reading
    }

    private var files: [File] = []
    private var pending: [Pending] = []
    private var decoded = 0
    private var heap = EntryHeap()
    private let strings: FormatStrings?
    private let timesync: Timesync
    private let keep: ((EntryWriter) -> Bool)?

    /// What could not be read, by file name: a file, a chunk.
    public private(set) var failures: [(file: String, failure: ChunkFailure)] = []
    public private(set) var stateDumps: [StateDumpRecord] = []
    public private(set) var skipped = TraceFile.Skipped()
    /// Log entries `keep` passed over in the chunksets decoded, and the chunksets not decoded at all: those whose
    /// processes write nothing it keeps.
    public private(set) var passedOver = 0
    public private(set) var passedOverChunksets = 0
    public private(set) var unformatted = 0
    /// Each file's header, in the order the files were given: the device's build and model.
    public var headers: [TraceHeader] { files.map(\.header) }

    public init(_ inputs: [Input], strings: FormatStrings?, timesync: Timesync = Timesync(), keep: ((EntryWriter) -> Bool)?) {
        self.strings = strings
        self.timesync = timesync
        self.keep = keep
        for input in inputs { index(input) }
        pending.sort { ($0.start, $0.file, $0.data.lowerBound) < ($1.start, $1.file, $1.data.lowerBound) }
    }

    public func next() -> LogEntry? {
        while decoded < pending.count, heap.firstTime.map({ $0 >= pending[decoded].start }) ?? true {
            decode(pending[decoded])
            decoded += 1
        }
        return heap.pop()
    }

    /// The file's header, catalogs and where its chunksets lie, read a preamble at a time, up to any damage.
    private func index(_ input: Input) {
        func failed(_ failure: ChunkFailure) { failures.append((input.name, failure)) }
        var file: File?
        do throws(ChunkFailure) {
            guard input.size > 0 else { throw ChunkFailure(offset: 0, reason: "an empty file, not a tracev3 file") }
            var at = 0, ordinal = 0
            while at < input.size {
                guard input.size - at >= Chunk.preambleSize else { throw ChunkFailure(offset: at, reason: "a chunk preamble cut short") }
                let preamble = try read(input, at..<(at + Chunk.preambleSize))
                let size = Int(clamping: preamble.u64(8))
                let start = at + Chunk.preambleSize
                guard size <= input.size - start else {
                    throw ChunkFailure(offset: at, reason: "a chunk of \(size) bytes where \(input.size - start) remain")
                }
                let data = start..<(start + size)
                // A chunk read alone: its preamble, then its data at 16; what fails in it is told at its place.
                func chunk() throws(ChunkFailure) -> (bytes: [UInt8], chunk: Chunk) {
                    (try read(input, at..<data.upperBound), Chunk(tag: preamble.u32(0), subtag: 0, data: 16..<(16 + size)))
                }
                func placed(_ failure: ChunkFailure) -> ChunkFailure { ChunkFailure(offset: at + failure.offset - 16, reason: failure.reason) }
                switch Chunk.Tag(rawValue: preamble.u32(0)) {
                case .header? where file == nil:
                    let (bytes, header) = try chunk()
                    do throws(ChunkFailure) {
                        var read = try TraceHeader(bytes, header)
                        read.clock = timesync.boots[read.bootUUID]
                        file = File(input: input, header: read, reading: Reading(strings: strings, keep: keep))
                    } catch {
                        throw placed(error)
                    }
                case .catalog? where file != nil:
                    let (bytes, catalog) = try chunk()
                    do throws(ChunkFailure) { file!.catalogs.append(try Catalog(bytes, catalog)) } catch { failed(placed(error)) }
                    ordinal = 0
                case .chunkset? where file != nil && !file!.catalogs.isEmpty:
                    let catalog = file!.catalogs[file!.catalogs.count - 1]
                    let sub = ordinal < catalog.chunksets.count ? catalog.chunksets[ordinal] : nil
                    ordinal += 1
                    // A chunkset whose every process writes only what `keep` passes over is not decoded at all.
                    if let sub, !sub.processes.isEmpty, !sub.processes.contains(where: { mayKeep(catalog, $0) }) {
                        passedOverChunksets += 1
                        break
                    }
                    pending.append(Pending(
                        file: files.count, catalog: file!.catalogs.count - 1, data: data,
                        start: file!.header.wallNanoseconds(sub?.start ?? catalog.earliest)))
                case _ where file == nil:
                    throw ChunkFailure(offset: 0, reason: "no header chunk: not a tracev3 file")
                case .chunkset?:
                    failed(ChunkFailure(offset: data.lowerBound, reason: "a chunkset before any catalog"))
                default:
                    skipped.unknownChunks += 1
                }
                at = Swift.min(input.size, (data.upperBound + 7) & ~7)
            }
        } catch {
            // What was indexed before the damage is read still.
            failed(error)
        }
        if let file { files.append(file) } else { pending.removeAll { $0.file == files.count } }
    }

    /// Whether the process of `catalog` with entry index `index` writes anything `keep` keeps; one the catalog does
    /// not name may.
    private func mayKeep(_ catalog: Catalog, _ index: UInt16) -> Bool {
        guard keep != nil, let process = catalog.processes.values.first(where: { $0.index == index }) else { return true }
        let path = strings.flatMap { strings in catalog.uuid(process.mainUUID).flatMap(strings.imagePath) } ?? ""
        return Reading(strings: strings, keep: keep).mayKeep(process, path: path)
    }

    /// Decodes a chunkset, its entries onto the heap; what fails is noted, at its place in the file.
    private func decode(_ chunkset: Pending) {
        let file = files[chunkset.file]
        do throws(ChunkFailure) {
            let bytes = try read(file.input, chunkset.data)
            let data: [UInt8]
            do throws(ChunkFailure) { data = try Chunkset.decode(bytes, bytes.indices) } catch {
                throw ChunkFailure(offset: chunkset.data.lowerBound + error.offset, reason: error.reason)
            }
            let (inner, failure) = Chunk.walk(data)
            if let failure { failures.append((file.input.name, failure)) }
            var reading = file.reading
            for chunk in inner {
                TraceFile.read(data, chunk, catalog: file.catalogs[chunkset.catalog], header: file.header, into: &reading)
            }
            for entry in reading.entries { heap.push(entry) }
            stateDumps += reading.stateDumps
            skipped.add(reading.skipped)
            passedOver += reading.passedOver
            unformatted += reading.unformatted
            // What the chunkset's chunks could not give is told inside its decoded data, not at a place in the file.
            failures += reading.failures.map { (file.input.name, ChunkFailure(offset: chunkset.data.lowerBound, reason: $0.reason)) }
            files[chunkset.file].reading = reading.next()
        } catch {
            failures.append((file.input.name, error))
        }
    }

    private func read(_ input: Input, _ range: Range<Int>) throws(ChunkFailure) -> [UInt8] {
        do {
            let bytes = try input.read(range)
            guard bytes.count == range.count else { throw ChunkFailure(offset: range.lowerBound, reason: "the file is shorter than it was") }
            return bytes
        } catch let failure as ChunkFailure {
            throw failure
        } catch {
            throw ChunkFailure(offset: range.lowerBound, reason: "cannot be read: \(error)")
        }
    }
}

/// The entries decoded and not yet handed out, the earliest first (those of one moment in the order decoded). The
/// heap orders small keys; the entries themselves stay in their slots, moved once in and once out.
struct EntryHeap {
    private var keys: [(time: Int, order: Int, slot: Int)] = []
    private var slots: [LogEntry?] = []
    private var free: [Int] = []
    private var count = 0

    /// The earliest entry's time.
    var firstTime: Int? { keys.first?.time }

    private func less(_ a: Int, _ b: Int) -> Bool { (keys[a].time, keys[a].order) < (keys[b].time, keys[b].order) }

    mutating func push(_ entry: LogEntry) {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        keys.append((entry.wallNanoseconds, count, slot))
        count += 1
        var child = keys.count - 1
        while child > 0, less(child, (child - 1) / 2) {
            keys.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func pop() -> LogEntry? {
        guard !keys.isEmpty else { return nil }
        keys.swapAt(0, keys.count - 1)
        let top = keys.removeLast().slot
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var least = parent
            if left < keys.count, less(left, least) { least = left }
            if right < keys.count, less(right, least) { least = right }
            if least == parent { break }
            keys.swapAt(parent, least)
            parent = least
        }
        free.append(top)
        return slots[top].take()
    }
}
