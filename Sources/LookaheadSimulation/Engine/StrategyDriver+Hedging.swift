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
        guard let threshold = hedgeThreshold else { return }
        for item in visible where (displayPriorities[item] ?? .veryLow) >= .high && !metrics.ready[item] {
            loader.hedge(item, ifRunningLongerThan: threshold, starvationWindow: threshold, at: time)
        }
    }

    /// Hedges at once, as an `AsyncFetcher` made with `hedging:` does when
    /// a request is re-dated, the running loads of the prefetches just
    /// re-dated whose item is due within ``FetchHedging/dueWithin``: a cell
    /// about to appear. Like the fetcher, only once there is a threshold (the
    /// prior, or enough durations observed). None while anything is in
    /// flight on a link of limited bandwidth: a second transfer now slows
    /// every other — what an app with large payloads on a shared link says
    /// with `AsyncFetcher(hedgesDueSoonAtOnce: false)`.
    /// - Complexity: O(deadlines × loads in flight).
    mutating func hedgeDuePrefetches(_ deadlines: [(path: ItemPath, time: Duration)], at time: Duration) {
        guard hedgeThreshold != nil else { return }
        let soon = time + FetchHedging.dueWithin
        for (path, deadline) in deadlines where deadline <= soon {
            loader.hedge(layout.flatIndex(of: path), ifRunningLongerThan: .zero, starvationWindow: .zero, at: time)
        }
    }

    /// The hedging threshold now: the p90 of the observed load durations
    /// once ``FetchHedging/minimumSamples`` have landed, the prior before.
    var hedgeThreshold: Duration? {
        hedgeDurations.count >= FetchHedging.minimumSamples ? hedgeDurations.estimate : hedgePrior
    }
}
