/// The CRC-32 of `bytes` (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib's `crc32` computes it.
///
/// `from` is the checksum of whatever came before, so a record's checksum can run over its pieces where they lie
/// instead of over a copy that joins them: `crc32(b, from: crc32(a)) == crc32(a + b)`.
///
/// Two concrete overloads, not one generic function: called from another module, a generic one would run
/// unspecialized, with a dynamic cast per call.
package func crc32(_ bytes: [UInt8], from: UInt32 = 0) -> UInt32 {
    ~CRC32.update(~from, bytes.span)
}

package func crc32(_ bytes: ArraySlice<UInt8>, from: UInt32 = 0) -> UInt32 {
    ~CRC32.update(~from, bytes.span)
}

/// Slicing-by-8: eight bytes per step through eight tables, several times faster than a byte at a time, which
/// matters because a saved session of thousands of tabs is checksummed on every save and every start.
enum CRC32 {
    /// `tables[k * 256 + b]` is the CRC of byte `b` followed by `k` zero bytes.
    package static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            tables[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = tables[(k - 1) * 256 + n]
                tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// Runs the register `crc` (already inverted) over `bytes`. Spans are bounds-checked: no unsafe code here.
    package static func update(_ crc: UInt32, _ bytes: Span<UInt8>) -> UInt32 {
        let t = tables.span
        var crc = crc
        var i = 0
        while bytes.count - i >= 8 {
            var word = UInt64(crc)
            for k in 0..<8 { word ^= UInt64(bytes[i + k]) << (8 * k) }
            let low = t[7 * 256 + Int(word & 0xFF)] ^ t[6 * 256 + Int((word >> 8) & 0xFF)]
                ^ t[5 * 256 + Int((word >> 16) & 0xFF)] ^ t[4 * 256 + Int((word >> 24) & 0xFF)]
            let high = t[3 * 256 + Int((word >> 32) & 0xFF)] ^ t[2 * 256 + Int((word >> 40) & 0xFF)]
                ^ t[1 * 256 + Int((word >> 48) & 0xFF)] ^ t[Int(word >> 56)]
            crc = low ^ high
            i += 8
        }
        while i < bytes.count {
            crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
            i += 1
        }
        return crc
    }
}
