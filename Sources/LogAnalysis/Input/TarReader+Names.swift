import System

/// Member names in a tar archive.
package enum TarName {
    /// The longest name kept: Apple's PATH_MAX (the systems that write sysdiagnoses), so longer than any real path
    /// in one. A longer one is cut, the rest skipped.
    package static let limit = 1024
}

/// The records that name the next member: GNU's long name and pax's `path`, read in bounded memory. A name is kept
/// up to `TarName.limit` bytes and the rest of it skipped; the values of other pax records are skipped unread.
extension TarReader {
    /// A member's name as the archive spells it, at most `TarName.limit` bytes of it.
    struct Name {
        var bytes: [UInt8]
        /// It went on past `TarName.limit` bytes.
        var cut: Bool
    }

    /// A GNU long name: `size` bytes of data, the name ended by a NUL, then the padding to the block's end.
    func longName(_ size: Int) throws(SystemError) -> Name {
        let data = try read(min(size, TarName.limit + 1))
        try skip(size - data.count + Self.padding(size))
        let name = data.prefix { $0 != 0 }
        return Name(bytes: Array(name.prefix(TarName.limit)), cut: name.count > TarName.limit)
    }

    /// Pax records (`LENGTH key=value\n`, LENGTH counting the whole record) in `size` bytes of data: the `path`
    /// among them, and whether any is GNU's mark of a sparse file (`GNU.sparse.*`, whose `GNU.sparse.name` is then
    /// the name). Records that do not parse end the reading; the rest of the data is skipped.
    func paxRecords(_ size: Int) throws(SystemError) -> (path: Name?, sparse: Bool) {
        var left = size
        var path: Name?
        var sparseName: Name?
        var sparse = false
        records: while left > 0 {
            var length = 0
            var digits = 0
            while true {
                guard left > 0 else { break records }
                guard let byte = try byte() else {
                    cutShort()
                    break records
                }
                left -= 1
                if byte == 32, digits > 0 { break }
                guard byte &- 48 < 10, digits < 18 else { break records }
                length = length * 10 + Int(byte - 48)
                digits += 1
            }
            // What is left of the record: `key=value\n`.
            var body = length - digits - 1
            guard body > 0, body <= left else { break }
            left -= body
            var key: [UInt8] = []
            while body > 0 {
                guard let byte = try byte() else {
                    cutShort()
                    break records
                }
                body -= 1
                if byte == 61 { break }
                if key.count < 32 { key.append(byte) }
            }
            if key.starts(with: bytes("GNU.sparse.")) { sparse = true }
            let naming = key == bytes("path") || key == bytes("GNU.sparse.name")
            guard naming, body > 0 else {
                try skip(body)
                continue
            }
            let value = try read(min(body - 1, TarName.limit))
            try skip(body - value.count)
            let name = Name(bytes: value, cut: body - 1 > TarName.limit)
            if key == bytes("path") { path = name } else { sparseName = name }
        }
        try skip(left + Self.padding(size))
        return (sparseName ?? path, sparse)
    }
}
