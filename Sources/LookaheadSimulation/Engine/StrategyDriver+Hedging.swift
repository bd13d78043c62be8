public import Lookahead

// Tail hedging in the strategy driver: which visible cells' loads get a
// second attempt, decided once per frame.

extension StrategyDriver {
    /// Hedges the loads of visible cells still blank that have run past the
    /// p90 of the load durations observed so far (the policy's own
    /// observations), as an app's fetcher made with
    /// `AsyncFetcher(hedging: .afterP90)` does; no hedge before
    /// ``FetchHedging/minimumSamples`` loads have landed. The loader refuses
    /// what the scheduler's limits or a starved link do not allow.
    /// - Complexity: O(visible cells × loads in flight).
    mutating func hedgeSlowDisplayLoads(_ visible: [Int], at time: Duration) {
        guard hedgeDurations.count >= FetchHedging.minimumSamples else { return }
        let threshold = hedgeDurations.estimate
        for item in visible where (displayPriorities[item] ?? .veryLow) >= .high && !metrics.ready[item] {
            loader.hedge(item, ifRunningLongerThan: threshold, at: time)
        }
    }
}
