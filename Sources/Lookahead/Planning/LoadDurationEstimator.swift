// A running quantile of load durations: the load-time half of the adaptive
// core (ArrivalPredictor).

/// A running quantile of observed load durations.
///
/// Keeps the most recent `capacity` observations, so that the estimate
/// follows the network as it changes (a train entering a tunnel), and answers
/// with their `quantile` — the 90th percentile by default: planning for the
/// typical load would leave the slow tenth blank. Before any observation it
/// answers with `prior`.
///
/// The observations are also kept sorted, updated on each record, so that
/// the estimate — read on every frame, while loads complete far more rarely —
/// costs a lookup rather than a sort.
@usableFromInline
package struct LoadDurationEstimator: Sendable, Hashable {
    /// The quantile ``estimate`` answers with, in (0, 1].
    public var quantile: Double
    /// The answer before any observation.
    public var prior: Duration
    /// How many recent observations are kept.
    public let capacity: Int
    /// The observations in arrival order (a ring once full).
    var samples: [Duration] = []
    /// The same observations, ascending.
    var sorted: [Duration] = []
    var next = 0

    /// Creates an estimator with no observations.
    public init(quantile: Double = 0.9, prior: Duration = .milliseconds(300), capacity: Int = 128) {
        precondition(quantile > 0 && quantile <= 1, "LoadDurationEstimator: quantile must be in (0, 1]")
        precondition(capacity >= 1, "LoadDurationEstimator: capacity must be at least 1")
        self.quantile = quantile
        self.prior = prior
        self.capacity = capacity
    }

    /// Records one load's duration (from request to data).
    /// - Complexity: O(capacity): the sorted copy shifts to make room.
    public mutating func record(_ duration: Duration) {
        if samples.count < capacity {
            samples.append(duration)
        } else {
            sorted.remove(at: Self.firstIndex(notBelow: samples[next], in: sorted))
            samples[next] = duration
        }
        sorted.insert(duration, at: Self.firstIndex(notBelow: duration, in: sorted))
        next = (next + 1) % capacity
    }

    /// The number of observations held.
    public var count: Int { samples.count }

    /// The estimate: the quantile of the recent observations, or the prior.
    /// - Complexity: O(1).
    public var estimate: Duration { self.quantile(quantile) }

    /// Another quantile of the same observations (the median of what the
    /// estimate is the 99th percentile of), or the prior before any.
    /// - Complexity: O(1).
    public func quantile(_ quantile: Double) -> Duration {
        guard !sorted.isEmpty else { return prior }
        let rank = Int((quantile * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The first index of `values` (ascending) holding `value` or more.
    static func firstIndex(notBelow value: Duration, in values: [Duration]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
