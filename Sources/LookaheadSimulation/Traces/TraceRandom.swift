import Lookahead

/// The simulator's seeded generator: the project's one ``SplitMix64``, so that
/// a trace (and a built-in scenario's row heights) replays exactly from its seed.
typealias TraceRandom = SplitMix64

/// Doubles drawn from the top 53 bits rather than through
/// `Double.random(in:using:)`, whose sampling the standard library is free to
/// change: the same seed gives the same draws on every platform and toolchain
/// (the trace's physics use libm: see `PortableMath` for the whole promise).
extension SplitMix64 {
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
