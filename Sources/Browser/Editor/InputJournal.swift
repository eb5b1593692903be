import Glibc
import System

/// The editor's saved document on disk: an append-only file of acknowledged inputs, held locked for the run.
///
/// ```
/// header  magic (8) · u16 version · u16 zero · u32 CRC-32 of the 12 bytes before
/// record  u32 text length · u64 seq · u32 CRC-32 of the length, seq and text · text
/// synced  u32 0xFFFFFFFF · u64 seq of the last record synced · u32 CRC-32 of the 12 bytes before
/// ```
///
/// Seqs run 1, 2, 3… with no gap. Records queued by `append` reach the disk in `sync`: one write of every record
/// queued, then one fdatasync (a group commit per event-loop wake-up); an input counts as saved only once that
/// returned. Only then is a `synced` mark written after them: a mark proves that the records up to its seq were
/// on the disk. A damaged record that a later mark vouches for is a failing disk or a foreign hand, not a crash:
/// the journal is refused (`JournalDamage`) rather than cut, unless the run was told to salvage it. A damaged
/// record no mark vouches for is the torn tail of a write that never finished syncing: it is cut off with
/// whatever follows, never replayed half.
final class InputJournal {
    static let magic: [UInt8] = [0x89] + Array("SVJRNL".utf8) + [0x0A]
    static let version: UInt16 = 1
    static let headerSize = 16
    static let recordHeaderSize = 16
    /// Records larger than this are not the journal's: a corrupt length, not a long input.
    static let maxRecord = 1 << 20
    /// The largest journal read: every input it holds is kept in memory for the run.
    static let maxSize = 1 << 30
    /// The length field of a `synced` mark: no record is ever this long.
    static let syncedMarkLength = UInt32.max

    let file: LockedFile
    var path: String { file.path }
    /// The inputs read back when the journal was opened, in order, numbered from 1.
    private(set) var recovered: [(seq: UInt64, text: [UInt8])] = []
    /// Bytes of a torn tail that were dropped when it was opened.
    private(set) var tornBytes = 0
    /// Damage that was salvaged (`salvage`), for the run's report; nil when there was none.
    private(set) var salvaged: JournalDamage?
    /// Where the next record goes.
    private var end = 0
    private var pending: [UInt8] = []

    /// Opens (or creates) the journal at `path` and reads it back. Damage that a `synced` mark vouches for is an error
    /// unless `salvage` is set: then the intact records after it are kept, renumbered, and the journal rewritten
    /// without the damaged bytes.
    init(path: String, salvage: Bool = false) throws(FileError) {
        file = try LockedFile(path, leftovers: { $0.starts(with: Self.magic) })
        // Whose file it is, before how big it is: a file that is not a journal is never read whole.
        let head = try file.head(Self.headerSize)
        guard head.isEmpty || head.starts(with: Self.magic.prefix(head.count)) else {
            throw FileError(path, "use", .notOurs("an input journal"))
        }
        let bytes = try file.readAll(limit: Self.maxSize)
        do throws(SystemError) {
            if bytes.isEmpty || (bytes.count < Self.headerSize && Self.header.starts(with: bytes)) {
                // New, or its creation was cut short before the header was whole: nothing to lose.
                try Sys.truncate(file.fd, to: 0)
                try Sys.write(Self.header[...], to: file.fd, at: 0)
                try Sys.dataSync(file.fd)
                end = Self.headerSize
                return
            }
        } catch {
            throw FileError(path, "write", error)
        }
        guard bytes.count >= Self.headerSize, bytes.prefix(Self.headerSize).elementsEqual(Self.header) else {
            let version = bytes.count >= 10 ? UInt16(bytes[8]) | UInt16(bytes[9]) << 8 : 0
            let reason = version > Self.version
                ? "it is a journal of version \(version), newer than this supervisor's (\(Self.version))"
                : "its header is damaged"
            throw FileError(path, "use", .changed(reason))
        }
        let scan = JournalScan(bytes)
        if let damage = scan.damage {
            guard salvage else { throw FileError(path, "use", .changed(damage.description + Self.salvageHint)) }
            let records = scan.records(afterDamage: damage)
            try rewrite(records)
            recovered = records.enumerated().map { (UInt64($0.offset + 1), $0.element) }
            salvaged = damage
            return
        }
        recovered = scan.recovered
        end = scan.end
        tornBytes = bytes.count - scan.end
        if tornBytes > 0 {
            do throws(SystemError) { try Sys.truncate(file.fd, to: end) } catch { throw FileError(path, "write", error) }
        }
    }

    private static let salvageHint =
        "; nothing was changed. Give --salvage-journal to keep the intact inputs and drop the damaged bytes"

    static var header: [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        append(UInt16(0), to: &bytes)
        append(crc32(bytes), to: &bytes)
        return bytes
    }

    /// Replaces the journal with `records`, numbered from 1, and a synced mark, in one step.
    func rewrite(_ records: some Collection<[UInt8]>) throws(FileError) {
        var bytes = Self.header
        for (i, text) in records.enumerated() { Self.appendRecord(seq: UInt64(i + 1), text: text, to: &bytes) }
        Self.appendSyncedMark(seq: UInt64(records.count), to: &bytes)
        do throws(SystemError) { try file.replaceContents(with: bytes) } catch { throw FileError(path, "write", error) }
        end = bytes.count
    }

    func append(seq: UInt64, text: [UInt8]) {
        Self.appendRecord(seq: seq, text: text, to: &pending)
        pendingSeq = seq
    }

    private var pendingSeq: UInt64 = 0
    var hasPending: Bool { !pending.isEmpty }
    /// The thread the run's syncs wait on the disk from, so that the event loop never does; made by the first.
    private var queue: DiskQueue?
    /// Whether a sync is on the disk thread: records queued meanwhile go in the next.
    var syncing: Bool { queue?.isBusy == true }

    /// Does what `sync` does on a thread of its own, for every record queued: `done` runs on `loop` once the
    /// records and their mark are written, with the size the file was found at and the size the run wrote if it no
    /// longer holds that (the caller then writes it again whole, `rewrite(_:)`), or nil. One sync at a time: a caller waits
    /// until `syncing` is over.
    func beginSync(on loop: EventLoop, then done: @escaping (Result<(found: Int, written: Int)?, FileError>) -> Void)
        throws(SystemError)
    {
        precondition(!pending.isEmpty && !syncing, "a journal sync with nothing to write, or beside another")
        if queue == nil { queue = try DiskQueue(loop: loop) }
        let (file, at, records, mark) = (file, end, pending, takePending())
        end += records.count + mark.count
        let outcome = SyncOutcome()
        queue?.submit({
            outcome.result = Result { () throws(FileError) -> (found: Int, written: Int)? in
                try Self.write(records, then: mark, to: file, at: at)
                let written = at + records.count + mark.count
                return try file.checkInPlace(written: written).map { ($0, written) }
            }
        }) { done(outcome.result!) }
    }

    /// Waits for the sync on the disk thread, if there is one, and runs its completion.
    func waitForSync() { queue?.drain() }

    /// Empties the queue of records, returning the `synced` mark that vouches for them.
    private func takePending() -> [UInt8] {
        var mark: [UInt8] = []
        Self.appendSyncedMark(seq: pendingSeq, to: &mark)
        pending = []
        return mark
    }

    /// Writes `records` at `offset`, waits for the disk, and only then writes their `mark` after them.
    private static func write(_ records: [UInt8], then mark: [UInt8], to file: LockedFile, at offset: Int)
        throws(FileError)
    {
        do throws(SystemError) {
            try Sys.write(records[...], to: file.fd, at: offset)
            try Sys.dataSync(file.fd)
            try Sys.write(mark[...], to: file.fd, at: offset + records.count)
        } catch {
            throw FileError(file.path, "write", error)
        }
    }

    /// Writes every queued record (if any), waits for the disk, marks them synced, then checks that the file is
    /// still the journal, as written: a journal deleted or replaced during the run saves nothing, and the run must
    /// say so. One another process cut short or wrote to (`: > FILE`, a copy-truncate rotation) lost inputs it
    /// had saved: it is written again whole from `inputs`, every input acknowledged so far, and the size it was
    /// found at is returned, with the size the run had written, for the run to report.
    func sync(inputs: some Collection<[UInt8]>) throws(FileError) -> (found: Int, written: Int)? {
        precondition(!syncing, "a journal sync beside another")
        if !pending.isEmpty {
            let (records, mark) = (pending, takePending())
            try Self.write(records, then: mark, to: file, at: end)
            end += records.count + mark.count
        }
        guard let found = try file.checkInPlace(written: end) else { return nil }
        let written = end
        try rewrite(inputs)
        return (found, written)
    }

    // MARK: - Encoding

    static func appendRecord(seq: UInt64, text: [UInt8], to bytes: inout [UInt8]) {
        let start = bytes.count
        append(UInt32(text.count), to: &bytes)
        append(seq, to: &bytes)
        let checksum = crc32(text, from: crc32(bytes[start...]))
        append(checksum, to: &bytes)
        bytes += text
    }

    static func appendSyncedMark(seq: UInt64, to bytes: inout [UInt8]) {
        let start = bytes.count
        append(syncedMarkLength, to: &bytes)
        append(seq, to: &bytes)
        append(crc32(bytes[start...]), to: &bytes)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for i in 0..<MemoryLayout<T>.size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }
}

/// What a sync on the disk thread found, handed back to the loop.
private final class SyncOutcome: @unchecked Sendable {
    var result: Result<(found: Int, written: Int)?, FileError>?
}
