/// How a `PagingStateMachine` pages through its source.
public struct PagingConfiguration: Hashable, Sendable {
    /// How the source addresses pages.
    public enum Mode: Hashable, Sendable {
        /// `?offset=&limit=`: pages are addressed by position.
        case offset
        /// Opaque cursors: each page names its neighbours.
        case cursor
    }

    /// How the source addresses pages.
    public var mode: Mode
    /// The items asked for by each append or prepend.
    public var pageSize: Int
    /// The items asked for by the first load: three pages by default (Paging 3's
    /// choice), so that the first screen and the next are there at once.
    public var initialLoadSize: Int
    /// How close, in items, an access must come to an end of the loaded items
    /// to load the next page there. One page by default.
    public var prefetchDistance: Int
    /// The most items kept; `nil` keeps everything. Pages far from the last
    /// access are dropped — never one within `pageSize + 2 × prefetchDistance`
    /// of it — and loaded again when the user scrolls back.
    public var maxSize: Int?
    /// How failed pages are retried.
    public var retryPolicy: RetryPolicy
    /// For the adaptive trigger: how much earlier than the predicted arrival at
    /// the end, on top of the page latency, the next page is asked for.
    public var adaptiveMargin: Duration

    /// Creates a configuration.
    ///
    /// - Precondition: `pageSize >= 1`, `initialLoadSize >= 1`,
    ///   `prefetchDistance >= 1`, and `maxSize`, if any, at least
    ///   `pageSize + 2 × prefetchDistance` (below that, dropping would fight loading).
    public init(
        mode: Mode = .offset,
        pageSize: Int,
        initialLoadSize: Int? = nil,
        prefetchDistance: Int? = nil,
        maxSize: Int? = nil,
        retryPolicy: RetryPolicy = .default,
        adaptiveMargin: Duration = .milliseconds(250)
    ) {
        precondition(pageSize >= 1, "PagingConfiguration.pageSize must be at least 1, got \(pageSize)")
        let initialLoadSize = initialLoadSize ?? 3 * pageSize
        let prefetchDistance = prefetchDistance ?? pageSize
        precondition(initialLoadSize >= 1, "PagingConfiguration.initialLoadSize must be at least 1")
        precondition(prefetchDistance >= 1, "PagingConfiguration.prefetchDistance must be at least 1")
        if let maxSize {
            precondition(
                maxSize >= pageSize + 2 * prefetchDistance,
                "PagingConfiguration.maxSize must be at least pageSize + 2 × prefetchDistance, got \(maxSize)"
            )
        }
        self.mode = mode
        self.pageSize = pageSize
        self.initialLoadSize = initialLoadSize
        self.prefetchDistance = prefetchDistance
        self.maxSize = maxSize
        self.retryPolicy = retryPolicy
        self.adaptiveMargin = adaptiveMargin
    }

    /// The distance around the last access inside which no page is dropped.
    public var protectedDistance: Int { pageSize + 2 * prefetchDistance }
}
