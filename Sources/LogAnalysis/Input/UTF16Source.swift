import System

/// A UTF-16 log (Windows tools and some copies from Console save one) read as the UTF-8 the analyzer expects: each
/// block is transcoded as it is read, in bounded memory. A byte-order mark is dropped; a lone surrogate, or an odd
/// byte at the end, becomes U+FFFD.
package struct UTF16Source<Base: ByteSource>: ByteSource {
    private var base: Base
    private let order: UTF16Order
    private var input = [UInt8](repeating: 0, count: 32 << 10)
    /// Input bytes not yet transcoded: at most one, the first half of a unit.
    private var carried = 0
    private var high: UInt16?
    private var output: [UInt8] = []
    private var handedOut = 0
    private var started = false
    private var ended = false

    package init(_ base: Base, order: UTF16Order) {
        self.base = base
        self.order = order
    }

    package mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        while handedOut == output.count {
            guard !ended else { return 0 }
            try transcodeNextBlock()
        }
        let count = min(output.count - handedOut, buffer.count - offset)
        Sys.copy(output, handedOut..<handedOut + count, to: &buffer, at: offset)
        handedOut += count
        return count
    }

    private mutating func transcodeNextBlock() throws(SystemError) {
        output.removeAll(keepingCapacity: true)
        handedOut = 0
        let count = try base.read(into: &input, from: carried)
        let end = carried + count
        if count == 0 {
            ended = true
            if carried > 0 || high != nil { append(0xFFFD) }
            carried = 0
            high = nil
            return
        }
        var i = 0
        while i + 1 < end {
            let unit = order == .littleEndian ? UInt16(input[i]) | UInt16(input[i + 1]) << 8 : UInt16(input[i]) << 8 | UInt16(input[i + 1])
            i += 2
            take(unit)
        }
        carried = end - i
        if carried == 1 { input[0] = input[i] }
    }

    private mutating func take(_ unit: UInt16) {
        if let first = high {
            high = nil
            if (0xDC00..<0xE000).contains(unit) {
                return append(0x10000 + (UInt32(first - 0xD800) << 10) + UInt32(unit - 0xDC00))
            }
            append(0xFFFD)
        }
        defer { started = true }
        switch unit {
        case 0xFEFF where !started: return
        case 0xD800..<0xDC00: high = unit
        case 0xDC00..<0xE000: append(0xFFFD)
        default: append(UInt32(unit))
        }
    }

    private mutating func append(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

package enum UTF16Order {
    case littleEndian, bigEndian

    /// UTF-16 told from a file's first bytes: a byte-order mark, or text whose every other byte is NUL (ASCII in
    /// UTF-16 without a mark).
    package static func of(_ head: [UInt8]) -> UTF16Order? {
        if head.starts(with: [0xFF, 0xFE]) { return .littleEndian }
        if head.starts(with: [0xFE, 0xFF]) { return .bigEndian }
        let pairs = min(head.count, 4096) / 2
        guard pairs >= 8 else { return nil }
        var evenNULs = 0
        var oddNULs = 0
        for i in 0..<pairs {
            if head[2 * i] == 0 { evenNULs += 1 }
            if head[2 * i + 1] == 0 { oddNULs += 1 }
        }
        if oddNULs * 10 >= pairs * 9, evenNULs * 10 < pairs { return .littleEndian }
        if evenNULs * 10 >= pairs * 9, oddNULs * 10 < pairs { return .bigEndian }
        return nil
    }
}
