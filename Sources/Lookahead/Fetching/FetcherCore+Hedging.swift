public import DequeModule

/// How ``FetcherCore`` hedges slow display loads (``FetchHedging``): a display
/// attempt is watched from when it runs at a display priority; when its
/// threshold passes on the injected clock (a timer task, outside the lock),
/// the scheduler is asked for a hedge (``FetchScheduler/hedge(_:)``), which
/// waits for a slot as a load of its priority would. An attempt no longer
/// wanted for display then stays due, and asks when it is raised again. The
/// scheduler decides everything else: the first success delivers, the other
/// attempt is cancelled like any unwanted load (its worker's task cancelled).
extension FetcherCore.State {
    /// An attempt started, or was raised, at `priority`: a display attempt
    /// is watched for its threshold (a timer in `effects`).
    @inlinable
    mutating func watchForHedge(
        _ id: FetcherCore.Scheduler.LoadID, key: Key, priority: FetchPriority, into effects: inout FetcherCore.Effects
    ) {
        guard HedgeBook<Key, FetchPayload<Value>>.isDisplay(priority), !hedges.hedges.contains(id.serial) else {
            return
        }
        switch hedges.watched[id.serial] {
        case nil:
            guard let threshold = hedges.threshold else { return }
            hedges.watched[id.serial] = .timing
            effects.hedgeTimers.append((id, key, threshold))
        case .timing:
            break
        case .due:
            hedgeIfDue(id.serial, into: &effects)
        }
    }

    /// The threshold of attempt `id` passed on the fetcher's clock.
    @inlinable
    mutating func hedgeTimerFired(_ id: FetcherCore.Scheduler.LoadID, key: Key, into effects: inout FetcherCore.Effects)
    {
        // Not watched any more: the attempt ended meanwhile.
        guard case .timing = hedges.watched[id.serial] else { return }
        hedges.watched[id.serial] = .due(id, key)
        hedgeIfDue(id.serial, into: &effects)
    }

    /// Forgets an attempt that ended; returns whether it was a hedge.
    @inlinable
    mutating func forgetAttempt(_ id: FetcherCore.Scheduler.LoadID) -> Bool {
        guard hedges.policy.isEnabled else { return false }
        hedges.watched[id.serial] = nil
        return hedges.hedges.remove(id.serial) != nil
    }

    /// Hedges a due attempt if it is still wanted for display and the
    /// scheduler has a slot for it; otherwise it stays due.
    @inlinable
    mutating func hedgeIfDue(_ serial: UInt64, into effects: inout FetcherCore.Effects) {
        guard case .due(let id, let key) = hedges.watched[serial],
            case .running(let priority) = scheduler.phase(of: key),
            HedgeBook<Key, FetchPayload<Value>>.isDisplay(priority)
        else { return }
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
