package import Lookahead

// The loads underneath a StrategyDriver: what the simulator does on a
// FetchScheduler in virtual time and the real replay on an AsyncFetcher.

/// The loads a ``StrategyDriver`` asks for, and how they are performed.
///
/// Two implementations: the simulator's (a ``FetchScheduler`` and a
/// ``TransferSimulator`` in virtual time) and the real replay's (an
/// `AsyncFetcher` whose loads are HTTP requests). The driver decides; the
/// loader performs, and reports back through the driver's `load…` methods.
///
/// **Items** go through the fetcher and its concurrency limit: prefetches at
/// `.normal`, a `Prefetcher`'s at `.low` two at a time, visible cells'
/// display requests at the priority the driver gives.
///
/// **Pages** go where the runtime ``Pager`` sends them: each page load runs
/// on its own, outside the fetcher and its limit (the `Pager` starts a task
/// per load), and is retried only when the ``PagingStateMachine`` says
/// `.retry`, after the delay it gives. The pager never has more than one
/// page loading per end of the list.
package protocol StrategyLoader {
    /// Asks for `key` ahead of time, at `.normal` priority.
    mutating func prefetch(_ key: Int)
    /// Withdraws the prefetches of `key`; a display request for it stays.
    mutating func cancelPrefetch(_ key: Int)
    /// `key`'s item came on screen: its prefetch, if any, is consumed as the
    /// coordinators consume theirs (`PrefetchRequestTable`): its load goes
    /// on, the prefetch stepped down to `.low`, ranked by the cell's request.
    mutating func consumePrefetch(_ key: Int)
    /// Starts prefetching `item` through the strategy's `Prefetcher`.
    mutating func startPrefetching(_ item: Int)
    /// Stops prefetching `item` through the strategy's `Prefetcher`.
    mutating func stopPrefetching(_ item: Int)
    /// Asks for a visible `item` at `priority`; a request already made for it
    /// is withdrawn once the new one is registered, so that its load goes on
    /// whether the new one is higher or lower.
    mutating func requestForDisplay(_ item: Int, priority: FetchPriority)
    /// Withdraws the display request of `item`, which left the screen.
    mutating func withdrawDisplayRequest(_ item: Int)
    /// The fetcher's queue, as the planner and the window see it.
    var loadQueue: LoadQueueState { get }
    /// Starts loading a page (key: its first index), outside the fetcher.
    mutating func loadPage(_ key: Int)
    /// Stops loading the page whose key is `key`.
    mutating func cancelPage(_ key: Int)
    /// Arranges for ``StrategyDriver/pageRetryDue(_:at:)`` to be called at `time`.
    mutating func schedulePageRetry(_ request: PageRequest, at time: Duration)
    /// Whether `item`'s data is in the cache though the driver has not been
    /// told it arrived (the replay's cells read the cache; the simulator
    /// tells the driver at once, so it answers `false`).
    func isCached(_ item: Int) -> Bool
    /// When `key`'s data arrived, if the loader knows.
    func arrival(ofKey key: Int) -> Duration?
    /// Hedges slow loads from now on as an `AsyncFetcher` made with
    /// `hedging:` and `hedgesDueSoonAtOnce:` does.
    mutating func hedge(like hedging: FetchHedging, dueSoonAtOnce: Bool)
    /// Re-dates the prefetch of `key`, asked for with ``prefetch(_:)``: its
    /// item is needed by `deadline` (trace time), and it is `time` now.
    /// Queued prefetches start earliest deadline first; nothing happens to
    /// one already running or done.
    mutating func datePrefetch(_ key: Int, by deadline: Duration, at time: Duration)
}

extension StrategyLoader {
    /// Nothing to do: the real replay's `AsyncFetcher` is made with its hedging.
    package mutating func hedge(like hedging: FetchHedging, dueSoonAtOnce: Bool) {}
}
