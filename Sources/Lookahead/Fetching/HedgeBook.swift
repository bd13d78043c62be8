/// Which running attempts are hedged, and when (``FetchHedging``): the state
/// machine behind `AsyncFetcher(hedging:)`, which the simulator's loader
/// drives as well, so that what it simulates is what ships.
///
/// An attempt is watched from when it starts (or, started before there was
/// a threshold, from when there is one): its driver runs a timer to the
/// threshold of that moment (``watch(_:key:in:)`` and
/// ``recordDuration(_:)`` return it). When it fires (``timerFired(_:now:in:)``) the
/// attempt is due, and the scheduler is asked for a hedge
/// (`FetchScheduler.hedge(_:)`) if the load is wanted for display or its
/// item is due within ``FetchHedging/dueWithin``. A request re-dated to be
/// due that soon has its load hedged at once, threshold passed or not (the
/// cell is about to appear), unless `hedgesDueSoonAtOnce` is off. The hedge
/// waits for a slot as a load of its priority and deadline would. A due
/// attempt that is neither stays due, and asks when it is raised or
/// re-dated. The scheduler decides everything else: the first success
/// delivers, the other attempt is cancelled like any unwanted load.
///
/// Hedges stop while they do not pay: a race between the two attempts of a
/// load ends when one succeeds, and the book keeps the last
/// ``racesJudged`` outcomes. While fewer than ``winsToKeepHedging`` of them
/// are the hedge's, it refuses hedges — the attempt stays due — but lets
/// every ``probeEvery``th one through, to see whether that has changed. On
/// a link whose bandwidth the loads in flight use up, a hedge shares it
/// with the attempt it races, which has a head start, and almost never
/// wins (docs/decisions.md, "Stop hedging while hedges lose"): its bytes
/// only slow the rest. The book sees that from the outcomes, as
/// the fetcher can, with no view of the link.
///
/// Plain data: the fetcher changes it under its lock, reading the clock and
/// running the timers outside it; the simulator in virtual time.
@usableFromInline
package struct HedgeBook<Key: Hashable & Sendable, Payload: Sendable>: Sendable {
    @usableFromInline package typealias Scheduler = FetchScheduler<Key, Payload>
    @usableFromInline package typealias LoadID = Scheduler.LoadID

    @usableFromInline
    enum Watch: Sendable {
        /// A timer runs until the attempt's threshold; a prefetch whose item
        /// is re-dated due soon is hedged before it.
        case timing(LoadID, Key)
        /// The threshold passed while the load was not wanted for display:
        /// it asks for its hedge when it is raised to a display priority.
        case due(LoadID, Key)

        @inlinable var key: Key {
            switch self {
            case .timing(_, let key), .due(_, let key): key
            }
        }
    }

    /// The races (a hedge beside its first attempt, ended by a success)
    /// whose outcomes decide whether hedges pay: the last 20.
    @inlinable package static var racesJudged: Int { 20 }
    /// The hedges that must have won among the last ``racesJudged`` races
    /// for hedging to go on without probes: 2 (10%).
    @inlinable package static var winsToKeepHedging: Int { 2 }
    /// While hedges do not pay, one asked for in this many is let through: 8.
    @inlinable package static var probeEvery: Int { 8 }

    @usableFromInline package let policy: FetchHedging
    /// Whether a prefetch re-dated due within ``FetchHedging/dueWithin`` is
    /// hedged before its threshold passes.
    @usableFromInline package let hedgesDueSoonAtOnce: Bool
    /// The recent successful attempts' durations, for `afterP90`.
    @usableFromInline var durations = LoadDurationEstimator(quantile: 0.9, prior: .zero)
    /// Running first attempts watched for their threshold, by serial.
    @usableFromInline var watched: [UInt64: Watch] = [:]
    /// Running hedges, by serial.
    @usableFromInline var hedges: Set<UInt64> = []
    /// Running first attempts that started while there was no threshold
    /// (`afterP90`, before enough durations), by serial: timed once there is one.
    @usableFromInline var untimed: [UInt64: (LoadID, Key)] = [:]
    /// The last ``racesJudged`` races, oldest first: whether the hedge won.
    @usableFromInline var races: [Bool] = []
    /// Hedges refused since the last one let through while hedges do not pay.
    @usableFromInline var refusedSinceProbe = 0
    /// Running attempts whose hedge was refused (hedges did not pay), by serial.
    @usableFromInline var refused: Set<UInt64> = []
    /// Attempts whose hedge was refused at least once, over the book's life.
    @usableFromInline package private(set) var refusedCount = 0

    @inlinable
    package init(policy: FetchHedging, hedgesDueSoonAtOnce: Bool) {
        self.policy = policy
        self.hedgesDueSoonAtOnce = hedgesDueSoonAtOnce
    }

    /// How long a display load may run before it is hedged, or `nil` when
    /// no load is hedged now (off, or too few durations observed).
    @inlinable package var threshold: Duration? {
        switch policy {
        case .off: nil
        case .after(let duration): duration
        case .afterP90: durations.count >= FetchHedging.minimumSamples ? durations.estimate : nil
        case .afterP90WithPrior(let prior):
            durations.count >= FetchHedging.minimumSamples ? durations.estimate : prior
        }
    }

    /// Whether the hedges that raced lately have won often enough to go on
    /// hedging (or too few have raced to tell).
    @inlinable package var hedgesPay: Bool {
        races.count < Self.racesJudged || races.lazy.filter { $0 }.count >= Self.winsToKeepHedging
    }

    /// Whether loads at `priority` are hedged past their threshold: display requests only.
    @inlinable
    package static func isDisplay(_ priority: FetchPriority) -> Bool { priority >= .high }

    // MARK: Events

    /// Attempt `id` started; returns whether it is a hedge (then recorded
    /// as one, and not watched).
    @inlinable
    package mutating func recordStart(_ id: LoadID, in scheduler: Scheduler) -> Bool {
        guard scheduler.isHedge(id) else { return false }
        hedges.insert(id.serial)
        return true
    }

    /// First attempt `id` of `key` started, or was raised to a display
    /// priority: it is watched for its threshold — the duration returned,
    /// for the driver to time — or asks for its hedge if already due.
    @inlinable
    package mutating func watch(
        _ id: LoadID, key: Key, in scheduler: inout Scheduler
    ) -> Duration? {
        guard !hedges.contains(id.serial) else { return nil }
        switch watched[id.serial] {
        case nil:
            guard let threshold else {
                untimed[id.serial] = (id, key)
                return nil
            }
            watched[id.serial] = .timing(id, key)
            return threshold
        case .timing:
            return nil
        case .due:
            hedgeIfDue(id.serial, now: nil, in: &scheduler)
            return nil
        }
    }

    /// An attempt succeeded after `duration`: recorded for the p90. When
    /// that makes the first threshold (`afterP90`), the attempts that
    /// started without one are watched from now on: returned, oldest first,
    /// with the threshold, for the driver to time.
    @inlinable
    package mutating func recordDuration(_ duration: Duration) -> (attempts: [LoadID], threshold: Duration)? {
        let hadThreshold = threshold != nil
        durations.record(duration)
        guard !hadThreshold, let threshold, !untimed.isEmpty else { return nil }
        let attempts = untimed.keys.sorted().map { untimed[$0]! }
        untimed.removeAll()
        for (id, key) in attempts { watched[id.serial] = .timing(id, key) }
        return (attempts.map(\.0), threshold)
    }

    /// The threshold of attempt `id` passed at `now`.
    @inlinable
    package mutating func timerFired(
        _ id: LoadID, now: Duration, in scheduler: inout Scheduler
    ) {
        // Not watched any more: the attempt ended meanwhile.
        guard case .timing(_, let key) = watched[id.serial] else { return }
        watched[id.serial] = .due(id, key)
        hedgeIfDue(id.serial, now: now, in: &scheduler)
    }

    /// A request for `key` was re-dated at `now`: the attempts of its load
    /// whose item is now due soon ask for their hedge, threshold passed or
    /// not (every one, oldest first: an attempt cancelled but still running
    /// may be watched beside the live one, and the scheduler refuses its hedge).
    /// - Complexity: O(attempts watched), at most the concurrency limit plus
    ///   the attempts cancelled but still running.
    @inlinable
    package mutating func keyWasReDated(
        _ key: Key, now: Duration, in scheduler: inout Scheduler
    ) {
        var first: UInt64?
        var more: [UInt64] = []
        for (serial, watch) in watched where watch.key == key {
            if first == nil { first = serial } else { more.append(serial) }
        }
        guard let first else { return }
        guard !more.isEmpty else { return hedgeIfDue(first, now: now, in: &scheduler) }
        // In the order the attempts started, whatever the dictionary's: the
        // simulator's runs are a function of their seed.
        for serial in ([first] + more).sorted() {
            hedgeIfDue(serial, now: now, in: &scheduler)
        }
    }

    /// Attempt `id` ended, having `succeeded` or not; returns whether it was
    /// a hedge. Told before the scheduler hears of it: a success that ends
    /// a race between the two attempts of a load is recorded as the
    /// hedge's win or loss.
    @inlinable
    package mutating func forget(_ id: LoadID, succeeded: Bool, in scheduler: Scheduler) -> Bool {
        guard policy.isEnabled else { return false }
        watched[id.serial] = nil
        untimed[id.serial] = nil
        refused.remove(id.serial)
        let wasHedge = hedges.remove(id.serial) != nil
        if succeeded, scheduler.isRacing(id) {
            if races.count == Self.racesJudged { races.removeFirst() }
            races.append(wasHedge)
        }
        return wasHedge
    }

    /// Hedges a watched attempt if (with the time `now` known) its item is
    /// due within ``FetchHedging/dueWithin`` — before its threshold only
    /// with `hedgesDueSoonAtOnce` — or it is past its threshold and wanted
    /// for display, and hedges pay (or it is a probe); otherwise it stays
    /// as it is.
    @inlinable
    mutating func hedgeIfDue(
        _ serial: UInt64, now: Duration?, in scheduler: inout Scheduler
    ) {
        let (id, key, isPastThreshold): (LoadID, Key, Bool)
        switch watched[serial] {
        case .timing(let watchedID, let watchedKey):
            guard hedgesDueSoonAtOnce else { return }
            (id, key, isPastThreshold) = (watchedID, watchedKey, false)
        case .due(let watchedID, let watchedKey): (id, key, isPastThreshold) = (watchedID, watchedKey, true)
        case nil: return
        }
        guard case .running(let priority) = scheduler.phase(of: key) else { return }
        let isDueSoon =
            now.flatMap { now in
                scheduler.earliestDeadline(ofKey: key).map { $0 <= now + FetchHedging.dueWithin }
            } ?? false
        let isDisplay = Self.isDisplay(priority)
        guard isDueSoon || (isPastThreshold && isDisplay) else { return }
        if !hedgesPay {
            // Refused (it stays as it is), but for a probe now and then.
            refusedSinceProbe += 1
            guard refusedSinceProbe == Self.probeEvery else {
                if refused.insert(serial).inserted { refusedCount += 1 }
                return
            }
            refusedSinceProbe = 0
        }
        // Refused only when the attempt has ended or had its hedge: nothing left to watch.
        watched[serial] = nil
        scheduler.hedge(id)
    }
}
