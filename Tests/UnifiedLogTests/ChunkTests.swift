import Testing

@testable import UnifiedLog

/// The chunk walk and the chunksets' LZ4, on real files (issue 33, item 1).
@Suite struct Chunks {
    /// The iOS 15.4.1 file: a header, then 6 catalogs and 47 chunksets to its end; the chunksets decode to
    /// 2,857,136 bytes (as its notice says), and what they decode to is chunks again, to the byte.
    @Test func theIOSFileWalksToItsEndAndItsChunksetsDecode() throws {
        let bytes = Fixture.bytes(Fixture.iOS + ".tracev3")
        let (chunks, failure) = Chunk.walk(bytes)
        #expect(failure == nil)
        #expect(chunks.first?.kind == .header)
        let sets = chunks.filter { $0.kind == .chunkset }
        #expect(sets.count == 47 && chunks.filter { $0.kind == .catalog }.count == 6 && chunks.count == 54)
        var decoded = 0
        var inner: [UInt32: Int] = [:]
        for set in sets {
            let data = try Chunkset.decode(bytes, set.data)
            decoded += data.count
            let (chunks, failure) = Chunk.walk(data)
            #expect(failure == nil)
            for chunk in chunks { inner[chunk.tag, default: 0] += 1 }
        }
        #expect(decoded == 2_857_136)
        // Inside, only entries' chunks: firehose, oversize, statedump, simpledump; and firehose most of all.
        #expect(Set(inner.keys).isSubset(of: [0x6001, 0x6002, 0x6003, 0x6004]), "\(inner)")
        // Each statedump chunk is one of the 496 state events its notice counts.
        #expect(inner[Chunk.Tag.statedump.rawValue] == 496 && inner[Chunk.Tag.firehose.rawValue, default: 0] > 0, "\(inner)")
    }

    @Test func aFileCutShortStopsWithWhereAndWhy() {
        let bytes = Array(Fixture.bytes(Fixture.mac + ".tracev3").prefix(700))
        let (chunks, failure) = Chunk.walk(bytes)
        #expect(!chunks.isEmpty && failure != nil)
        #expect(failure?.reason.contains("remain") == true || failure?.reason.contains("cut short") == true)
    }

    /// LZ4 blocks: literals and an overlapping match; and damage is an error, never a trap.
    @Test func lz4DecodesAndRefusesDamage() throws {
        // "abc" as literals, then a match of 6 at offset 3 (overlapping): "abcabcabc", then "!" alone.
        let block: [UInt8] = [0x32, 0x61, 0x62, 0x63, 0x03, 0x00, 0x10, 0x21]
        #expect(try LZ4Block.decode(block[...], size: 10) == Array("abcabcabc!".utf8))
        #expect(throws: LZ4Block.Failure.badOffset) { try LZ4Block.decode([0x10, 0x61, 0x09, 0x00][...], size: 8) }
        #expect(throws: LZ4Block.Failure.truncated) { try LZ4Block.decode([0xF0, 0xFF][...], size: 300) }
        #expect(throws: LZ4Block.Failure.overlong) { try LZ4Block.decode(block[...], size: 5) }
    }
}
