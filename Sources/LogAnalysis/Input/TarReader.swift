import System

/// A tar archive read as a stream, member by member, so that a sysdiagnose is analyzed straight from gzip's output
/// with no copy on disk and in bounded memory. It reads ustar and GNU headers (512-byte blocks, octal or base-256
/// sizes), GNU long names (`././@LongLink`) and the pax records macOS's tar writes for long names.
///
/// Whatever the archive says, what it holds at once is a block, a name of at most `TarName.limit` bytes and its read
/// buffer: a longer name is cut, and the rest of it, like every record it does not use, is skipped unread.
package final class TarReader<Source: ByteSource> {
    package struct Entry {
        package enum Kind {
            case file, directory
            /// A hard or symbolic link: a name for another member or file, with no data of its own.
            case link
            /// A sparse file, in GNU's form (type `S`, or pax `GNU.sparse.*` records): its data is a map, not its bytes.
            case sparse
            /// A device, a FIFO, or a type this reader does not know.
            case other
        }

        package let path: String
        package let size: Int
        package let kind: Kind
        /// The name was longer than `TarName.limit` bytes, and `path` is its start.
        package let cut: Bool
    }

    package static var blockSize: Int { 512 }

    private var source: Source
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0
    private var end = 0
    /// Bytes of the current member not yet read, then the padding to its block's end.
    private var remaining = 0
    private var padding = 0
    /// The archive ended inside a member or a header, or a header's checksum was wrong: it is damaged or cut short.
    package private(set) var damaged = false

    package init(_ source: Source) {
        self.source = source
    }

    /// Whether `head`, a file's first bytes, is a tar archive: `ustar` in its first header.
    package static func isTar(_ head: [UInt8]) -> Bool {
        head.count >= blockSize && head[257..<262].elementsEqual(bytes("ustar"))
    }

    /// The next member's header, after skipping whatever is left of the current member; nil at the archive's end.
    package func next() throws(SystemError) -> Entry? {
        try skip(remaining + padding)
        remaining = 0
        padding = 0
        var named: Name?
        var sparse = false
        while true {
            guard let header = try block() else { return nil }
            if header.allSatisfy({ $0 == 0 }) { return nil }
            guard Self.checksumMatches(header) else {
                damaged = true
                return nil
            }
            let size = Self.size(header)
            let type = header[156]
            switch type {
            case 76:
                // `L`: a GNU long name, for the next header's member.
                named = try longName(size)
                continue
            case 120:
                // `x`: pax records for the next header's member: its `path`, and whether it is sparse.
                let records = try paxRecords(size)
                named = records.path ?? named
                sparse = sparse || records.sparse
                continue
            case 75, 103:
                // `K` (a long link target) and `g` (pax records for the whole archive) name no member.
                try skip(size + Self.padding(size))
                continue
            case 83:
                // `S`: GNU's old sparse form, whose map may go on in blocks after the header, before the data.
                var extended = header[482] != 0
                while extended, let block = try block() { extended = block[504] != 0 }
                sparse = true
            default:
                break
            }
            remaining = size
            padding = Self.padding(size)
            let kind: Entry.Kind = switch type {
            case _ where sparse: .sparse
            case 48, 0, 55: .file
            case 53: .directory
            case 49, 50: .link
            default: .other
            }
            let name = named ?? Name(bytes: Self.path(header), cut: false)
            // Bytes that are not UTF-8 become U+FFFD, three bytes each: the name is held to the limit as decoded too.
            let path = String(decoding: name.bytes, as: UTF8.self)
            guard path.utf8.count > TarName.limit else { return Entry(path: path, size: size, kind: kind, cut: name.cut) }
            var kept = String.UnicodeScalarView()
            var count = 0
            for scalar in path.unicodeScalars {
                count += UTF8.width(scalar)
                guard count <= TarName.limit else { break }
                kept.append(scalar)
            }
            return Entry(path: String(kept), size: size, kind: kind, cut: true)
        }
    }

    /// Reads the current member's data into `buffer` from `offset`; 0 at its end.
    package func readMember(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        guard remaining > 0 else { return 0 }
        if start == end, try !fill() {
            damaged = true
            remaining = 0
            padding = 0
            return 0
        }
        let count = min(remaining, end - start, buffer.count - offset)
        Sys.copy(self.buffer, start..<start + count, to: &buffer, at: offset)
        start += count
        remaining -= count
        return count
    }

    // MARK: - Blocks

    private func fill() throws(SystemError) -> Bool {
        start = 0
        end = try source.read(into: &buffer, from: 0)
        return end > 0
    }

    /// The next 512 bytes; nil at the end (a missing end-of-archive marker is forgiven, a part block is damage).
    private func block() throws(SystemError) -> [UInt8]? {
        let data = try read(Self.blockSize)
        if data.count < Self.blockSize {
            if !data.isEmpty { damaged = true }
            return nil
        }
        return data
    }

    /// The next `count` bytes, or as many as there are.
    func read(_ count: Int) throws(SystemError) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(count)
        while data.count < count {
            if start == end, try !fill() { break }
            let n = min(count - data.count, end - start)
            data += buffer[start..<start + n]
            start += n
        }
        return data
    }

    /// The next byte, or nil at the end.
    func byte() throws(SystemError) -> UInt8? {
        if start == end, try !fill() { return nil }
        start += 1
        return buffer[start - 1]
    }

    /// Passes over the next `count` bytes unread; a source that ends first is damage.
    func skip(_ count: Int) throws(SystemError) {
        var left = count
        while left > 0 {
            if start == end, try !fill() {
                damaged = true
                return
            }
            let n = min(left, end - start)
            start += n
            left -= n
        }
    }

    /// The archive ended inside a header's data.
    func cutShort() { damaged = true }

    // MARK: - Header fields

    static func padding(_ size: Int) -> Int { (blockSize - size % blockSize) % blockSize }

    /// `prefix/name` of a ustar header; GNU headers keep other fields where ustar has its prefix.
    private static func path(_ header: [UInt8]) -> [UInt8] {
        let name = header[0..<100].prefix { $0 != 0 }
        let ustar = header[257..<263].elementsEqual(bytes("ustar\0"))
        let prefix = ustar ? header[345..<500].prefix { $0 != 0 } : []
        return prefix.isEmpty ? Array(name) : prefix + [47] + name
    }

    /// The size field: octal digits, or base-256 when its first byte's high bit is set (GNU, for 8 GiB and more).
    private static func size(_ header: [UInt8]) -> Int {
        let field = header[124..<136]
        if header[124] & 0x80 != 0 {
            return field.dropFirst().reduce(0) { $0 > Int.max >> 9 ? $0 : $0 << 8 | Int($1) }
        }
        return octal(field) ?? 0
    }

    /// The sum of the header's bytes with its checksum field read as spaces, as ustar defines it; some old tars
    /// summed signed bytes, and that is accepted too.
    private static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let stored = octal(header[148..<156]) else { return false }
        var unsigned = 0
        var signed = 0
        for (i, byte) in header.enumerated() {
            let value = (148..<156).contains(i) ? 32 : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        return stored == unsigned || stored == signed
    }

    private static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        for byte in field {
            switch byte {
            case 48...55 where digits < 21:
                value = value << 3 | Int(byte - 48)
                digits += 1
            case 32 where digits == 0:
                continue
            case 0, 32:
                return digits > 0 ? value : nil
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }
}

/// The current member of a tar archive, as a source of its own.
package struct TarMember<Source: ByteSource>: ByteSource {
    package let archive: TarReader<Source>

    package mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        try archive.readMember(into: &buffer, from: offset)
    }
}
