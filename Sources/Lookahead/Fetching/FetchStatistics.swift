/// Lifetime counters of a fetcher, for an app to export to its metrics system.
///
/// Counts attempts, not keys: a load retried twice counts three starts.
public struct FetchStatistics: Sendable, Hashable, Codable {
    /// Loads started, retries included.
    public var loadsStarted = 0
    /// Loads that produced a value.
    public var loadsCompleted = 0
    /// Loads that failed for good (after their retries).
    public var loadsFailed = 0
    /// Loads cancelled because nobody wanted them any more (running or backing off).
    public var loadsCancelled = 0
    /// Retries scheduled after a transient failure.
    public var retriesScheduled = 0
    /// Requests answered from the memory cache without a load.
    public var cacheHits = 0
    /// Second attempts started for slow loads (also counted in `loadsStarted`).
    public var hedgesStarted = 0
    /// Hedged loads whose second attempt delivered while the first still ran.
    public var hedgesWon = 0
    /// Loads not hedged when they were due because the recent hedges had not
    /// won (``FetchHedging``: as on a starved link); each counted once.
    public var hedgesRefused = 0

    @inlinable
    public init() {}
}
