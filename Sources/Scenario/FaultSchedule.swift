/// Seeded per-load choices. Each is a pure function of the seed, the load's index and what is being chosen, so
/// two runs with one seed, and every policy in a comparison, meet exactly the same pages, delays and faults,
/// however differently they recover.
package struct FaultSchedule {
    package let seed: UInt64

    package init(seed: UInt64) { self.seed = seed }

    package enum Choice: UInt64 {
        case page = 1, attachDelay, race, raceMoment, kill, hidden, browse, tab, replayDeath, fetchLatency, site
    }

    /// A uniform value in [0, 1).
    package func uniform(_ choice: Choice, load: Int, attempt: Int = 0) -> Double {
        var mixer = SplitMix64(
            seed: seed ^ (UInt64(truncatingIfNeeded: load) &* 0x9E37_79B9) ^ (choice.rawValue << 56)
                ^ (UInt64(truncatingIfNeeded: attempt) << 40))
        return Double(mixer.next() >> 11) / Double(1 << 53)
    }

    package func index(_ choice: Choice, load: Int, count: Int) -> Int {
        min(count - 1, Int(uniform(choice, load: load) * Double(count)))
    }

    package func happens(_ choice: Choice, load: Int, rate: Double) -> Bool {
        rate > 0 && uniform(choice, load: load) < rate
    }
}

/// A small, fast, seedable generator.
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
