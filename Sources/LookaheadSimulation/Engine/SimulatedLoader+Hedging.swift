import Lookahead

// Tail hedging in the simulator's loader, event for event as the runtime
// fetcher hedges (`FetcherCore+Hedging.swift`), in virtual time.

/// What ``SimulatedLoader`` keeps to hedge as an `AsyncFetcher` made with
/// `hedging:` and `hedgesDueSoonAtOnce:` does: the observed durations whose
/// p90 is the threshold, and the attempts watched for it.
///
/// An attempt is watched from its start (or its raise to a display
/// priority, when it started before there was a threshold): a timer runs to
/// its threshold, at the exact virtual time, not at the next frame. When it
/// fires the attempt is due, and asks for its hedge if it is wanted for
/// display or its item is due within ``FetchHedging/dueWithin``; a due
/// attempt that is neither asks again when it is raised or re-dated. A
/// prefetch re-dated to be due that soon asks at once, threshold passed or
/// not, when `dueSoonAtOnce`. The scheduler decides the rest, as in the
/// runtime: one hedge per load, waiting for a slot by priority and deadline.
///
/// One refusal the runtime cannot make, as it cannot see the link: past its
/// threshold, a visible cell's hedge is not asked for while the payloads in
/// flight take longer than the threshold to cross a link of limited
/// bandwidth (``SimulatedLoader/isLinkStarved(within:)``), nor a
/// prefetch's while anything is in flight on one; the attempt stays due and
/// asks again every frame.
struct SimulatedHedging {
    enum Watch {
        /// Its timer runs.
        case timing(key: Int)
        /// Its threshold passed; it waits to be wanted for display or due soon.
        case due(key: Int)
    }

    /// The fetcher's `hedging:`: not `.off`.
    let policy: FetchHedging
    /// Whether a prefetch re-dated due soon is hedged before its threshold.
    let dueSoonAtOnce: Bool
    /// The recent successful attempts' durations, as the fetcher's.
    var durations = LoadDurationEstimator(quantile: 0.9, prior: .zero)
    /// Running first attempts watched for their threshold, by serial.
    var watched: [UInt64: Watch] = [:]

    /// Hedging as `AsyncFetcher(hedging: policy, hedgesDueSoonAtOnce: dueSoonAtOnce)`
    /// does; `nil` for `.off`.
    init?(_ policy: FetchHedging, dueSoonAtOnce: Bool) {
        guard policy.isEnabled else { return nil }
        self.policy = policy
        self.dueSoonAtOnce = dueSoonAtOnce
    }

    /// How long an attempt may run before it is hedged, or `nil` when none
    /// is hedged yet (too few durations observed and no prior), as the
    /// fetcher's.
    var threshold: Duration? {
        let observed = durations.count >= FetchHedging.minimumSamples ? durations.estimate : nil
        switch policy {
        case .off: return nil
        case .after(let duration): return duration
        case .afterP90: return observed
        case .afterP90WithPrior(let prior): return observed ?? prior
        }
    }
}

extension SimulatedLoader {
    /// Hedges from now on as an `AsyncFetcher` made with `hedging:` and
    /// `hedgesDueSoonAtOnce:` does (``SimulatedHedging``).
    mutating func hedge(like hedging: FetchHedging, dueSoonAtOnce: Bool) {
        self.hedging = SimulatedHedging(hedging, dueSoonAtOnce: dueSoonAtOnce)
    }

    /// Attempt `id` of `key` started at `time`, or was raised to a display
    /// priority: it is watched for its threshold, or asks for its hedge if
    /// already due.
    mutating func watchForHedge(_ id: Scheduler.LoadID, key: Int, at time: Duration) {
        guard let hedging, !scheduler.isHedge(id) else { return }
        switch hedging.watched[id.serial] {
        case nil:
            guard let threshold = hedging.threshold else { return }
            self.hedging!.watched[id.serial] = .timing(key: key)
            schedule(.hedge(id), at: time + threshold)
        case .timing:
            break
        case .due:
            hedgeIfDue(id, at: time)
        }
    }

    /// The threshold of attempt `id` passed at `time`.
    mutating func hedgeTimerFired(_ id: Scheduler.LoadID, at time: Duration) {
        guard case .timing(let key) = hedging?.watched[id.serial] else { return }
        hedging!.watched[id.serial] = .due(key: key)
        hedgeIfDue(id, at: time)
    }

    /// The prefetch of `key` was re-dated at `time`: its watched attempts
    /// ask for their hedge if its item is now due soon.
    /// - Complexity: O(loads in flight).
    mutating func keyWasReDated(_ key: Int, at time: Duration) {
        guard let watched = hedging?.watched, !watched.isEmpty else { return }
        // In the order they started, as everything here: the run is a function of the seed.
        for id in loads.values.lazy.filter({ $0.key == key && watched[$0.id.serial] != nil }).map(\.id)
            .sorted(by: { $0.serial < $1.serial })
        {
            hedgeIfDue(id, at: time)
        }
    }

    /// Asks again for the hedges of due attempts (refused on a starved
    /// link), oldest first.
    /// - Complexity: O(w log w), w the attempts watched.
    mutating func retryDueHedges(at time: Duration) {
        guard let watched = hedging?.watched else { return }
        for serial in watched.keys.sorted() {
            guard case .due = watched[serial], let load = loads[Int(serial)] else { continue }
            hedgeIfDue(load.id, at: time)
        }
    }

    /// Attempt `id` ended: it is watched no more.
    mutating func forgetAttempt(_ id: Scheduler.LoadID) {
        hedging?.watched[id.serial] = nil
    }

    /// Hedges watched attempt `id` if its item is due within
    /// ``FetchHedging/dueWithin`` (before its threshold only with
    /// `dueSoonAtOnce`), or it is past its threshold and wanted for
    /// display; past its threshold, not on a link it would starve.
    mutating func hedgeIfDue(_ id: Scheduler.LoadID, at time: Duration) {
        guard let hedging, let watch = hedging.watched[id.serial],
            let key = loads[Int(id.serial)]?.key, case .running(let priority) = scheduler.phase(of: key)
        else { return }
        let isDueSoon = scheduler.earliestDeadline(ofKey: key).map { $0 <= time + FetchHedging.dueWithin } ?? false
        switch watch {
        case .timing:
            guard hedging.dueSoonAtOnce, isDueSoon else { return }
        case .due:
            // A visible cell's hedge waits while the payloads in flight take
            // longer than the threshold to cross the link; a prefetch's while
            // anything is in flight on a limited one.
            let isDisplay = priority >= .high
            guard isDisplay || isDueSoon, !isLinkStarved(within: isDisplay ? hedging.threshold ?? .zero : .zero)
            else { return }
        }
        // Refused only when the attempt has ended or had its hedge: nothing left to watch.
        self.hedging!.watched[id.serial] = nil
        scheduler.hedge(id)
    }

    /// Whether the link is the bottleneck: the payloads in flight (whole,
    /// an upper estimate of what is left of them) would take longer than
    /// `threshold` to cross it. A hedge would then only slow every transfer.
    func isLinkStarved(within threshold: Duration) -> Bool {
        guard case .bitsPerSecond(let bits) = network.bandwidth else { return false }
        let bytes =
            loads.values.reduce(0) { $0 + self.bytes(ofKey: $1.key) }
            + pageLoads.values.reduce(0) { $0 + self.bytes(ofKey: $1.key) }
        return Double(bytes) * 8 / bits > threshold / .seconds(1)
    }
}
