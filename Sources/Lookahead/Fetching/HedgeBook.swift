/// What ``FetcherCore`` keeps to hedge slow display loads (``FetchHedging``):
/// the threshold (fixed, or the p90 of recent load durations), which running
/// attempts wait for their threshold or have passed it, and which attempts
/// are hedges. Plain data, changed under the fetcher's lock; the clock is
/// read by the worker and the timers, outside it.
@usableFromInline
struct HedgeBook<Key: Hashable & Sendable, Payload>: Sendable where Payload: Sendable {
    @usableFromInline typealias LoadID = FetchScheduler<Key, Payload>.LoadID

    @usableFromInline
    enum Watch: Sendable {
        /// A timer runs until the attempt's threshold; a prefetch whose item
        /// is re-dated due soon is hedged before it.
        case timing(LoadID, Key)
        /// The threshold passed while the load was not wanted for display:
        /// it asks for its hedge when it is raised to a display priority.
        case due(LoadID, Key)
    }

    @usableFromInline let policy: FetchHedging
    /// Whether a prefetch re-dated due within ``FetchHedging/dueWithin`` is
    /// hedged before its threshold passes.
    @usableFromInline let hedgesDueSoonAtOnce: Bool
    /// The recent successful attempts' durations, for `afterP90`.
    @usableFromInline var durations = LoadDurationEstimator(quantile: 0.9, prior: .zero)
    /// Running first attempts watched for their threshold, by serial.
    @usableFromInline var watched: [UInt64: Watch] = [:]
    /// Running hedges, by serial.
    @usableFromInline var hedges: Set<UInt64> = []

    @inlinable
    init(policy: FetchHedging, hedgesDueSoonAtOnce: Bool) {
        self.policy = policy
        self.hedgesDueSoonAtOnce = hedgesDueSoonAtOnce
    }

    /// How long a display load may run before it is hedged, or `nil` when
    /// no load is hedged now (off, or too few durations observed).
    @inlinable var threshold: Duration? {
        switch policy {
        case .off: nil
        case .after(let duration): duration
        case .afterP90: durations.count >= FetchHedging.minimumSamples ? durations.estimate : nil
        case .afterP90WithPrior(let prior):
            durations.count >= FetchHedging.minimumSamples ? durations.estimate : prior
        }
    }

    /// Whether loads at `priority` are hedged: display requests only.
    @inlinable
    static func isDisplay(_ priority: FetchPriority) -> Bool { priority >= .high }
}
