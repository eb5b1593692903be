
/// One digest of every tab's record, kept up to date as single tabs change, so that a save of one tab among a
/// million costs one step, not a million: equal digests, equal tabs (histories, indexes, visibility, order).
///
/// Each record already carries the CRC-32 of its bytes; the digest sums, over the positions, a mix of each
/// position with its record's length and CRC, so a change to one record or a swap of two changes it.
struct SessionDigest {
    private var words: [UInt64] = []
    private var sum: UInt64 = 0

    init(_ records: [ArraySlice<UInt8>] = []) {
        words.reserveCapacity(records.count)
        for (position, record) in records.enumerated() { set(record, at: position) }
    }

    /// Records that `record` now stands at `position` (at most one past the last).
    mutating func set(_ record: ArraySlice<UInt8>, at position: Int) {
        let word = Self.term(record, at: position)
        if position == words.count {
            words.append(word)
        } else {
            sum &-= words[position]
            words[position] = word
        }
        sum &+= word
    }

    var value: String { String(sum &+ UInt64(words.count) &* 0x9E37_79B9_7F4A_7C15, radix: 16) }

    private static func term(_ record: ArraySlice<UInt8>, at position: Int) -> UInt64 {
        var crc: UInt64 = 0
        for i in 0..<8 { crc |= UInt64(record[record.startIndex + i]) << (8 * i) }
        // splitmix64's finalizer over the record's length and CRC, keyed by its position.
        var z = crc &+ UInt64(position) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
