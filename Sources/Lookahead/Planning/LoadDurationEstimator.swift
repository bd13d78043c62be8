/// A running quantile of observed load durations.
///
/// Keeps the most recent `capacity` observations, so that the estimate
/// follows the network as it changes (a train entering a tunnel), and answers
/// with their `quantile` — the 90th percentile by default: planning for the
/// typical load would leave the slow tenth blank. Before any observation it
/// answers with `prior`.
public struct LoadDurationEstimator: Sendable, Hashable {
    public var quantile: Double
    public var prior: Duration
    public let capacity: Int
    var samples: [Duration] = []
    var next = 0

    public init(quantile: Double = 0.9, prior: Duration = .milliseconds(300), capacity: Int = 128) {
        precondition(quantile > 0 && quantile <= 1, "LoadDurationEstimator: quantile must be in (0, 1]")
        precondition(capacity >= 1, "LoadDurationEstimator: capacity must be at least 1")
        self.quantile = quantile
        self.prior = prior
        self.capacity = capacity
    }

    /// Records one load's duration (from request to data).
    /// - Complexity: O(1).
    public mutating func record(_ duration: Duration) {
        if samples.count < capacity {
            samples.append(duration)
        } else {
            samples[next] = duration
        }
        next = (next + 1) % capacity
    }

    /// The number of observations held.
    public var count: Int { samples.count }

    /// The estimate: the quantile of the recent observations, or the prior.
    /// - Complexity: O(capacity log capacity).
    public var estimate: Duration {
        guard !samples.isEmpty else { return prior }
        let sorted = samples.sorted()
        let rank = Int((quantile * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
