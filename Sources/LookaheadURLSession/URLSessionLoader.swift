// A loader over URLSession for AsyncFetcher: each load's priority becomes its
// task's, follows it while it runs, prefetches stay off Low Data Mode, status
// codes become transient or permanent errors, and a body has a size limit.

public import Foundation
public import Lookahead

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Loads data over `URLSession` for an ``AsyncFetcher``, learning each load's
/// ``LoadContext``:
///
/// - the task's `priority` is the load's (``taskPriority(for:)``), and moves
///   when the load's does (a cell a fling carries away lowers it);
/// - a prefetch does not use a constrained network (Low Data Mode) unless
///   ``Configuration/allowsConstrainedNetworkAccessForPrefetches`` says so;
/// - cancelling the load cancels the task, and the server sees the request go;
/// - a status outside 200...299 is an ``URLSessionLoaderError``, transient for
///   5xx, 408 and 429 (with the server's `Retry-After`), permanent otherwise;
/// - a body larger than ``Configuration/maximumResponseBytes`` is refused as
///   it arrives, and a request that receives nothing for
///   ``Configuration/timeout`` fails as timed out.
///
/// ```swift
/// let loader = URLSessionLoader()
/// let fetcher = AsyncFetcher<Item.ID, Item>(maxConcurrentLoads: 6) { id, context in
///     try JSONDecoder().decode(Item.self, from: try await loader.data(from: api.url(for: id), context: context))
/// }
/// ```
///
/// Not `URLSession.shared`: the loader owns a session with its own delegate,
/// which it needs to enforce the size limit as bytes arrive; it is
/// invalidated when the loader goes away, once its tasks have ended.
public final class URLSessionLoader: Sendable {
    /// What the loader allows and how long it waits.
    public struct Configuration: Sendable, Hashable {
        /// Whether a prefetch may use a constrained network (Low Data Mode);
        /// `false` by default: what the user asked to save is spent only on
        /// what is on screen.
        public var allowsConstrainedNetworkAccessForPrefetches: Bool
        /// Whether a prefetch may use an expensive network (cellular, a
        /// personal hotspot); `true` by default.
        public var allowsExpensiveNetworkAccessForPrefetches: Bool
        /// The largest body accepted, in bytes; 20 MiB by default.
        public var maximumResponseBytes: Int
        /// How long a request may receive nothing before it fails as timed
        /// out (`URLRequest.timeoutInterval`); 30 s by default.
        public var timeout: Duration

        /// Creates a configuration.
        ///
        /// - Precondition: `maximumResponseBytes >= 0`, `timeout > 0`.
        public init(
            allowsConstrainedNetworkAccessForPrefetches: Bool = false,
            allowsExpensiveNetworkAccessForPrefetches: Bool = true,
            maximumResponseBytes: Int = 20 << 20,
            timeout: Duration = .seconds(30)
        ) {
            precondition(maximumResponseBytes >= 0, "URLSessionLoader: maximumResponseBytes must not be negative")
            precondition(timeout > .zero, "URLSessionLoader: timeout must be positive, got \(timeout)")
            self.allowsConstrainedNetworkAccessForPrefetches = allowsConstrainedNetworkAccessForPrefetches
            self.allowsExpensiveNetworkAccessForPrefetches = allowsExpensiveNetworkAccessForPrefetches
            self.maximumResponseBytes = maximumResponseBytes
            self.timeout = timeout
        }
    }

    /// The loader's limits.
    public let configuration: Configuration
    private let session: URLSession
    private let tasks: URLSessionLoaderTasks

    /// Creates a loader with a session of its own made from `sessionConfiguration`.
    public init(
        configuration: Configuration = Configuration(), sessionConfiguration: URLSessionConfiguration = .default
    ) {
        self.configuration = configuration
        let tasks = URLSessionLoaderTasks(maximumResponseBytes: configuration.maximumResponseBytes)
        self.tasks = tasks
        self.session = URLSession(configuration: sessionConfiguration, delegate: tasks, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The `URLSessionTask.priority` of a load at `priority`: `.veryHigh`
    /// and `.high` at `URLSessionTask.highPriority`, `.normal` at the
    /// default, `.low` and `.veryLow` below it down to `lowPriority`.
    public static func taskPriority(for priority: FetchPriority) -> Float {
        switch priority {
        case .veryHigh: 1.0
        case .high: 0.75
        case .normal: 0.5
        case .low: 0.25
        case .veryLow: 0.0
        }
    }

    /// Loads `url` for the load `context` describes: an `AsyncFetcher`'s
    /// load passes its own; a `Pager`'s page, which has none, loads at
    /// `.normal`, not as a prefetch.
    ///
    /// ```swift
    /// let loader = URLSessionLoader()
    /// let pager = Pager<Post>(configuration: PagingConfiguration(pageSize: 30)) { request in
    ///     let data = try await loader.data(from: api.postsURL(for: request))
    ///     return try api.page(decoding: data, for: request)
    /// }
    /// ```
    ///
    /// - Throws: ``URLSessionLoaderError``, or `CancellationError` when the
    ///   calling task is cancelled (the task is cancelled with it).
    public func data(from url: URL, context: LoadContext = LoadContext()) async throws -> Data {
        try await data(for: URLRequest(url: url), context: context)
    }

    /// Loads `request` for the load `context` describes: at its priority,
    /// following it, and off a constrained network if it is a prefetch.
    ///
    /// - Throws: ``URLSessionLoaderError``, or `CancellationError` when the
    ///   calling task is cancelled (the task is cancelled with it).
    public func data(for request: URLRequest, context: LoadContext = LoadContext()) async throws -> Data {
        var request = request
        request.timeoutInterval = configuration.timeout.seconds
        #if canImport(Darwin)
        if context.isPrefetch {
            request.allowsConstrainedNetworkAccess = configuration.allowsConstrainedNetworkAccessForPrefetches
            request.allowsExpensiveNetworkAccess = configuration.allowsExpensiveNetworkAccessForPrefetches
        }
        #endif
        let task = session.dataTask(with: request)
        task.priority = Self.taskPriority(for: context.priority)
        let handle = SendableTask(task)
        context.onPriorityChange { priority in handle.task.priority = Self.taskPriority(for: priority) }
        taskObserver.withLock { $0 }?(task, context)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.start(handle, continuation: continuation)
            }
        } onCancel: {
            handle.task.cancel()
        }
    }

    /// Told of every task the loader makes, before it resumes (for tests).
    package let taskObserver = LockedValue<(@Sendable (URLSessionTask, LoadContext) -> Void)?>(nil)
}

/// A task handed across concurrency domains: `URLSessionTask`'s methods are
/// thread-safe, which its declaration does not say on every platform.
struct SendableTask: @unchecked Sendable {
    let task: URLSessionTask

    init(_ task: URLSessionTask) {
        self.task = task
    }
}
