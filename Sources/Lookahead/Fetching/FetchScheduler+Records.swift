/// The load/interest model of `FetchScheduler`: what a driver is told to do
/// (actions, failure dispositions) and the records the scheduler keeps for
/// each load, interest and group, with the states a load goes through.
extension FetchScheduler {
    /// What the driver must do.
    public enum Action {
        /// Start loading `key`; report the outcome with `loadDidSucceed` or `loadDidFail`.
        case start(LoadID, Key, FetchPriority)
        /// Stop the running load: nobody wants it any more. The driver still
        /// reports its end (it is then discarded), which frees its slot.
        case cancel(LoadID, Key)
        /// The priority of a running load changed (a driver may pass it on to
        /// the network layer; nothing else depends on it).
        case reprioritize(LoadID, Key, FetchPriority)
    }

    /// What happens after a failed attempt.
    public enum FailureDisposition {
        /// The failure is final: hand it to these payloads. Nothing is cached.
        case deliver([Payload])
        /// Try again: call `retryTimerFired` after this delay on the driver's clock.
        case retry(after: Duration)
        /// The load had been cancelled; its outcome concerns nobody.
        case discarded
    }

    // The records that do not name a key or a payload are types of their
    // own, not nested in the generic scheduler: code that walks them without
    // knowing `Key` (the fetcher's batch path, unspecialized in an app) reads
    // plain data instead of instantiating generic metadata for every access.
    @usableFromInline typealias LoadState = FetchLoadState
    @usableFromInline typealias LoadRecord = FetchLoadRecord
    @usableFromInline typealias InterestRecord = FetchInterestRecord
    @usableFromInline typealias ListEnds = FetchListEnds
    @usableFromInline typealias GroupRecord = FetchGroupRecord
}

extension FetchScheduler.Action: Sendable where Key: Sendable {}
extension FetchScheduler.Action: Equatable where Key: Equatable {}

/// Where one load stands. The transitions (every one in `reconcile`,
/// `startLoads`, `hedge` and the outcome events):
///
/// ```
/// idle ──wanted──▶ pending ──slot free──▶ running ──success/final failure──▶ (freed)
///  ▲                 │                       │ ╲──transient failure──▶ backingOff ──timer──▶ pending
///  └──not wanted─────┘                       │ ╲──nobody wants it──▶ cancelled ──reported──▶ (freed)
///                                            └──hedge──▶ hedgeQueued ──slot free──▶ hedged
///      hedged ──one attempt fails──▶ running
///        │ ╲──one succeeds──▶ (delivered; the other cancelled)
///        └──nobody wants it──▶ cancelled (both attempts)
/// ```
@usableFromInline
enum FetchLoadState: Sendable {
    /// Interests wait for the key, none of them active.
    case idle
    /// In the queue at this priority, ordered by this deadline (`nil`:
    /// FIFO after the loads that have one).
    case pending(FetchPriority, deadline: Duration?)
    /// Started as attempt `serial`, at this priority.
    case running(serial: UInt64, FetchPriority)
    /// Attempt `serial` runs at this priority and its hedge waits in the
    /// queue for a slot, placed as a pending load of that priority and of
    /// the load's earliest deadline would be (it goes ahead of
    /// lower-priority loads, and of later-due ones of its own). The
    /// attempt's outcome drops the hedge.
    case hedgeQueued(serial: UInt64, FetchPriority)
    /// Two attempts run at this priority: `serial`, the first, and
    /// `hedge`, a second one started because the first was slow. Each
    /// holds a slot of the concurrency limit; the first to succeed
    /// delivers and the other is cancelled; one that fails while the other
    /// runs leaves the load `running` on the other.
    case hedged(serial: UInt64, hedge: UInt64, FetchPriority)
    /// Attempt `serial` (and its hedge, when one ran) was cancelled but
    /// has not ended: each holds a slot of the concurrency limit until the
    /// driver reports it. The record is no longer the key's (a new load of
    /// the key has a record of its own).
    case cancelled(serial: UInt64, hedge: UInt64?)
    /// Attempt `serial` failed transiently; the retry timer will queue it again.
    case backingOff(serial: UInt64)
}

@usableFromInline
struct FetchLoadRecord: Sendable {
    @usableFromInline var state: FetchLoadState = .idle
    /// The first and last interest in the key, linked through the interest records.
    @usableFromInline var head = -1
    @usableFromInline var tail = -1
    @usableFromInline var interestCount = 0
    @usableFromInline var admittedCount = 0
    /// The active interests (admitted, group not paused) by priority.
    @usableFromInline var active = PriorityCounts()
    /// The active interests that carry a deadline: when zero, the load
    /// has no deadline and nothing walks its interests to find one.
    @usableFromInline var datedCount = 0
    /// Failed attempts of this load: the retry budget it has used.
    @usableFromInline var failures = 0
    /// Whether this load has had its one hedge (retries included).
    @usableFromInline var hasHedged = false

    @inlinable
    init() {}
}

@usableFromInline
struct FetchInterestRecord: Sendable {
    @usableFromInline var generation: UInt32 = 0
    @usableFromInline var isLive = false
    @usableFromInline var load = -1
    @usableFromInline var group = 0
    @usableFromInline var priority: FetchPriority = .normal
    @usableFromInline var deadline: Duration?
    @usableFromInline var isAdmitted = false
    @usableFromInline var hasPayload = false
    /// Whether the interest is its group's entry for its key (see `addKey`).
    @usableFromInline var isKeyed = false
    @usableFromInline var loadPrevious = -1
    @usableFromInline var loadNext = -1
    @usableFromInline var groupPrevious = -1
    @usableFromInline var groupNext = -1

    @inlinable
    init() {}
}

@usableFromInline
struct FetchGroupRecord: Sendable {
    @usableFromInline var generation: UInt32 = 0
    @usableFromInline var isLive = false
    @usableFromInline var isPaused = false
    @usableFromInline var priority: FetchPriority = .low
    @usableFromInline var admissionLimit = Int.max
    @usableFromInline var admittedCount = 0
    @usableFromInline var admitted = FetchListEnds()
    @usableFromInline var waiting = FetchListEnds()
    /// Keyed interests whose load succeeded, or failed for good.
    @usableFromInline var completedCount = 0
    @usableFromInline var failedCount = 0

    @inlinable
    init() {}
}

@usableFromInline
struct FetchListEnds: Sendable {
    @usableFromInline var head = -1
    @usableFromInline var tail = -1

    @inlinable
    init() {}
}
