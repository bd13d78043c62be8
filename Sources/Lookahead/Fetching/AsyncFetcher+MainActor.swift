// A display request: what a view asks for the value it shows, its
// completion on the main actor.

extension AsyncFetcher {
    /// Asks for the value of `key` for a view that shows it: starts loading
    /// it, or joins the load already running, at `priority` (`.high` by
    /// default, above every prefetch), and calls `completion` on the main
    /// actor.
    ///
    /// Ordering, the guarantee UI code can rely on:
    /// - A cached value is delivered synchronously, before this method
    ///   returns, so `cellForItemAt` shows it without a flash.
    /// - Otherwise `completion` never runs inside this call. It runs later on
    ///   the main actor; the completions of one fetcher run one at a time, in
    ///   the order the fetcher handed over their results: for loads that finish
    ///   one after another, the order they finished; for requests sharing one
    ///   load, the order they were made.
    /// - It runs exactly once. Cancelling the returned request on the main
    ///   actor before `completion` has run — even if the value has arrived and
    ///   waits for the main actor — makes it run with a `CancellationError`
    ///   instead, so a reused cell is never configured with a stale value.
    ///
    /// Nothing here blocks the main actor: the request is registered under
    /// the fetcher's lock, held for O(1), and results are queued for the main
    /// actor by the loading threads.
    ///
    /// ```swift
    /// // cellForItemAt:
    /// cell.request = fetcher.requestDisplay(of: ids[indexPath.item]) { [weak cell] result in
    ///     if case .success(let item) = result { cell?.show(item) }
    /// }
    /// // prepareForReuse:
    /// cell.request?.cancel()
    /// ```
    ///
    /// A cell of a `UICollectionView` a ``PrefetchCoordinator`` drives asks
    /// through the coordinator instead, which ranks it as the scroll goes.
    ///
    /// - Returns: the request's handle, to cancel or re-prioritise it.
    /// - Complexity: O(1) amortized.
    @MainActor
    @discardableResult
    public func requestDisplay(
        of key: Key,
        priority: FetchPriority = .high,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask {
        if let value = memoryCache.valueCountingHit(forKey: key) {
            completion(.success(value))
            return FetchTask(completedWith: priority)
        }
        let delivery = MainActorCompletion(completion, queue: core.mainActorQueue)
        let payload = FetchPayload<Value>(.completion { delivery.deliver($0) })
        switch core.register(key, priority: priority, payload: payload, delivery: delivery) {
        case .registered(let request):
            return request
        case .cached(let value):
            completion(.success(value))
            return FetchTask(completedWith: priority)
        }
    }
}
