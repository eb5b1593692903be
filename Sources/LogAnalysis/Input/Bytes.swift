import System

/// Safe readers over one line's bytes: the analyzer parses bytes and builds a `String` only for what it keeps.
extension Span where Element == UInt8 {
    /// Where `needle` first occurs at or after `start` (memmem).
    func index(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard start >= 0, start < count else { return nil }
        return Sys.firstIndex(of: needle, in: extracting(start..<count)).map { $0 + start }
    }

    func contains(_ needle: [UInt8]) -> Bool { Sys.firstIndex(of: needle, in: self) != nil }

    /// Where `byte` first occurs in `start..<end`.
    func index(of byte: UInt8, from start: Int, to end: Int? = nil) -> Int? {
        var i = Swift.max(0, start)
        let end = Swift.min(end ?? count, count)
        while i < end {
            if self[i] == byte { return i }
            i += 1
        }
        return nil
    }

    func matches(_ literal: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + literal.count <= count else { return false }
        for (i, byte) in literal.enumerated() where self[offset + i] != byte { return false }
        return true
    }

    func byte(_ i: Int) -> UInt8 { i >= 0 && i < count ? self[i] : 0 }

    func isDigit(_ i: Int) -> Bool { byte(i) &- 48 < 10 }

    func isHexDigit(_ i: Int) -> Bool { isDigit(i) || (byte(i) | 0x20) &- 97 < 6 }

    /// A number written in exactly `width` digits at `i`.
    func number(at i: Int, width: Int) -> Int? {
        var value = 0
        for j in i..<i + width {
            guard isDigit(j) else { return nil }
            value = value * 10 + Int(self[j] - 48)
        }
        return value
    }

    /// The decimal number starting at `i` (at most 18 digits, so it cannot overflow) and the index after it.
    func number(at i: Int) -> (value: Int, end: Int)? {
        var j = i
        var value = 0
        while isDigit(j), j - i < 18 {
            value = value * 10 + Int(self[j] - 48)
            j += 1
        }
        return j > i ? (value, j) : nil
    }

    /// The hexadecimal number starting at `i` (at most `digits` digits) and the index after it.
    func hexNumber(at i: Int, digits: Int = 16) -> (value: UInt64, end: Int)? {
        var j = i
        var value: UInt64 = 0
        while isHexDigit(j), j - i < digits {
            let byte = self[j] | 0x20
            value = value &* 16 &+ UInt64(byte <= 57 ? byte - 48 : byte - 87)
            j += 1
        }
        return j > i ? (value, j) : nil
    }

    /// The number after the first `marker` at or after `start`, spaces allowed in between.
    func number(after marker: [UInt8], from start: Int = 0) -> Int? {
        guard let at = index(of: marker, from: start) else { return nil }
        return number(at: skipping(32, from: at + marker.count))?.value
    }

    func skipping(_ byte: UInt8, from i: Int) -> Int {
        var j = i
        while j < count, self[j] == byte { j += 1 }
        return j
    }

    func skippingBlanks(from i: Int) -> Int {
        var j = i
        while j < count, self[j] == 32 || self[j] == 9 { j += 1 }
        return j
    }

    func string(_ range: Range<Int>) -> String {
        let range = Swift.max(0, range.lowerBound)..<Swift.min(count, range.upperBound)
        guard !range.isEmpty else { return "" }
        var bytes = [UInt8]()
        bytes.reserveCapacity(range.count)
        for i in range { bytes.append(self[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Byte strings the analyzer looks for.
package func bytes(_ text: StaticString) -> [UInt8] {
    text.withUTF8Buffer { Array($0) }
}
