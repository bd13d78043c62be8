/// Loads values by key with coalescing, reference-counted cancellation,
/// priorities, a concurrency limit, retries and a memory cache.
///
/// The modern form of the `AsyncFetcher` in Apple's "Prefetching collection
/// view data" sample, with the calls a data source makes — ``prefetch(_:priority:deadline:)``
/// from `prefetchItemsAt`, ``fetchedData(for:)`` and
/// ``requestDisplay(of:priority:completion:)`` from `cellForItemAt`,
/// ``cancelPrefetching(for:)`` from `cancelPrefetchingForItemsAt` — and
/// without the sample's bug: cancelling a prefetch never drops a cell's
/// waiting completion, so no cell stays blank forever.
///
/// ```swift
/// let fetcher = AsyncFetcher<Item.ID, Item> { id in try await api.item(id) }
/// let id: Item.ID = 7
/// fetcher.prefetch(id)                                      // at .normal
/// let request = fetcher.requestDisplay(of: id) { result in  // at .high, on the main actor
///     if case .success(let item) = result { cell.show(item) }
/// }
/// request.cancel()                                          // the cell was reused
/// fetcher.cancelPrefetching(for: id)                        // the prefetches only
/// let item = try await fetcher.value(for: id)               // or await it
/// ```
///
/// - One load per key at a time: every request for a key shares it.
/// - A load stops only when nobody wants it, and then its task is cancelled,
///   so a loader that honours cancellation (URLSession, AsyncHTTPClient)
///   really stops.
/// - At most `maxConcurrentLoads` loads run; the rest wait, highest priority
///   first, FIFO within a priority. A load shared by several requests runs at
///   the highest of their priorities.
/// - A request may say when its item is predicted to appear
///   (``prefetch(_:priority:deadline:)``): within a priority,
///   loads with a deadline start earliest first, ahead of those without one.
/// - Failures reach every waiting request and are never cached; transient ones
///   are retried first, with bounded backoff on the injected clock.
/// - Opt-in (`hedging:`, ``FetchHedging``): a display request's load that runs
///   past a threshold gets one second attempt in a free slot; the first to
///   land is delivered and the other's task is cancelled.
///
/// Decisions are made by a `FetchScheduler`; this type only performs them.
/// All methods are safe to call from any thread or task.
public final class AsyncFetcher<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The cache `fetchedData(for:)` reads and every completed load writes.
    public let memoryCache: MemoryCache<Key, Value>
    @usableFromInline let core: FetcherCore<Key, Value>

    /// Creates a fetcher.
    ///
    /// - Parameters:
    ///   - maxConcurrentLoads: the most loads that run at once (at least 1).
    ///   - memoryCache: where loaded values are kept.
    ///   - clock: the clock retry delays and load durations (in the load
    ///     events) are measured on.
    ///   - retryPolicy: how transient failures are retried.
    ///   - isTransient: which errors are worth a retry; by default those that
    ///     conform to ``TransientError``. A `CancellationError` never is.
    ///   - hedging: whether a display request's slow load gets a second
    ///     attempt, and when (``FetchHedging``); off by default. Measured on
    ///     `clock`.
    ///   - hedgesDueSoonAtOnce: with `hedging:` on, whether a prefetch
    ///     re-dated to be due within ``FetchHedging/dueWithin`` is hedged at
    ///     once rather than when its threshold passes; on by default. Turn it
    ///     off for large payloads sharing a link (image grids): there a second
    ///     transfer now slows every transfer in flight (docs/decisions.md).
    ///   - load: loads the value of a key. Runs in a task that is cancelled when
    ///     nobody wants the value any more. A hedged key's loader runs twice
    ///     at once; the attempt that loses is cancelled.
    @inlinable
    public convenience init(
        maxConcurrentLoads: Int = 6,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        clock: some Clock<Duration> = ContinuousClock(),
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = isTransientByDefault,
        hedging: FetchHedging = .off,
        hedgesDueSoonAtOnce: Bool = true,
        load: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.init(
            maxConcurrentLoads: maxConcurrentLoads, memoryCache: memoryCache, clock: clock,
            retryPolicy: retryPolicy, isTransient: isTransient, hedging: hedging,
            hedgesDueSoonAtOnce: hedgesDueSoonAtOnce, tellsLoaderContext: false
        ) { key, _ in try await load(key) }
    }

    /// Creates a fetcher whose loader learns each attempt's ``LoadContext``:
    /// its priority and the changes to it while it runs, whether it is a
    /// prefetch, which attempt it is. What a network loader needs to set its
    /// request's priority and keep prefetches off a constrained network.
    ///
    /// ```swift
    /// let fetcher = AsyncFetcher<URL, Data> { url, context in
    ///     var request = URLRequest(url: url)
    ///     request.allowsConstrainedNetworkAccess = !context.isPrefetch
    ///     return try await URLSession.shared.data(for: request).0
    /// }
    /// ```
    ///
    /// (`URLSessionLoader`, in `LookaheadURLSession`, does this and follows
    /// the priority as it changes.)
    ///
    /// The other parameters are those of the initializer whose loader takes
    /// the key alone.
    @inlinable
    public convenience init(
        maxConcurrentLoads: Int = 6,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        clock: some Clock<Duration> = ContinuousClock(),
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = isTransientByDefault,
        hedging: FetchHedging = .off,
        hedgesDueSoonAtOnce: Bool = true,
        load: @escaping @Sendable (Key, LoadContext) async throws -> Value
    ) {
        self.init(
            maxConcurrentLoads: maxConcurrentLoads, memoryCache: memoryCache, clock: clock,
            retryPolicy: retryPolicy, isTransient: isTransient, hedging: hedging,
            hedgesDueSoonAtOnce: hedgesDueSoonAtOnce, tellsLoaderContext: true, load: load)
    }

    @inlinable
    init(
        maxConcurrentLoads: Int,
        memoryCache: MemoryCache<Key, Value>,
        clock: some Clock<Duration>,
        retryPolicy: RetryPolicy,
        isTransient: @escaping @Sendable (any Error) -> Bool,
        hedging: FetchHedging,
        hedgesDueSoonAtOnce: Bool,
        tellsLoaderContext: Bool,
        load: @escaping @Sendable (Key, LoadContext) async throws -> Value
    ) {
        precondition(maxConcurrentLoads >= 1, "maxConcurrentLoads must be at least 1, got \(maxConcurrentLoads)")
        if case .after(let threshold) = hedging {
            precondition(threshold > .zero, "hedging: .after needs a threshold above zero, got \(threshold)")
        }
        if case .afterP90WithPrior(let prior) = hedging {
            precondition(prior >= .zero, "hedging: .afterP90WithPrior needs a prior of zero or more, got \(prior)")
        }
        self.memoryCache = memoryCache
        self.core = FetcherCore(
            maxConcurrentLoads: maxConcurrentLoads,
            retryPolicy: retryPolicy,
            memoryCache: memoryCache,
            sleep: { duration in try await clock.sleep(for: duration) },
            startStopwatch: {
                let start = clock.now
                return { start.duration(to: clock.now) }
            },
            isTransient: isTransient,
            hedging: hedging,
            hedgesDueSoonAtOnce: hedgesDueSoonAtOnce,
            tellsLoaderContext: tellsLoaderContext,
            load: load
        )
    }

    deinit {
        core.shutDown()
    }

    /// Prefetches the value of `key`: starts loading it, or joins the load
    /// already running, at `priority` (`.normal` by default, below display
    /// requests). ``cancelPrefetching(for:)`` withdraws every prefetch of the
    /// key; the returned handle's ``FetchTask/cancel()`` withdraws this one.
    ///
    /// With a `deadline` — how long from now until the item is predicted to
    /// appear, on the fetcher's clock (negative: overdue) — the load starts
    /// ahead of those waiting at the same priority that are due later or
    /// have none. A load shared by several requests is due at the earliest
    /// of their deadlines. Change it later with ``FetchTask/setDeadline(_:)``.
    ///
    /// A view that shows the value asks with
    /// ``requestDisplay(of:priority:completion:)`` instead.
    ///
    /// - Complexity: O(log n) with a deadline, O(1) amortized without.
    @inlinable
    @discardableResult
    public func prefetch(_ key: Key, priority: FetchPriority = .normal, deadline: Duration? = nil) -> FetchTask {
        fetchAsync(key, priority: priority, deadline: deadline, completion: nil)
    }

    /// Starts the loads of a screen about to appear, before its view exists —
    /// on a tap's touch-down, or as a navigation transition begins — so that
    /// its first frame finds them under way: each key is prefetched at
    /// `.high`, due now. The cells that show them join these loads (one load
    /// per key); nothing needs handing over.
    ///
    /// Pass only what the first screen shows (a few dozen keys at most): a
    /// key it does not show still loads, at `.high`, until the returned
    /// handles are cancelled.
    ///
    /// ```swift
    /// let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 6) { id in "item \(id)" }
    /// // The tap went down on a row that opens a list of items 0..<12.
    /// let firstScreen = fetcher.prefetchFirstScreen(0..<12)
    /// // If the screen is not shown after all:
    /// firstScreen.forEach { $0.cancel() }
    /// ```
    ///
    /// - Returns: a handle per key, in order; cancelling one withdraws only it.
    /// - Complexity: O(keys).
    @discardableResult
    public func prefetchFirstScreen(_ keys: some Sequence<Key>) -> [FetchTask] {
        keys.map { fetchAsync($0, priority: .high, deadline: .zero, completion: nil) }
    }

    /// A request whose `completion` runs off any lock, on an arbitrary
    /// thread (the simulator's, the tests' and the torture's): apps ask
    /// with ``prefetch(_:priority:deadline:)`` or
    /// ``requestDisplay(of:priority:completion:)``.
    @inlinable
    @discardableResult
    package func fetchAsync(
        _ key: Key,
        priority: FetchPriority = .high,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask {
        fetchAsync(key, priority: priority, deadline: nil, completion: completion)
    }

    /// A prefetch (`completion` `nil`) or a request whose completion runs
    /// off any lock, on an arbitrary thread, with an optional deadline.
    @inlinable
    @discardableResult
    package func fetchAsync(
        _ key: Key,
        priority: FetchPriority = .normal,
        deadline: Duration? = nil,
        completion: (@Sendable (Result<Value, any Error>) -> Void)? = nil
    ) -> FetchTask {
        // The common case in `cellForItemAt`: answered without the fetcher's lock.
        if let value = memoryCache.valueCountingHit(forKey: key) {
            completion?(.success(value))
            return FetchTask(completedWith: priority)
        }
        let payload = completion.map { FetchPayload(.completion($0)) }
        switch core.register(key, priority: priority, deadline: deadline, payload: payload, delivery: nil) {
        case .registered(let request):
            return request
        case .cached(let value):
            completion?(.success(value))
            return FetchTask(completedWith: priority)
        }
    }

    /// The cached value of `key`, if it has been loaded.
    ///
    /// For `cellForItemAt`: synchronous, constant time, safe from any thread.
    /// - Complexity: O(1)
    @inlinable
    public func fetchedData(for key: Key) -> Value? {
        memoryCache.value(forKey: key)
    }

    /// Withdraws the prefetches of `key` (``prefetch(_:priority:deadline:)``).
    ///
    /// The load stops only if nobody else wants it: a display request waiting
    /// for the same key keeps it running and still gets its value.
    /// - Complexity: O(requests for `key`).
    @inlinable
    public func cancelPrefetching(for key: Key) {
        core.update { state, _ in
            _ = state.scheduler.withdrawPrefetchInterests(in: key)
        }
    }

    /// Loads the value of `key`, or joins the load already running, and
    /// waits for it.
    ///
    /// Cancelling the calling task withdraws this request (and stops the load
    /// if nobody else wants it) and throws `CancellationError`.
    @inlinable
    public func value(for key: Key, priority: FetchPriority = .high) async throws -> Value {
        try await awaitValue(for: key, priority: priority, following: nil)
    }

    /// Loads the value of `key` for the load whose loader was given
    /// `context`, and waits for it: as ``value(for:priority:)``, at the
    /// context's priority and following its changes, and counted as a
    /// prefetch when that load is one. How a `DataPipeline`'s value load
    /// asks for its bytes.
    package func value(for key: Key, following context: LoadContext) async throws -> Value {
        try await awaitValue(for: key, priority: context.priority, following: context)
    }

    /// One waiting request: registered under the lock unless cancelled
    /// first or answered from the cache, withdrawn if the calling task is
    /// cancelled; with a `context`, at its priority as that changes.
    @inlinable
    func awaitValue(for key: Key, priority: FetchPriority, following context: LoadContext?) async throws -> Value {
        if let value = memoryCache.valueCountingHit(forKey: key) {
            return value
        }
        let core = self.core
        let token = core.update { state, _ in
            let token = state.nextToken
            state.nextToken += 1
            state.tokens[token] = .awaitingRegistration
            return token
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let registration: Registration = core.update { state, _ in
                    if case .cancelled = state.tokens[token] {
                        state.tokens[token] = nil
                        return .cancelled
                    }
                    if let value = core.memoryCache.valueCountingHit(forKey: key) {
                        state.tokens[token] = nil
                        return .cached(value)
                    }
                    let payload = FetchPayload(
                        .continuation(token: token, continuation), isOnBehalfOfPrefetch: context?.isPrefetch ?? false)
                    let id = state.scheduler.addInterest(in: key, priority: priority, payload: payload)
                    state.tokens[token] = .registered(id)
                    return .registered
                }
                switch registration {
                case .registered:
                    context?.onPriorityChange { priority in
                        core.update { state, _ in
                            guard case .registered(let id) = state.tokens[token] else { return }
                            state.scheduler.setPriority(priority, of: id)
                        }
                    }
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .cached(let value): continuation.resume(returning: value)
                }
            }
        } onCancel: {
            let payload: FetchPayload<Value>? = core.update { state, _ in
                switch state.tokens[token] {
                case .awaitingRegistration:
                    state.tokens[token] = .cancelled
                    return nil
                case .registered(let id):
                    state.tokens[token] = nil
                    return state.scheduler.withdraw(id)
                case .cancelled, nil:
                    return nil
                }
            }
            if case .continuation(_, let continuation) = payload?.kind {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    @usableFromInline
    enum Registration {
        case registered
        case cancelled
        case cached(Value)
    }

    /// The most loads that run at once. Raising it starts waiting loads at once.
    @inlinable
    public var maxConcurrentLoads: Int {
        get { core.state.withLock { $0.scheduler.maxConcurrentLoads } }
        set {
            precondition(newValue >= 1, "maxConcurrentLoads must be at least 1, got \(newValue)")
            core.update { state, _ in state.scheduler.maxConcurrentLoads = newValue }
        }
    }

    /// Lifetime counters: loads started, completed, failed, cancelled, retried,
    /// cache hits, hedges.
    ///
    /// Cache hits are counted by the memory cache: fetchers sharing one cache
    /// share that count.
    @inlinable
    public var statistics: FetchStatistics {
        core.state.withLock { state in
            var statistics = state.scheduler.statistics
            statistics.hedgesRefused = state.hedges.refusedCount
            statistics.cacheHits = memoryCache.countedHits
            return statistics
        }
    }

    /// Loads running now (including cancelled ones still winding down).
    @inlinable
    public var runningLoadCount: Int {
        core.state.withLock { $0.scheduler.runningCount }
    }

    /// Loads waiting for a free slot.
    @inlinable
    public var pendingLoadCount: Int {
        core.state.withLock { $0.scheduler.pendingCount }
    }

    /// Calls `handler` with every load attempt's events: started, succeeded,
    /// failed, cancelled, with durations — to export blank-cell and waste
    /// figures.
    ///
    /// `handler` runs on the loading thread, outside the fetcher's lock; keep
    /// it short. The observation lasts while the returned object is alive.
    ///
    /// ```swift
    /// let observation = fetcher.observe { event in metrics.record(event) }
    /// ```
    public func observe(_ handler: @escaping @Sendable (FetchEvent<Key>) -> Void) -> FetchObservation {
        core.observe(handler)
    }

    /// The load events as an asynchronous sequence; see ``observe(_:)``.
    /// The observation ends when the iteration does.
    ///
    /// Events wait in a bounded buffer until read, so a consumer that falls
    /// behind (or never starts) costs bounded memory, not one entry per load
    /// forever. By default the newest ``defaultEventBufferLimit`` are kept and
    /// older ones are dropped, uncounted: a consumer that must see every
    /// event passes `.unbounded` and keeps up.
    ///
    /// - Parameter bufferingPolicy: what to keep when the consumer is behind,
    ///   as for `AsyncStream`: `.bufferingNewest(n)` drops the oldest,
    ///   `.bufferingOldest(n)` drops the newest, `.unbounded` drops nothing.
    public func events(
        bufferingPolicy: AsyncStream<FetchEvent<Key>>.Continuation.BufferingPolicy = .bufferingNewest(
            defaultEventBufferLimit)
    ) -> AsyncStream<FetchEvent<Key>> {
        switch bufferingPolicy {
        case .bufferingNewest(let limit), .bufferingOldest(let limit):
            precondition(limit >= 0, "events(bufferingPolicy:): the buffer limit must not be negative, got \(limit)")
        default:
            break
        }
        let (stream, continuation) = AsyncStream.makeStream(
            of: FetchEvent<Key>.self, bufferingPolicy: bufferingPolicy)
        let observation = core.observe { event in continuation.yield(event) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// How many unread events ``events(bufferingPolicy:)`` keeps by default:
    /// two per load of the last 512 loads, a few tens of kilobytes.
    public static var defaultEventBufferLimit: Int { 1024 }

    /// Returns when no load is pending, running or waiting to retry and every
    /// completion has returned: for tests, benchmarks, and draining before
    /// shutdown. Prefetches held by a paused prefetcher do not count.
    ///
    /// Returns at once, too, when the calling task is cancelled (a view's
    /// `.task` ending, a shutdown giving up): the wait ends, the loads go on.
    @inlinable
    public func waitUntilIdle() async {
        await core.waitUntilIdle()
    }

    /// Runs `body` on the scheduler, under the fetcher's lock. For tests.
    @inlinable
    package func withScheduler<Result>(
        _ body: (inout FetchScheduler<Key, FetchPayload<Value>>) -> Result
    ) -> Result {
        core.update { state, _ in body(&state.scheduler) }
    }
}

/// An error that may be worth retrying: a timeout, a dropped connection, a 503.
///
/// ``AsyncFetcher`` retries loads that fail with such an error, following its
/// ``RetryPolicy``, unless it is given its own `isTransient` classifier. An
/// error type whose values differ (a 503 and a 404 of one HTTP error type)
/// answers ``isTransient`` per value; one that carries a server's
/// `Retry-After` gives it as ``retryAfter``.
public protocol TransientError: Error {
    /// Whether this failure is worth another attempt; `true` unless the type says otherwise.
    var isTransient: Bool { get }
    /// How long the server asked to wait before the next attempt, if it said.
    /// The retry waits at least this long; if that is longer than the retry
    /// policy's `maxDelay`, the failure is reported instead of retried.
    var retryAfter: Duration? { get }
}

extension TransientError {
    /// `true`: a type that conforms is transient unless it says otherwise.
    public var isTransient: Bool { true }
    /// `nil`: no wait asked for.
    public var retryAfter: Duration? { nil }
}

/// The classifier of a fetcher made without one: a ``TransientError`` that
/// says it is transient, never a `CancellationError`.
@inlinable
@Sendable
func isTransientByDefault(_ error: any Error) -> Bool {
    (error as? any TransientError)?.isTransient ?? false
}
