public import Lookahead

// Tail hedging in the strategy driver: which visible cells' loads get a
// second attempt, decided once per frame.

extension StrategyDriver {
    /// Hedges the loads of visible cells still blank that have run past the
    /// p90 of the load durations observed so far (the policy's own
    /// observations), as an app's fetcher made with
    /// `AsyncFetcher(hedging: .afterP90WithPrior(…))` does; before
    /// ``FetchHedging/minimumSamples`` loads have landed (the percentile of
    /// so few says nothing), those past ``hedgePrior``, or none when it is
    /// `nil`. A hedge with no free slot waits
    /// in the scheduler's queue ahead of the prefetches, so the first
    /// screen's slow loads get theirs at the next free slot; none is asked
    /// for on a starved link.
    /// - Complexity: O(visible cells × loads in flight).
    mutating func hedgeSlowDisplayLoads(_ visible: [Int], at time: Duration) {
        let hasSamples = hedgeDurations.count >= FetchHedging.minimumSamples
        guard let threshold = hasSamples ? hedgeDurations.estimate : hedgePrior else { return }
        for item in visible where (displayPriorities[item] ?? .veryLow) >= .high && !metrics.ready[item] {
            loader.hedge(item, ifRunningLongerThan: threshold, at: time)
        }
    }
}
