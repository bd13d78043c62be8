// The earlier spellings of renamed public API, kept so that apps written
// against them still compile (with a warning naming the new spelling). The
// vocabulary they were renamed to is in docs/design.md ("Glossary").

/// The earlier name of ``PrefetchPolicyProtocol``.
@available(*, deprecated, renamed: "PrefetchPolicyProtocol")
public typealias PrefetchWindowPolicy = PrefetchPolicyProtocol

/// The earlier name of ``ScrollViewPrefetcherStateMachine``.
@available(*, deprecated, renamed: "ScrollViewPrefetcherStateMachine")
public typealias PrefetchWindowStateMachine = ScrollViewPrefetcherStateMachine

/// The earlier name of ``AdaptiveWindowSettings``.
@available(*, deprecated, renamed: "AdaptiveWindowSettings")
public typealias AdaptivePrefetchWindow = AdaptiveWindowSettings

extension AsyncFetcher {
    /// Creates a fetcher; the limit is now called `maxConcurrentLoads`.
    @available(*, deprecated, renamed: "init(maxConcurrentLoads:memoryCache:clock:retryPolicy:isTransient:load:)")
    public convenience init(
        maxConcurrentFetches: Int,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        clock: some Clock<Duration> = ContinuousClock(),
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = { $0 is any TransientError },
        load: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.init(
            maxConcurrentLoads: maxConcurrentFetches, memoryCache: memoryCache, clock: clock,
            retryPolicy: retryPolicy, isTransient: isTransient, load: load)
    }

    /// The earlier name of ``maxConcurrentLoads``.
    @available(*, deprecated, renamed: "maxConcurrentLoads")
    public var maxConcurrentFetches: Int {
        get { maxConcurrentLoads }
        set { maxConcurrentLoads = newValue }
    }

    /// The earlier name of ``runningLoadCount``.
    @available(*, deprecated, renamed: "runningLoadCount")
    public var runningFetchCount: Int { runningLoadCount }

    /// The earlier name of ``pendingLoadCount``.
    @available(*, deprecated, renamed: "pendingLoadCount")
    public var pendingFetchCount: Int { pendingLoadCount }
}

extension DataPipeline {
    /// Creates a pipeline; the limit is now called `maxConcurrentLoads`.
    @available(
        *, deprecated,
        renamed: "init(diskCache:memoryCache:maxConcurrentLoads:retryPolicy:isTransient:fetchData:decode:)"
    )
    public convenience init(
        diskCache: DiskCache,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        maxConcurrentFetches: Int,
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = { $0 is any TransientError },
        fetchData: @escaping @Sendable (Key) async throws -> [UInt8],
        decode: @escaping @Sendable (Key, [UInt8]) throws -> Value
    ) {
        self.init(
            diskCache: diskCache, memoryCache: memoryCache, maxConcurrentLoads: maxConcurrentFetches,
            retryPolicy: retryPolicy, isTransient: isTransient, fetchData: fetchData, decode: decode)
    }
}

extension AdaptivePrefetchPolicy {
    /// The load durations observed so far, now owned by the ``predictor``.
    @available(*, deprecated, message: "the policy's ArrivalPredictor owns its load durations")
    public var estimator: LoadDurationEstimator { predictor.loadDurations }

    /// The median of the same load durations, now read from the ``predictor``.
    @available(*, deprecated, message: "use predictor.loadTime(atQuantile: 0.5)")
    public var typicalLoad: LoadDurationEstimator {
        var typical = predictor.loadDurations
        typical.quantile = 0.5
        return typical
    }
}

extension ScrollViewPrefetcherStateMachine {
    /// The adaptive window's speed, now owned by its core.
    @available(*, deprecated, message: "use itemsPerSecond")
    public var speed: VelocityEstimator { predictor.velocityEstimator }

    /// The adaptive window's load durations, now owned by its core.
    @available(*, deprecated, message: "the window's ArrivalPredictor owns its load durations")
    public var loadDurations: LoadDurationEstimator { predictor.loadDurations }
}
