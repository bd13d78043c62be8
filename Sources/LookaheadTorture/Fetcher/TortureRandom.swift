// The seeded generator of the torture tools: every operation sequence and
// every loader outcome replays from the run's seed.

import Lookahead

/// The project's one ``SplitMix64``, with the torture tools' draws.
typealias TortureRandom = SplitMix64

extension SplitMix64 {
    /// A generator for one stream of a run (a thread, a loader, a child),
    /// its state mixed from the run's seed and the stream's numbers.
    init(seed: UInt64, stream: UInt64, substream: UInt64 = 0) {
        var mixer = SplitMix64(seed: seed ^ 0x5851_F42D_4C95_7F2D)
        let a = mixer.next()
        mixer = SplitMix64(seed: a ^ stream &* 0x9E37_79B9_7F4A_7C15)
        let b = mixer.next()
        mixer = SplitMix64(seed: b ^ substream &* 0xD1B5_4A32_D192_ED03)
        self.init(seed: mixer.next())
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Whether an event of `percent` in a hundred happened.
    mutating func percent(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }
}
