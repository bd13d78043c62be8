/// Tail hedging in `FetchScheduler`: a second attempt for a slow load, the
/// first kept, whichever succeeds first delivering.
///
/// With log-normal latencies a few slow responses decide how long a screen
/// stays blank; a second request for the same key usually lands well before
/// the slow one (the "tail at scale" remedy). The scheduler offers the
/// mechanism and keeps it bounded — one hedge per load, a slot of the
/// concurrency limit for each attempt, never ahead of waiting work of its
/// priority or higher — and the driver decides *when* (e.g. a visible
/// item's request that has run past the observed p90 of load durations),
/// since only it reads a clock.
///
/// A hedge asked for with every slot taken waits in the pending queue like
/// a load of its priority without a deadline, at the back of that priority:
/// a slow cell on screen gets the next free slot before any prefetch, but
/// never before a cell that waits for its first attempt. When its load
/// ends first (lands, fails or is cancelled), the waiting hedge is dropped.
extension FetchScheduler {
    /// Asks for a second attempt of the running load `id`.
    ///
    /// The first attempt keeps running. The hedge waits in the queue as a
    /// load of the load's priority and earliest deadline would: behind the
    /// loads already waiting at that priority without an earlier deadline,
    /// ahead of lower ones, moving as the load's priority and deadlines
    /// change; it starts when a slot frees (at once if one
    /// is free) with a `.start` action like any other, under an id of its
    /// own (``isHedge(_:)`` tells it apart). The first of the two attempts
    /// to succeed delivers to every interest of the key and the other gets a
    /// `.cancel` action (it holds its slot until reported). An attempt that
    /// fails while the other runs is not a failure of the load (its
    /// disposition is `.discarded`, no retry budget spent); the first
    /// attempt ending before its hedge started drops the hedge. If nobody
    /// wants the load any more, every attempt is cancelled.
    ///
    /// - Returns: whether the hedge was granted: `false` when `id` is not a
    ///   running attempt or the load has had its hedge (one per load,
    ///   retries included).
    /// - Complexity: O(log n) in the queued loads.
    @inlinable
    @discardableResult
    public mutating func hedge(_ id: LoadID) -> Bool {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .running(let serial, let priority) = record.state, serial == id.serial, !record.hasHedged
        else { return false }
        loads[id.slot]!.state = .hedgeQueued(serial: serial, priority)
        loads[id.slot]!.hasHedged = true
        queue.insert(id.slot, priority: priority, deadline: wantedDeadline(id.slot), atFront: false)
        startLoads()
        return true
    }

    /// Whether the started attempt `id` is a hedge (for drivers, on its `.start`).
    /// - Complexity: O(1)
    @inlinable
    public func isHedge(_ id: LoadID) -> Bool {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .hedged(_, let hedge, _) = record.state
        else { return false }
        return hedge == id.serial
    }

    /// Whether attempt `id` runs beside the other attempt of its load: its
    /// success, reported next, decides the race between them.
    /// - Complexity: O(1)
    @inlinable
    public func isRacing(_ id: LoadID) -> Bool {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .hedged(let serial, let hedge, _) = record.state
        else { return false }
        return id.serial == serial || id.serial == hedge
    }

    /// Whether two attempts of `key`'s load run now.
    /// - Complexity: O(1)
    @inlinable
    public func isHedged(_ key: Key) -> Bool {
        guard let slot = loadSlots[key], case .hedged = loads[slot]!.state else { return false }
        return true
    }

    // MARK: Internals

    /// The attempt of a hedged load other than `id`, and whether it is the
    /// hedge; `nil` when the load runs one attempt.
    @inlinable
    func otherAttempt(_ slot: Int, than id: LoadID) -> (serial: UInt64, isHedge: Bool)? {
        guard case .hedged(let serial, let hedge, _) = loads[slot]!.state else { return nil }
        return serial == id.serial ? (hedge, true) : (serial, false)
    }

    /// The attempt of a load whose hedge still waits ended: the hedge leaves the queue.
    @inlinable
    mutating func dropQueuedHedge(_ slot: Int) {
        guard case .hedgeQueued(let serial, let priority) = loads[slot]!.state else { return }
        queue.remove(slot)
        loads[slot]!.state = .running(serial: serial, priority)
    }

    /// The priority a running or hedged load runs at.
    @inlinable
    func priorityOfRunning(_ slot: Int) -> FetchPriority {
        switch loads[slot]!.state {
        case .running(_, let priority), .hedged(_, _, let priority): priority
        default: preconditionFailure("load \(slot) is not running: \(loads[slot]!.state)")
        }
    }
}
