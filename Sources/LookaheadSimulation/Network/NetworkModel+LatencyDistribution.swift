// The network model's latency distributions: log-normal, fixed, or given per item.

extension NetworkModel {
    /// How long a request waits for its first byte.
    public enum LatencyDistribution: Sendable, Hashable {
        /// Log-normal, given its median and 99th percentile.
        ///
        /// Request latencies are right-skewed with a long tail, which a
        /// log-normal captures with two numbers people actually know. With
        /// `ln L ~ N(μ, σ²)`: μ = ln(median) and
        /// σ = (ln(p99) − ln(median)) / z₀.₉₉, where z₀.₉₉ = 2.3263478740408408
        /// is the standard normal's 0.99 quantile. So the median and p99 of
        /// the draws converge to exactly the two given values; the mean is
        /// `median · e^(σ²/2)`, above the median. A p99 equal to the median
        /// gives σ = 0: every request takes the median.
        ///
        /// - Precondition: `median > 0`, `p99 >= median` (checked by ``NetworkModel``).
        case logNormal(median: Duration, p99: Duration)

        /// Every request takes the same time.
        case fixed(Duration)

        /// Explicit latencies, for hand-computed scenarios: item `i` takes
        /// `durations[i % durations.count]`, on every attempt (the list wraps
        /// around rather than trapping, so a short list can cover a long run).
        ///
        /// - Precondition: not empty, nothing negative.
        case perItem([Duration])
    }
}
