import Testing

@testable import UnifiedLog

/// Damaged files are read as far as they can be, and what cannot be read is a failure with a place and a reason:
/// never a trap (issue 33: one note per unreadable part).
@Suite struct Damage {
    /// A small seeded generator, so that a failing mutation can be replayed.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [Fixture.mac, Fixture.iOS])
    func flippedAndCutBytesNeverTrap(name: String) throws {
        let original = Fixture.bytes(name + ".tracev3")
        var random = SplitMix(state: 33)
        let rounds = name == Fixture.mac ? 2_000 : 60
        var read = 0
        for round in 0..<rounds {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 8)) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if round % 3 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
            if let file = try? TraceFile(bytes) {
                read += 1
                #expect(file.entries.count <= 20_000)
            }
        }
        #expect(read > 0)
    }

    /// The whole iOS file but its last kilobyte: everything before the cut is read, and the cut is noted.
    @Test func aCutFileReadsWhatItHasAndSaysWhere() throws {
        let bytes = Fixture.bytes(Fixture.iOS + ".tracev3")
        let file = try TraceFile(Array(bytes.dropLast(1024)))
        #expect(file.failures.count == 1 && file.entries.count > 8_000 && file.entries.count < 8_654)
    }
}
