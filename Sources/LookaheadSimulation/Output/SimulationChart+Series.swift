// The chart's time series: per-second counts, thinned to what a line can show.

extension SimulationChart {
    /// A point of a time series: `second` is where on the time axis it is drawn.
    struct SeriesPoint: Equatable {
        var second: Double
        var value: Int
    }

    /// At most ~300 points: a line has no more pixels than that to show.
    static let maximumSeriesPoints = 300

    /// Per-second counts as points at the middle of each second, or, for runs
    /// longer than `maximumPoints` seconds, the largest count of each bucket of
    /// seconds at the middle of the bucket.
    ///
    /// The maximum rather than the mean, so that a burst of blank cells — the
    /// thing the chart is for — is not averaged away on a long run.
    ///
    /// - Complexity: O(*n*), where *n* is the number of seconds.
    static func downsampled(_ counts: [Int], maximumPoints: Int = maximumSeriesPoints) -> [SeriesPoint] {
        let limit = max(1, maximumPoints)
        guard counts.count > limit else {
            return counts.enumerated().map { SeriesPoint(second: Double($0.offset) + 0.5, value: $0.element) }
        }
        let bucket = (counts.count + limit - 1) / limit
        return stride(from: 0, to: counts.count, by: bucket).map { start in
            let end = min(start + bucket, counts.count)
            let largest = counts[start..<end].max() ?? 0
            return SeriesPoint(second: Double(start) + Double(end - start) / 2, value: largest)
        }
    }
}
