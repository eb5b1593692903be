extension LZ4Block {
    /// `data` as a chunkset's body: one `bv41` block, then the `bv4$` end mark.
    static func chunkset(_ data: [UInt8]) -> [UInt8] {
        let block = encode(data)
        var out = ByteWriter()
        out.append(Array("bv41".utf8))
        out.u32(UInt32(data.count))
        out.u32(UInt32(block.count))
        out.append(block)
        out.append(Array("bv4$".utf8))
        return out.bytes
    }

    /// A greedy LZ4 block: each 4-byte run looked up in a table of where it was last seen, a match taken when it
    /// repeats within 64 KB. The format's end rules hold: the last 5 bytes are literals, and no match starts in the
    /// last 12.
    static func encode(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 2 + 16)
        var table = [Int](repeating: -1, count: 1 << 12)
        func hash(_ at: Int) -> Int {
            let word = UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
            return Int((word &* 2_654_435_761) >> 20)
        }
        func length(_ value: Int) {
            var rest = value
            while rest >= 255 {
                out.append(255)
                rest -= 255
            }
            out.append(UInt8(rest))
        }
        func sequence(literals: Range<Int>, match: (offset: Int, length: Int)?) {
            let literalCount = literals.count
            let matchCode = match.map { $0.length - 4 } ?? 0
            out.append(UInt8(min(literalCount, 15)) << 4 | UInt8(min(matchCode, 15)))
            if literalCount >= 15 { length(literalCount - 15) }
            out += input[literals]
            guard let match else { return }
            out.append(UInt8(truncatingIfNeeded: match.offset))
            out.append(UInt8(truncatingIfNeeded: match.offset >> 8))
            if matchCode >= 15 { length(matchCode - 15) }
        }
        var anchor = 0, at = 0
        let matchLimit = input.count - 12
        while at < matchLimit {
            let key = hash(at)
            let candidate = table[key]
            table[key] = at
            guard candidate >= 0, at - candidate <= 0xFFFF, input[candidate..<(candidate + 4)] == input[at..<(at + 4)] else {
                at += 1
                continue
            }
            var end = at + 4
            while end < input.count - 5, input[end] == input[end - at + candidate] { end += 1 }
            sequence(literals: anchor..<at, match: (at - candidate, end - at))
            at = end
            anchor = end
        }
        sequence(literals: anchor..<input.count, match: nil)
        return out
    }
}
