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
    /// Asks for `key` ahead of time, at `.normal` priority (`all`, `batch`,
    /// the oracle's releases).
    mutating func prefetch(_ key: Int)
    /// Asks for a first-screen `item` before the view exists, at `.high`,
    /// as `AsyncFetcher.prefetchFirstScreen(_:)` does; never withdrawn.
    mutating func prefetchFirstScreen(_ item: Int)
    /// Performs a coordinator frame's actions (``CoordinatorCore/Actions``,
    /// in keys) as the coordinators perform theirs on a fetcher: consumed
    /// prefetches step down to `.low`, withdrawn ones are withdrawn by their
    /// own request (never another's interest in the key), new ones made at
    /// `.normal`, moved deadlines placed, the predicted ones checked for a
    /// due-soon hedge, display requests re-ranked; `time` is now. Through the
    /// strategy's `Prefetcher` instead, when it has one (`nuke`): prefetches
    /// start and stop its keys, and nothing is consumed or dated.
    mutating func perform(_ actions: CoordinatorCore<Int>.Actions, at time: Duration)
    /// Starts prefetching `item` through the strategy's `Prefetcher`.
    mutating func startPrefetching(_ item: Int)
    /// Stops prefetching `item` through the strategy's `Prefetcher`.
    mutating func stopPrefetching(_ item: Int)
    /// Asks for a visible `item` at `priority`; a request already made for it
    /// is withdrawn once the new one is registered, so that its load goes on.
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
}

extension StrategyLoader {
    /// Nothing to do: the real replay's `AsyncFetcher` is made with its hedging.
    package mutating func hedge(like hedging: FetchHedging, dueSoonAtOnce: Bool) {}

    /// A loader that has no lead asks when the view does (the real replay).
    package mutating func prefetchFirstScreen(_ item: Int) { prefetch(item) }
}
