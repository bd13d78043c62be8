public import DequeModule

/// How ``FetcherCore`` hedges slow loads (``FetchHedging``): an attempt is
/// watched from when it starts (or, started before hedging was watched, is
/// raised); when its threshold passes on the injected clock (a timer task,
/// outside the lock) it is due, and the scheduler is asked for a hedge
/// (``FetchScheduler/hedge(_:)``) if the load is wanted for display, or its
/// item is due within ``FetchHedging/dueWithin``. A request re-dated to be
/// due that soon has its load hedged at once, threshold passed or not (the
/// cell is about to appear), unless the fetcher was made with
/// `hedgesDueSoonAtOnce: false`. The hedge waits for a slot as a load of its
/// priority and deadline would. A due attempt that is neither stays due,
/// and asks when it is raised or re-dated. The scheduler decides
/// everything else: the first success delivers, the other attempt is
/// cancelled like any unwanted load (its worker's task cancelled).
extension FetcherCore.State {
    /// An attempt started, or was raised: it is watched for its threshold
    /// (a timer in `effects`), and asks for its hedge if already due.
    @inlinable
    mutating func watchForHedge(_ id: FetcherCore.Scheduler.LoadID, key: Key, into effects: inout FetcherCore.Effects) {
        guard !hedges.hedges.contains(id.serial) else { return }
        switch hedges.watched[id.serial] {
        case nil:
            guard let threshold = hedges.threshold else { return }
            hedges.watched[id.serial] = .timing(id, key)
            effects.hedgeTimers.append((id, key, threshold))
        case .timing:
            break
        case .due:
            hedgeIfDue(id.serial, now: nil, into: &effects)
        }
    }

    /// The threshold of attempt `id` passed on the fetcher's clock, which reads `now`.
    @inlinable
    mutating func hedgeTimerFired(
        _ id: FetcherCore.Scheduler.LoadID, key: Key, now: Duration, into effects: inout FetcherCore.Effects
    ) {
        // Not watched any more: the attempt ended meanwhile.
        guard case .timing = hedges.watched[id.serial] else { return }
        hedges.watched[id.serial] = .due(id, key)
        hedgeIfDue(id.serial, now: now, into: &effects)
    }

    /// A request for `key` was re-dated at `now`: the attempts of its load
    /// whose item is now due soon ask for their hedge, threshold passed or
    /// not (every one: an attempt cancelled but still running may be watched
    /// beside the live one, and the scheduler refuses its hedge).
    /// - Complexity: O(attempts watched), at most the concurrency limit plus
    ///   the attempts cancelled but still running.
    @inlinable
    mutating func keyWasReDated(_ key: Key, now: Duration, into effects: inout FetcherCore.Effects) {
        for (serial, watch) in hedges.watched {
            switch watch {
            case .timing(_, let watchedKey), .due(_, let watchedKey):
                if watchedKey == key { hedgeIfDue(serial, now: now, into: &effects) }
            }
        }
    }

    /// Forgets an attempt that ended; returns whether it was a hedge.
    @inlinable
    mutating func forgetAttempt(_ id: FetcherCore.Scheduler.LoadID) -> Bool {
        guard hedges.policy.isEnabled else { return false }
        hedges.watched[id.serial] = nil
        return hedges.hedges.remove(id.serial) != nil
    }

    /// Hedges a watched attempt if (with the time `now` known) its item is
    /// due within ``FetchHedging/dueWithin``, or it is past its threshold and
    /// wanted for display; otherwise it stays as it is.
    @inlinable
    mutating func hedgeIfDue(_ serial: UInt64, now: Duration?, into effects: inout FetcherCore.Effects) {
        let (id, key, isPastThreshold): (FetcherCore.Scheduler.LoadID, Key, Bool)
        switch hedges.watched[serial] {
        case .timing(let watchedID, let watchedKey):
            guard hedges.hedgesDueSoonAtOnce else { return }
            (id, key, isPastThreshold) = (watchedID, watchedKey, false)
        case .due(let watchedID, let watchedKey): (id, key, isPastThreshold) = (watchedID, watchedKey, true)
        case nil: return
        }
        guard case .running(let priority) = scheduler.phase(of: key) else { return }
        let isDueSoon =
            now.flatMap { now in
                scheduler.earliestDeadline(ofKey: key).map { $0 <= now + FetchHedging.dueWithin }
            } ?? false
        let isDisplay = HedgeBook<Key, FetchPayload<Value>>.isDisplay(priority)
        guard isDueSoon || (isPastThreshold && isDisplay) else { return }
        // Refused only when the attempt has ended or had its hedge: nothing left to watch.
        hedges.watched[serial] = nil
        scheduler.hedge(id)
    }

    /// A started attempt that is a hedge: recorded, and told to observers.
    @inlinable
    mutating func recordHedgeStart(
        _ id: FetcherCore.Scheduler.LoadID, key: Key, into effects: inout FetcherCore.Effects
    )
        -> Bool
    {
        guard scheduler.isHedge(id) else { return false }
        hedges.hedges.insert(id.serial)
        effects.events.append(.hedgeStarted(key))
        return true
    }
}
