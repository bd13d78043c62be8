// The demo's in-process feed: seeded log-normal latencies on an injected
// clock, no server.

#if Tools
import Foundation
import Lookahead

extension DemoFeed {
    /// An in-process feed: items `1...itemCount`, each answered after a
    /// log-normal latency with the given median and 99th percentile, slept on
    /// `clock`.
    ///
    /// The latency of an item is drawn from `seed` and its identifier only, so
    /// a run is repeatable; a cancelled load stops sleeping at once and throws
    /// `CancellationError`.
    ///
    /// - Precondition: `itemCount >= 0`, `latencyMedian > .zero`,
    ///   `latencyP99 >= latencyMedian`.
    public static func simulated<C: Clock<Duration>>(
        itemCount: Int, latencyMedian: Duration, latencyP99: Duration, seed: UInt64 = 1, clock: C
    ) -> DemoFeed {
        precondition(itemCount >= 0, "DemoFeed.simulated: itemCount must not be negative, got \(itemCount)")
        precondition(
            latencyMedian > .zero && latencyP99 >= latencyMedian,
            "DemoFeed.simulated: need 0 < median ≤ p99, got \(latencyMedian) and \(latencyP99)")
        let latency = DemoLatency(median: latencyMedian, p99: latencyP99, seed: seed)
        return DemoFeed(
            identifiers: { itemCount == 0 ? [] : Array(1...itemCount) },
            item: { id in
                try await clock.sleep(for: latency.duration(for: id))
                return DemoItem(id: id, byteCount: 200 + Int(DemoLatency.mix(UInt64(truncatingIfNeeded: id)) % 800))
            }
        )
    }
}

/// A log-normal latency per item, drawn from a seed and the item's identifier.
struct DemoLatency: Sendable {
    var median: Duration
    var p99: Duration
    var seed: UInt64

    /// The standard normal's 0.99 quantile.
    static let z99 = 2.3263478740408408

    /// SplitMix64's output function.
    static func mix(_ value: UInt64) -> UInt64 {
        SplitMix64.mix(value)
    }

    /// A uniform draw in (0, 1).
    static func unit(_ bits: UInt64) -> Double {
        (Double(bits >> 11) + 0.5) / Double(UInt64(1) << 53)
    }

    func duration(for id: Int) -> Duration {
        let medianSeconds = median / .seconds(1)
        let sigma = (log(p99 / .seconds(1)) - log(medianSeconds)) / Self.z99
        let first = Self.mix(seed ^ Self.mix(UInt64(truncatingIfNeeded: id)))
        let second = Self.mix(first)
        // Box–Muller: one standard normal draw from two uniform ones.
        let normal = (-2 * log(Self.unit(first))).squareRoot() * cos(2 * .pi * Self.unit(second))
        return .seconds(medianSeconds * exp(sigma * normal))
    }
}
#endif
