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
        let refusals = self.refusals
        if let threshold = hedging!.watch(id, key: key, in: &scheduler, refusing: refusals) {
            schedule(.hedge(id), at: time + threshold)
        }
    }

    /// The threshold of attempt `id` passed at `time`.
    mutating func hedgeTimerFired(_ id: Scheduler.LoadID, at time: Duration) {
        guard hedging != nil else { return }
        let refusals = self.refusals
        hedging!.timerFired(id, now: time, in: &scheduler, refusing: refusals)
    }

    /// The prefetch of `key` was re-dated at `time`.
    mutating func keyWasReDated(_ key: Int, at time: Duration) {
        guard hedging != nil else { return }
        let refusals = self.refusals
        hedging!.keyWasReDated(key, now: time, in: &scheduler, refusing: refusals)
    }

    /// Due attempts refused on a starved link ask again (each frame).
    mutating func retryDueHedges(at time: Duration) {
        guard hedging != nil else { return }
        let refusals = self.refusals
        hedging!.retryDue(now: time, in: &scheduler, refusing: refusals)
    }

    /// Attempt `id` ended: it is watched no more.
    mutating func forgetAttempt(_ id: Scheduler.LoadID) {
        _ = hedging?.forget(id)
    }

    /// The one refusal the runtime cannot make, as it cannot see the link:
    /// past its threshold, a visible cell's hedge waits while the payloads in
    /// flight take longer than the threshold to cross a link of limited
    /// bandwidth, a prefetch's while anything is in flight on one.
    /// - Complexity: O(loads in flight) on a capped link, O(1) otherwise.
    var refusals: Hedging.Refusals {
        guard case .bitsPerSecond(let bits) = network.bandwidth, let threshold = hedging?.threshold else {
            return .none
        }
        // The payloads in flight, whole: an upper estimate of what is left of them.
        let bytes =
            loads.values.reduce(0) { $0 + self.bytes(ofKey: $1.key) }
            + pageLoads.values.reduce(0) { $0 + self.bytes(ofKey: $1.key) }
        let seconds = Double(bytes) * 8 / bits
        return Hedging.Refusals(displayHedges: seconds > threshold / .seconds(1), prefetchHedges: seconds > 0)
    }
}
