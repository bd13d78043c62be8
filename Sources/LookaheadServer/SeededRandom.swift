#if Tools
import Foundation
import Lookahead

/// Random numbers addressed by a key instead of drawn in sequence.
///
/// Every title, score and injected fault must follow from the seed alone,
/// whatever order requests arrive in, so each draw is a hash of
/// `(seed, stream, key)` through SplitMix64's output function rather than
/// the next value of a shared generator.
enum SeededRandom {
    /// Keeps the draws for different purposes independent.
    enum Stream: UInt64 {
        case item = 0x6974_656D_2020_2020
        case latency = 0x6C61_7465_6E63_7921
        case fault = 0x6661_756C_7421_2121
    }

    /// SplitMix64's increment and output function: a bijection with full avalanche.
    ///
    /// - Complexity: O(1).
    static func mix(_ value: UInt64) -> UInt64 {
        SplitMix64.mix(value)
    }

    /// 64 random bits for `(seed, stream, key, index)`.
    ///
    /// - Complexity: O(1).
    static func bits(seed: UInt64, stream: Stream, key: UInt64, index: UInt64 = 0) -> UInt64 {
        mix(mix(mix(seed ^ stream.rawValue) ^ key) ^ index)
    }

    /// A uniform number strictly inside (0, 1), from the top 53 bits.
    static func unitInterval(_ bits: UInt64) -> Double {
        (Double(bits >> 11) + 0.5) * 0x1p-53
    }

    /// A uniform number in `range` (multiply-high: negligible bias).
    static func integer(in range: ClosedRange<Int>, _ bits: UInt64) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(bits.multipliedFullWidth(by: width).high)
    }

    /// A standard normal draw from two uniform ones (Box–Muller).
    static func standardNormal(_ first: UInt64, _ second: UInt64) -> Double {
        let u1 = unitInterval(first)
        let u2 = unitInterval(second)
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
    }
}
#endif
