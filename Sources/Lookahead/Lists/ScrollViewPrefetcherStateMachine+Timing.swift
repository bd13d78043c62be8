// When a ScrollViewPrefetcherStateMachine settles: the debounce and the rest check,
// decided in the machine so that every driver settles at the same moments.

extension ScrollViewPrefetcherStateMachine {
    /// What a driver must arrange after a change.
    public enum SettleTiming: Hashable, Sendable {
        /// Settle now, with `settleNow(at:queuedLoadsPerSlot:)`: there is no debounce.
        case now
        /// Settle at this time with `settleArranged(at:queuedLoadsPerSlot:)`,
        /// instead of any settle arranged before.
        case at(Duration)
        /// Nothing to arrange: the settle already arranged takes the change in.
        case unchanged
    }

    /// How long after a settle that saw the list moving the machine settles
    /// again, to notice that the list stopped (a list at rest reports nothing).
    public static var restCheckDelay: Duration { .milliseconds(250) }

    /// Decides when to settle after a change made at `time` (an `appeared`,
    /// `disappeared` or `update(itemCount:)` that returned `true`).
    ///
    /// The first change after a settle arranges the next one `debounce` later
    /// and every change until then joins it, so a burst of callbacks — a
    /// layout pass, a jump — yields one settle from where the burst ended. It
    /// is not a debounce that restarts at every change: during a fling rows
    /// appear every frame, and a settle pushed back at each would not come
    /// until the fling ended, which is when prefetching is too late. A change
    /// brings an arranged rest check forward to `debounce` from now.
    ///
    /// - Complexity: O(1).
    public mutating func timingAfterChange(at time: Duration) -> SettleTiming {
        if debounce == .zero { return .now }
        guard scheduledSettleTime == nil || isRestCheckScheduled else { return .unchanged }
        scheduledSettleTime = time + debounce
        isRestCheckScheduled = false
        return .at(time + debounce)
    }

    /// Settles because the settle arranged for ``scheduledSettleTime`` came
    /// due (the driver's timer fired at `time`), then arranges a rest check
    /// if the list is moving (read ``scheduledSettleTime`` afterwards).
    ///
    /// - Complexity: O(visible + window).
    public mutating func settleArranged(at time: Duration, queuedLoadsPerSlot: Double = 0) -> Update {
        scheduledSettleTime = nil
        isRestCheckScheduled = false
        return settleAndCheckRest(at: time, queuedLoadsPerSlot: queuedLoadsPerSlot)
    }

    /// Settles at once, as `.now` asked, keeping any rest check arranged, and
    /// arranges one if none is and the list is moving.
    ///
    /// - Complexity: O(visible + window).
    public mutating func settleNow(at time: Duration, queuedLoadsPerSlot: Double = 0) -> Update {
        settleAndCheckRest(at: time, queuedLoadsPerSlot: queuedLoadsPerSlot)
    }

    private mutating func settleAndCheckRest(at time: Duration, queuedLoadsPerSlot: Double) -> Update {
        let update = settle(time: time, queuedLoadsPerSlot: queuedLoadsPerSlot)
        if scheduledSettleTime == nil, isMoving {
            scheduledSettleTime = time + max(debounce, Self.restCheckDelay)
            isRestCheckScheduled = true
        }
        return update
    }
}
