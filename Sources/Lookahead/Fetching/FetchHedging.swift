/// When an ``AsyncFetcher`` starts a second attempt for a display request's
/// slow load (tail hedging).
///
/// With log-normal latencies a few slow responses decide how long a screen
/// stays blank; a second request for the same key, made once the first has
/// taken longer than most loads do, usually lands well before it. Loads
/// wanted at ``FetchPriority/high`` or above (a cell on screen waits) are
/// hedged, and so are prefetches whose item is due within ``dueWithin``
/// (``FetchTask/setDeadline(_:)``, which `PrefetchCoordinator` calls
/// every frame): a cell about to appear. Each
/// load is hedged at most once; the hedge takes a slot of the concurrency
/// limit: with none free it waits for one behind the loads of its priority
/// and ahead of prefetches, and is dropped if the load ends first. The first
/// attempt to succeed delivers; the other's task is cancelled. While
/// hedges do not win — fewer than 2 of the last 20 that raced their first
/// attempt, as on a link whose bandwidth the loads in flight use up, where
/// a second transfer only slows the others — the fetcher stops hedging but
/// for one in 8, to see whether that has changed. Off by default: a hedge
/// costs a request, which a server may count.
public enum FetchHedging: Sendable, Hashable {
    /// Never hedge.
    case off
    /// Hedge a display load that has run longer than this (more than zero).
    case after(Duration)
    /// Hedge a display load that has run longer than the 90th percentile of
    /// the fetcher's recent load durations (the last 128 successes). No
    /// hedge until `minimumSamples` loads have succeeded: before that the
    /// percentile says nothing. Loads that started before then (the first
    /// screen's) are timed from when there is a threshold;
    /// ``afterP90WithPrior(_:)`` hedges them sooner.
    case afterP90
    /// ``afterP90``, but while fewer than `minimumSamples` loads have
    /// succeeded, hedge a display load that has run longer than this prior
    /// (zero or more; zero: as soon as it runs).
    ///
    /// The first screen is where a prior pays: its loads all start at once,
    /// before any has landed, and with log-normal latencies nothing tells
    /// the slow ones apart while they run. It costs at most one request per
    /// first-screen cell (docs/decisions.md, "A first-screen prior of 34 ms").
    case afterP90WithPrior(Duration)

    /// The hedging the simulator's `adaptive` strategy runs, and its
    /// published figures include: ``afterP90WithPrior(_:)`` with a prior of
    /// 34 ms (two frames).
    ///
    /// ```swift
    /// let fetcher = AsyncFetcher<Item.ID, Item>(maxConcurrentLoads: 6, hedging: .recommended) { id in
    ///     try await api.item(id)
    /// }
    /// ```
    ///
    /// Without hedging (the fetcher's default: a hedge costs a request) the
    /// same planner leaves more cells blank (docs/decisions.md, "Hedge slow
    /// visible loads"). For large payloads sharing a link (an image grid)
    /// add `hedgesDueSoonAtOnce: false`, as the simulator does on its
    /// capped `photos` link.
    public static var recommended: FetchHedging { .afterP90WithPrior(.milliseconds(34)) }

    /// The successes `afterP90` waits for before its first hedge.
    public static var minimumSamples: Int { 3 }

    /// A prefetch whose item is due within this long is hedged: at once when
    /// a request re-dates it that soon, threshold passed or not, and when its
    /// threshold passes while it is that soon: 300 ms.
    ///
    /// Hedging only once a load has run past the threshold waits for the
    /// tail while the cell appears; a cell that appears within 300 ms and
    /// has not landed is better served by a second draw now. On a link that
    /// large payloads share a second transfer slows every other: there make
    /// the fetcher with `hedgesDueSoonAtOnce: false` (docs/decisions.md,
    /// "Hedge a prefetch due within 300 ms at once").
    public static var dueWithin: Duration { .milliseconds(300) }

    /// Whether the threshold follows the p90 of observed load durations.
    @inlinable var followsP90: Bool {
        switch self {
        case .afterP90, .afterP90WithPrior: true
        case .off, .after: false
        }
    }

    /// Whether any load may be hedged.
    @inlinable public var isEnabled: Bool { self != .off }
}
