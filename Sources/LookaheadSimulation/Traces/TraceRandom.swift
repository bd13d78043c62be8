/// SplitMix64: a small, fast, seeded generator, so that a trace (and a
/// built-in scenario's row heights) replays exactly from its seed.
///
/// The generator draws its own doubles (`uniform(_:)`, `chance(_:)`) from the
/// top 53 bits rather than through `Double.random(in:using:)`, whose sampling
/// the standard library is free to change: the same seed gives the same trace
/// on every platform and toolchain.
struct TraceRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1`, in steps of 2⁻⁵³.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A number in `range` (the upper bound itself is never drawn unless the
    /// range is a single value).
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Whether an event of probability `probability` happened.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }
}
