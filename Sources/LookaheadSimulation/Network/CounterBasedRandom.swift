import Lookahead

/// Random numbers addressed by a key instead of drawn in sequence.
///
/// The network model needs every item's latency, size and failure fixed by the
/// seed alone, whatever order the simulator (or the oracle, which reads them
/// all in advance) asks for them in. A sequential generator cannot give that;
/// a hash of the key can: each value is `mix(mix(mix(seed ^ stream) ^ item) ^ attempt)`,
/// where `mix` is SplitMix64's output function (a bijection on 64 bits with
/// full avalanche).
///
/// Why nested rather than `seed ^ item·K1 ^ attempt·K2`: the linear form maps
/// different keys to the same input whenever the products cancel, and then
/// two loads share a latency; mixing between each component leaves only
/// chance 64-bit collisions.
enum CounterBasedRandom {
    /// Keeps the latency, payload and failure draws of one key independent.
    enum Stream: UInt64 {
        case latency = 0x6C61_7465_6E63_7921
        case payload = 0x7061_796C_6F61_6421
        case failure = 0x6661_696C_7572_6521
    }

    /// SplitMix64's increment and output function.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        SplitMix64.mix(value)
    }

    /// 64 random bits for `(seed, stream, item, attempt)`.
    ///
    /// - Complexity: O(1).
    static func bits(seed: UInt64, stream: Stream, item: Int, attempt: Int) -> UInt64 {
        let perStream = mix(seed ^ stream.rawValue)
        let perItem = mix(perStream ^ UInt64(bitPattern: Int64(item)))
        return mix(perItem ^ UInt64(bitPattern: Int64(attempt)))
    }

    /// A uniform number strictly inside (0, 1), from the top 53 bits.
    ///
    /// Never 0 or 1, so that the inverse normal CDF stays finite: the extremes
    /// are 2⁻⁵⁴ and 1 − 2⁻⁵⁴, about 8.3 standard deviations out.
    ///
    /// - Complexity: O(1).
    static func unitInterval(_ bits: UInt64) -> Double {
        (Double(bits >> 11) + 0.5) * 0x1p-53
    }

    /// A uniform number in `range`, without modulo bias worth speaking of
    /// (multiply-high: bias below `range.count / 2⁶⁴`).
    ///
    /// - Precondition: `range.count` fits in an `Int` (true of any range of
    ///   non-negative numbers, such as payload sizes).
    /// - Complexity: O(1).
    static func integer(in range: ClosedRange<Int>, _ bits: UInt64) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(bits.multipliedFullWidth(by: width).high)
    }
}
