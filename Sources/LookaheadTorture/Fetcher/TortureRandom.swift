// The seeded generator of the torture tools: every operation sequence and
// every loader outcome replays from the run's seed.

/// SplitMix64, as in `LookaheadBenchmarks.SplitMix64` and the test suites'
/// `SeededRandom`.
///
/// A copy, not a dependency: `LookaheadTorture` depends on the core only, and
/// the benchmarks target is not something a torture tool should link.
struct TortureRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator for one stream of a run (a thread in a round, a loader call),
    /// decorrelated from the others by mixing the stream numbers into the seed.
    init(seed: UInt64, stream: UInt64, substream: UInt64 = 0) {
        var mixer = TortureRandom(seed: seed ^ 0x5851_F42D_4C95_7F2D)
        let a = mixer.next()
        mixer = TortureRandom(seed: a ^ stream &* 0x9E37_79B9_7F4A_7C15)
        let b = mixer.next()
        mixer = TortureRandom(seed: b ^ substream &* 0xD1B5_4A32_D192_ED03)
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` at least 1).
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Whether an event of probability `percent`/100 happened.
    mutating func percent(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }
}
