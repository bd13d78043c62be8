import Lookahead

// Tail hedging in the simulator's loader: the runtime fetcher's own state
// machine (HedgeBook), driven in virtual time.

extension SimulatedLoader {
    typealias Hedging = HedgeBook<Int, Int>

    /// Hedges from now on as an `AsyncFetcher` made with `hedging:` and
    /// `hedgesDueSoonAtOnce:` does: the same ``HedgeBook``, its timers run
    /// by the simulator at their exact virtual time (not at the next frame).
    mutating func hedge(like hedging: FetchHedging, dueSoonAtOnce: Bool) {
        self.hedging = hedging.isEnabled ? Hedging(policy: hedging, hedgesDueSoonAtOnce: dueSoonAtOnce) : nil
    }

    /// Attempt `id` of `key` started at `time`: a first attempt is watched
    /// (its threshold's timer set), a hedge recorded.
    mutating func attemptStarted(_ id: Scheduler.LoadID, key: Int, at time: Duration) {
        guard hedging != nil, !hedging!.recordStart(id, in: scheduler) else { return }
        watchForHedge(id, key: key, at: time)
    }

    /// A first attempt started or was raised to a display priority at `time`.
    mutating func watchForHedge(_ id: Scheduler.LoadID, key: Int, at time: Duration) {
        guard hedging != nil else { return }
        if let threshold = hedging!.watch(id, key: key, in: &scheduler) {
            schedule(.hedge(id), at: time + threshold)
        }
    }

    /// The threshold of attempt `id` passed at `time`.
    mutating func hedgeTimerFired(_ id: Scheduler.LoadID, at time: Duration) {
        guard hedging != nil else { return }
        hedging!.timerFired(id, now: time, in: &scheduler)
    }

    /// The prefetch of `key` was re-dated at `time`.
    mutating func keyWasReDated(_ key: Int, at time: Duration) {
        guard hedging != nil else { return }
        hedging!.keyWasReDated(key, now: time, in: &scheduler)
    }

    /// Attempt `id` ended, having `succeeded` or not (before the scheduler
    /// is told): it is watched no more, and a race it ends is recorded.
    mutating func forgetAttempt(_ id: Scheduler.LoadID, succeeded: Bool) {
        _ = hedging?.forget(id, succeeded: succeeded, in: scheduler)
    }
}
