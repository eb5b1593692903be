/// LZ4's block format, as the unified log's `bv41` chunksets hold it (lz4/lz4, doc/lz4_Block_format.md): sequences
/// of literals copied as they are and matches copied from the output already written. Every length and offset is
/// checked against the input and the output's declared size: damaged input is an error, never a read or write out
/// of bounds.
public enum LZ4Block {
    public enum Failure: Error, Equatable {
        /// The input ended inside a sequence.
        case truncated
        /// A match reaches before the start of the output, or has offset 0.
        case badOffset
        /// The output would outgrow the size the block declared.
        case overlong
        /// The block ended short of the size it declared.
        case short(Int)
    }

    /// Decodes `input` (a whole block) to exactly `size` bytes.
    public static func decode(_ input: ArraySlice<UInt8>, size: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size)
        try decode(input, into: &output)
        return output
    }

    /// Decodes into all of `output`, through a span: checked writes, with no copy-on-write check on each.
    private static func decode(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) throws(Failure) {
        let size = output.count
        var out = output.mutableSpan
        var written = 0
        var at = input.startIndex
        let end = input.endIndex
        while at < end {
            let token = input[at]
            at += 1
            let literals = try length(Int(token >> 4), input, &at)
            guard literals <= end - at else { throw .truncated }
            guard literals <= size - written else { throw .overlong }
            for index in 0..<literals { out[written + index] = input[at + index] }
            written += literals
            at += literals
            // The last sequence is literals alone.
            if at == end { break }
            guard end - at >= 2 else { throw .truncated }
            let offset = Int(input[at]) | Int(input[at + 1]) << 8
            at += 2
            guard offset > 0, offset <= written else { throw .badOffset }
            let match = try length(Int(token & 15), input, &at) + 4
            guard match <= size - written else { throw .overlong }
            // Byte by byte: a match may overlap what it copies (an offset shorter than its length repeats).
            for from in (written - offset)..<(written - offset + match) {
                out[written] = out[from]
                written += 1
            }
        }
        guard written == size else { throw .short(written) }
    }

    /// A length whose nibble is 15 goes on in bytes, each added, until one below 255.
    private static func length(_ nibble: Int, _ input: ArraySlice<UInt8>, _ at: inout Int) throws(Failure) -> Int {
        guard nibble == 15 else { return nibble }
        var total = nibble
        while true {
            guard at < input.endIndex else { throw .truncated }
            let byte = Int(input[at])
            at += 1
            total += byte
            guard byte == 255 else { return total }
            // A length past any block's size is damage, not a reason to loop on.
            guard total < 1 << 30 else { throw .overlong }
        }
    }
}
