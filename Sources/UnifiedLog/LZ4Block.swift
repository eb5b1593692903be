import CLZ4

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
        var status: Int32 = 0
        var written = 0
        // The C decoder checks every length and offset against both buffers' sizes, which are theirs alone here.
        let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            input.withUnsafeBufferPointer { source in
                status = sv_lz4_decode(source.baseAddress, source.count, buffer.baseAddress, size, &written)
            }
            count = written
        }
        switch Int(status) {
        case SV_LZ4_OK: guard written == size else { throw .short(written) }
        case SV_LZ4_TRUNCATED: throw .truncated
        case SV_LZ4_BAD_OFFSET: throw .badOffset
        default: throw .overlong
        }
        return output
    }
}
