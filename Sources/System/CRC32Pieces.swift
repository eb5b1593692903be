/// The CRC-32 of any piece of a byte array, in a constant number of steps whatever the piece's length, for pieces
/// asked for in the order they start.
///
/// A scan that looks for checksummed records at every offset of damaged bytes (`JournalScan`'s salvage) would
/// otherwise run the CRC over each candidate's whole claimed length: up to a megabyte per offset, so a crafted
/// megabyte cost 16 s. Here the bytes are run through once, keeping the checksum of every prefix for the last
/// `maxLength` positions, and a piece's checksum is found from the two prefixes around it.
///
/// The algebra is the one behind zlib's `crc32_combine`: a CRC-32 is linear over GF(2), so for pieces `a` and `b`,
/// `crc32(a + b) == crc32(a) · x^(8·|b|) + crc32(b)` modulo the CRC's polynomial. With `P(i)` the checksum of the
/// bytes from the start up to `i`, that makes `crc32(bytes[s..<e], from: h) == (h + P(s)) · x^(8·(e - s)) + P(e)`;
/// the powers of x are kept for every length up to `maxLength`.
package struct CRC32Pieces {
    private let bytes: [UInt8]
    private let start: Int
    /// `powers[k]` is x^(8k) modulo the polynomial, in the reflected form the checksums take.
    private let powers: [UInt32]
    /// A ring of the checksums of `bytes[start..<i]` for the last `prefixes.count` positions, up to `reached`,
    /// whose own is at `slot`.
    private var prefixes: [UInt32]
    private var reached: Int
    private var slot = 0
    /// The CRC register (inverted) at `reached`.
    private var register: UInt32 = ~0

    /// Pieces of `bytes` that begin at or after `start`, of at most `maxLength` bytes.
    package init(_ bytes: [UInt8], from start: Int, maxLength: Int) {
        precondition(start >= 0 && start <= bytes.count)
        let maxLength = max(0, min(maxLength, bytes.count - start))
        var powers = [UInt32](repeating: 0, count: maxLength + 1)
        powers[0] = 0x8000_0000
        // Multiplying by x^8 is running the CRC over one zero byte.
        for k in stride(from: 1, through: maxLength, by: 1) {
            powers[k] = CRC32.tables[Int(powers[k - 1] & 0xFF)] ^ (powers[k - 1] >> 8)
        }
        self.bytes = bytes
        self.start = start
        self.powers = powers
        prefixes = [UInt32](repeating: 0, count: maxLength + 1)
        reached = start
    }

    /// `crc32(bytes[range], from: from)`. The range is at most `maxLength` long, and starts no earlier than
    /// `maxLength` bytes before the end of any range asked for before it.
    package mutating func crc32(of range: Range<Int>, from: UInt32 = 0) -> UInt32 {
        precondition(range.count < powers.count)
        let before = prefix(at: range.lowerBound)
        let through = prefix(at: range.upperBound)
        return Self.multiply(powers[range.count], from ^ before) ^ through
    }

    /// The checksum of `bytes[start..<position]`.
    private mutating func prefix(at position: Int) -> UInt32 {
        precondition(position >= start && position <= bytes.count && reached - position < prefixes.count)
        if reached < position {
            let (tables, bytes, from) = (CRC32.tables, bytes, reached)
            var (register, slot) = (register, slot)
            do {
                let (table, input) = (tables.span, bytes.span)
                var ring = prefixes.mutableSpan
                for i in from..<position {
                    register = table[Int((register ^ UInt32(input[i])) & 0xFF)] ^ (register >> 8)
                    slot = slot + 1 == ring.count ? 0 : slot + 1
                    ring[slot] = ~register
                }
            }
            (self.register, self.slot, reached) = (register, slot, position)
        }
        let back = slot - (reached - position)
        return prefixes[back < 0 ? back + prefixes.count : back]
    }

    /// x^4 · n modulo the polynomial for each n of degree below 4 shifted out of a reflected word's low nibble: what
    /// multiplying by x^4 folds back in.
    private static let fold: [UInt32] = (0..<16).map { n in
        var c = UInt32(n)
        for _ in 0..<4 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }

    /// `a · b` modulo the polynomial, both reflected (the top bit is x⁰): four bits of `a` at a time, from its
    /// highest powers, through `b` times each of the 16 polynomials of degree below 4.
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var times = InlineArray<16, UInt32>(repeating: 0)
        // A nibble's top bit is x⁰ of its four powers, as in the reflected word: b · x^k goes with bit 8 >> k.
        var power = b
        var bit = 8
        while bit > 0 {
            var n = 0
            while n < 16 {
                times[n | bit] = times[n] ^ power
                n += 2 * bit
            }
            power = (power >> 1) ^ (0xEDB8_8320 & (0 &- (power & 1)))
            bit >>= 1
        }
        let fold = fold.span
        var product: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            product = (product >> 4) ^ fold[Int(product & 0xF)] ^ times[Int((a >> shift) & 0xF)]
            shift += 4
        }
        return product
    }
}
