import Testing

@testable import UnifiedLog

/// The files format strings come from: uuidtext files and shared-cache strings of both versions, real ones
/// (issue 33, item 1).
@Suite struct StringFiles {
    /// Each `dsc-versionN.dtformats.txt` lists the images and the ranges dtformats reads from its file: every one
    /// must be read the same, with the same UUID, text span and path.
    @Test(arguments: [1, 2]) func sharedCacheStringsListWhatDtformatsLists(version: Int) throws {
        let strings = try SharedCacheStrings(Fixture.bytes("uuidtext/dsc/dsc-version\(version)"))
        #expect(Int(strings.version) == version)
        let listing = String(decoding: Fixture.bytes("uuidtext/dsc/dsc-version\(version).dtformats.txt"), as: UTF8.self)
        var images: [String] = [], ranges: [String] = []
        // Blocks of `uuid N:` or `Range N:`, each with a uuid line, a span line `0x.. .. 0x.. (size)` and a path.
        for block in listing.split(separator: "\n\n") {
            let lines = block.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" }
            let first = block.split(separator: "\n").first { $0.hasPrefix("uuid") || $0.hasPrefix("Range") }
            guard let first, lines.count >= 4 else { continue }
            let span = lines[lines.count - 2].split(separator: " ")
            let row = "\(lines[lines.count - 3]) \(span[0]) \(span[3].dropFirst().dropLast()) \(lines[lines.count - 1])"
            if first.hasPrefix("uuid") { images.append(row) } else { ranges.append(row) }
        }
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }
        #expect(images.count == strings.images.count && images.count > 190)
        let ourImages = strings.images.map { "\($0.uuid) \(hex($0.textOffset)) \($0.textSize) \($0.path)" }
        #expect(images.indices.first { images[$0] != ourImages[$0] } == nil)
        let ours = strings.ranges.map { range in
            let image = strings.images[range.image]
            return "\(image.uuid) \(hex(range.offset)) \(range.size) \(image.path)"
        }
        #expect(ranges.count > 250 && ranges.count == ours.count)
        #expect(Set(ranges).symmetricDifference(ours).sorted().prefix(2) == [])
    }

    /// A string is found by its offset in the cache's text, in the range holding it, with its image; an offset no
    /// range holds finds nothing. The small file (made for another reader's tests) is cut short: its one range runs past
    /// its end, and a string there is none.
    @Test func aSharedCacheStringIsFoundByItsOffset() throws {
        let strings = try SharedCacheStrings(Fixture.bytes("uuidtext/dsc/8E21CAB1DCF936B49F85CF860E6F34EC"))
        let found = strings.string(at: 0x48A40)
        #expect(found?.format == "%s Unknown app vocabulary type - %@")
        #expect(found?.image.textOffset == 0x30000)
        #expect(strings.string(at: 0x48A40 + 3)?.format == "Unknown app vocabulary type - %@")
        #expect(strings.string(at: 0x48A3F) == nil && strings.string(at: 0x48A40 + 0x1894) == nil)
        #expect(strings.string(at: 0x48A40 + 0x1000) == nil)
        #expect(strings.image(holding: 0x30010)?.uuid.description == "4DB84124-D5A9-3412-B501-0D8A68000000")
    }

    @Test func aUUIDTextFileGivesItsStringsAndItsPath() throws {
        let text = try UUIDText(Fixture.bytes("uuidtext/00/7EF56328D53A78B59CCCE3E3189F57"))
        #expect(text.string(at: 0x5591) == "system.install.apple-software")
        #expect(text.string(at: 0x5591 + 30) == "system.install.apple-software.standard-user")
        #expect(text.string(at: 0x5590) == nil && text.string(at: 0x5591 + 0x360) == nil)
        #expect(text.imagePath.hasPrefix("/"))
        let empty = try UUIDText(Fixture.bytes("uuidtext/22/0D3C2953A33917B333DD8366AC25F2"))
        #expect(empty.imagePath == "/usr/libexec/lsd" && empty.string(at: 0) == nil)
    }

    @Test func damageIsAnErrorNeverATrap() {
        #expect(throws: ChunkFailure.self) { try UUIDText(Array("not a uuidtext".utf8)) }
        #expect(throws: ChunkFailure.self) { try SharedCacheStrings(Array("hcsd".utf8) + [2, 0, 0, 0] + [255, 255, 255, 0, 1, 0, 0, 0]) }
        var text = Fixture.bytes("uuidtext/00/7EF56328D53A78B59CCCE3E3189F57")
        text[22] = 0xFF  // the range's size, past the file's end
        #expect(throws: ChunkFailure.self) { try UUIDText(text) }
    }
}
