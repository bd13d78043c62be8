// The project's one seeded generator: traces, the network model, the feed
// server, the demo, the torture tools, the benchmarks and the tests all draw
// from it, so a seed means the same stream everywhere.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): a 64-bit state advanced by a constant and passed
/// through a mixing function. Fast, statistically sound for simulations and
/// tests, and fully determined by its seed — not for cryptography.
///
/// ``mix(_:)`` is the output function on its own, a bijection on 64 bits,
/// for counter-based draws (a pure function of a seed and a key).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose stream is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Complexity: O(1).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }

    /// SplitMix64's increment and output function applied to `value`: a
    /// well-mixed 64-bit value, different for every input.
    ///
    /// - Complexity: O(1).
    package static func mix(_ value: UInt64) -> UInt64 {
        finalize(value &+ 0x9E37_79B9_7F4A_7C15)
    }

    private static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
