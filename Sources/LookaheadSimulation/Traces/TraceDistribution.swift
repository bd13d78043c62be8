import Lookahead

/// How the trace generator draws one quantity of a gesture (a speed, a
/// duration): uniformly over a range, or log-normally, as measured human
/// scrolling is (most gestures slow and short, a long tail of fast ones).
///
/// Draws go through ``PortableMath`` and ``StandardNormal``, never libm, so
/// the same seed gives the same trace on every platform.
enum TraceDistribution: Hashable, Sendable {
    /// Uniform over the range.
    case uniform(ClosedRange<Double>)
    /// Log-normal with this median and 90th percentile, clamped to `range`
    /// (so that one draw in a million cannot leave the physics' domain).
    case logNormal(median: Double, p90: Double, range: ClosedRange<Double>)
    /// Uniform in the logarithm over the range: as likely between 1,000 and
    /// 2,000 as between 2,000 and 4,000.
    case logUniform(ClosedRange<Double>)

    /// The smallest and largest values a draw can take.
    var range: ClosedRange<Double> {
        switch self {
        case .uniform(let range), .logNormal(_, _, let range), .logUniform(let range): return range
        }
    }

    /// The 0.9 quantile of the standard normal: a log-normal's p90 is `median · e^(σ z₀.₉)`.
    static let z90 = 1.281_551_565_544_600_8

    /// One draw.
    func draw(using random: inout TraceRandom) -> Double {
        switch self {
        case .uniform(let range):
            return random.uniform(range)
        case .logNormal(let median, let p90, let range):
            // The open unit interval, (0, 1) in steps of 2⁻⁵², halfway between: 0 would be −∞.
            let z = StandardNormal.quantile(Double(random.next() >> 12) * 0x1p-52 + 0x1p-53)
            let sigma = PortableMath.log(p90 / median) / Self.z90
            let value = median * PortableMath.exp(sigma * z)
            return min(max(value, range.lowerBound), range.upperBound)
        case .logUniform(let range):
            let low = PortableMath.log(range.lowerBound)
            let high = PortableMath.log(range.upperBound)
            return min(max(PortableMath.exp(low + (high - low) * random.unit()), range.lowerBound), range.upperBound)
        }
    }
}
