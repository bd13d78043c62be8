/// How ``FetcherCore`` drives its ``HedgeBook`` (``FetchHedging``): every
/// attempt that starts is recorded, or watched with a timer task to its
/// threshold on the injected clock (outside the lock); the timer, re-dated
/// requests and attempts that end are told to the book, which asks the
/// scheduler for the hedges.
extension FetcherCore.State {
    /// Attempt `id` of `key` started: a hedge is told to observers, a first
    /// attempt watched.
    @inlinable
    mutating func attemptStarted(_ id: FetcherCore.Scheduler.LoadID, key: Key, into effects: inout FetcherCore.Effects)
    {
        guard hedges.policy.isEnabled else { return }
        if hedges.recordStart(id, in: scheduler) {
            effects.events.append(.hedgeStarted(key))
        } else {
            watchForHedge(id, key: key, into: &effects)
        }
    }

    /// A first attempt started, or was raised: watched for its threshold (a
    /// timer in `effects`), or it asks for its hedge if already due.
    @inlinable
    mutating func watchForHedge(_ id: FetcherCore.Scheduler.LoadID, key: Key, into effects: inout FetcherCore.Effects) {
        if let threshold = hedges.watch(id, key: key, in: &scheduler) {
            effects.hedgeTimers.append((id, threshold))
        }
    }

    /// The threshold of attempt `id` passed on the fetcher's clock, which reads `now`.
    @inlinable
    mutating func hedgeTimerFired(_ id: FetcherCore.Scheduler.LoadID, now: Duration) {
        hedges.timerFired(id, now: now, in: &scheduler)
    }

    /// A request for `key` was re-dated at `now`.
    @inlinable
    mutating func keyWasReDated(_ key: Key, now: Duration) {
        hedges.keyWasReDated(key, now: now, in: &scheduler)
    }

    /// Forgets an attempt that ended, having `succeeded` or not (before the
    /// scheduler is told); returns whether it was a hedge.
    @inlinable
    mutating func forgetAttempt(_ id: FetcherCore.Scheduler.LoadID, succeeded: Bool) -> Bool {
        hedges.forget(id, succeeded: succeeded, in: scheduler)
    }
}
