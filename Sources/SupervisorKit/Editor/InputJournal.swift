import Glibc

/// The editor's saved document on disk: an append-only file of acknowledged inputs, one record each.
///
/// A record is `[u32 LE text length][u64 LE seq][u32 LE CRC-32 of the length, seq and text][text]`, and seqs run
/// 1, 2, 3… with no gap. Opening the file reads every record back; the first one that is short, fails its checksum
/// or breaks the sequence ends the journal there: it is the torn tail of a write the supervisor did not finish,
/// so it is cut off the file, never replayed half.
///
/// Records are queued by `append` and reach the disk in `sync`, which writes them and then calls fdatasync once:
/// a group commit per event-loop wake-up. An input counts as saved only when the sync that carried it returned.
final class InputJournal {
    static let headerSize = 16
    /// Records larger than this are not the journal's: a corrupt length, not a long input.
    static let maxRecord = 1 << 20

    let path: String
    private let fd: Int32
    /// The inputs read back when the journal was opened, in order.
    private(set) var recovered: [(seq: UInt64, text: [UInt8])] = []
    /// Bytes of a torn tail that were dropped when it was opened.
    private(set) var tornBytes = 0
    private var pending: [UInt8] = []

    init(path: String) throws(SystemError) {
        self.path = path
        fd = try Sys.open(path, O_RDWR | O_CREAT)
        do {
            let bytes = try Sys.readAll(fd)
            let end = recover(bytes)
            if end < bytes.count {
                tornBytes = bytes.count - end
                try Sys.truncate(fd, to: end)
            }
            _ = lseek(fd, off_t(end), SEEK_SET)
        } catch {
            Sys.close(fd)
            throw error
        }
    }

    deinit { Sys.close(fd) }

    /// Reads records from the start of `bytes`; returns where the valid ones end.
    private func recover(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while bytes.count - offset >= Self.headerSize {
            let length = Int(Self.integer(bytes, at: offset, as: UInt32.self))
            let seq = Self.integer(bytes, at: offset + 4, as: UInt64.self)
            let checksum = Self.integer(bytes, at: offset + 12, as: UInt32.self)
            guard length <= Self.maxRecord, bytes.count - offset - Self.headerSize >= length,
                seq == UInt64(recovered.count + 1)
            else { break }
            let text = Array(bytes[(offset + Self.headerSize)..<(offset + Self.headerSize + length)])
            guard crc32(text, from: crc32(bytes[offset..<(offset + 12)])) == checksum else { break }
            recovered.append((seq, text))
            offset += Self.headerSize + length
        }
        return offset
    }

    func append(seq: UInt64, text: [UInt8]) {
        var header: [UInt8] = []
        withUnsafeBytes(of: UInt32(text.count).littleEndian) { header += $0 }
        withUnsafeBytes(of: seq.littleEndian) { header += $0 }
        let checksum = crc32(text, from: crc32(header))
        pending += header
        withUnsafeBytes(of: checksum.littleEndian) { pending += $0 }
        pending += text
    }

    var hasPending: Bool { !pending.isEmpty }

    /// Writes every queued record, then waits for the disk. A failure is the caller's to report: inputs are not
    /// saved.
    func sync() throws(SystemError) {
        guard !pending.isEmpty else { return }
        let bytes = pending
        pending = []
        try Sys.write(bytes, to: fd)
        try Sys.dataSync(fd)
    }

    private static func integer<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as: T.Type) -> T {
        var value = T.zero
        for i in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + i]) << (8 * i) }
        return value
    }
}
