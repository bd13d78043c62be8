public import Lookahead

// Tail hedging in the strategy driver: which visible cells' loads get a
// second attempt, decided once per frame.

extension StrategyDriver {
    /// Hedges the loads of visible cells still blank that have run past the
    /// p90 of the load durations observed so far (the policy's own
    /// observations), as an app's fetcher made with
    /// `AsyncFetcher(hedging: .afterP90)` does; no hedge before
    /// ``FetchHedging/minimumSamples`` loads have landed (before that the
    /// percentile of so few says nothing, and the first screen's fastest
    /// loads land within a few round trips). A hedge with no free slot waits
    /// in the scheduler's queue ahead of the prefetches, so the first
    /// screen's slow loads get theirs at the next free slot; none is asked
    /// for on a starved link.
    /// - Complexity: O(visible cells × loads in flight).
    mutating func hedgeSlowDisplayLoads(_ visible: [Int], at time: Duration) {
        guard hedgeDurations.count >= FetchHedging.minimumSamples else { return }
        let threshold = hedgeDurations.estimate
        for item in visible where (displayPriorities[item] ?? .veryLow) >= .high && !metrics.ready[item] {
            loader.hedge(item, ifRunningLongerThan: threshold, at: time)
        }
    }
}
