#if Tools
public import Foundation
import Hummingbird
public import Logging
import Lookahead
import ServiceLifecycle

/// A local Hacker-News-style feed API over a seeded data set, with latency
/// and fault injection: the counterpart of the demo, the real replay and the
/// network integration tests.
///
/// ## Routes
/// - `GET /v0/topstories.json`: the ids `1...itemCount`, in order, as a JSON array.
/// - `GET /v0/topstories.json?offset=O&limit=L`: one page,
///   `{"ids": [...], "offset": O, "limit": L, "total": N}`; `offset >= 0`,
///   `1 <= limit <= 500`.
/// - `GET /v0/item/{id}.json`: the item (`id`, `by`, `title`, `score`, `time`,
///   `url`, `descendants`, `type`). `?bytes=B` (at most 1 MiB) pads the body
///   with a `text` field to exactly `B` bytes when `B` exceeds its natural size.
/// - `GET /v0/image/{id}?size=S`: an `S×S` PNG thumbnail (`1...512`, default
///   64) in the item's colour.
///
/// Unknown ids get `404`, bad parameters `400`, each with a JSON body
/// `{"error": "..."}` naming the parameter and what was expected. Request
/// bodies get `413`, URIs over 4,096 bytes `414`.
///
/// ## Latency and faults
/// Every valid request gets the configuration's latency (log-normal, drawn
/// from the seed and the request's sequence number) before its first byte,
/// and possibly a fault. A request can force both through its query:
/// `latency_ms=N` (exact, `0...600000`) and `fault=500|truncate|stall|malformed`.
///
/// A request that waits (latency or stall) watches its connection: if the
/// client goes away, the server stops working on it and counts it in
/// ``FeedServerStatistics/endedByClient``. Such responses carry
/// `Connection: close`, because the watch consumes the connection's inbound
/// stream; clients then open a fresh connection rather than reuse one the
/// server is about to close.
///
/// At most ``FeedServerConfiguration/maximumWaitingRequests`` requests wait
/// at once; one more is answered `503 Service Unavailable` at once, with
/// `Retry-After: 1` and a JSON error body. A body is built only once its
/// wait is over, and written a chunk at a time (a padded item's filler is
/// produced as it is written), so waiting requests hold almost no memory.
///
/// The server logs each request at `debug`, injected server errors and
/// unexpected failures at `warning`, through the logger it is given; it
/// prints nothing itself.
public final class FeedServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: FeedServerConfiguration
    let logger: Logger
    let sleep: @Sendable (Duration) async throws -> Void
    let link: SharedLink?
    let statisticsStore = LockedValue(FeedServerStatistics())
    let stopSignal = StopSignal()
    /// Requests waiting out a latency or a stall now: see
    /// ``FeedServerConfiguration/maximumWaitingRequests``.
    let waitingRequests = LockedValue(0)
    private let lifecycle = LockedValue(Lifecycle.idle)
    /// Set by the serving task when it has returned.
    private let hasFinished = LockedValue(false)

    private enum Lifecycle {
        case idle
        case running(task: Task<Void, Never>, group: ServiceGroup, port: Int?)
        case stopped
    }

    /// Creates a server; ``start()`` binds it.
    ///
    /// - Parameters:
    ///   - configuration: where to listen, the data set and the faults.
    ///   - logger: where requests and failures are logged.
    public convenience init(configuration: FeedServerConfiguration, logger: Logger) {
        self.init(configuration: configuration, clock: ContinuousClock(), logger: logger)
    }

    /// Creates a server whose latencies and bandwidth are measured on `clock`.
    public init(configuration: FeedServerConfiguration, clock: some Clock<Duration>, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        sleep = { duration in try await clock.sleep(for: duration) }
        let origin = clock.now
        link = configuration.faults.bandwidthBytesPerSecond.map { bandwidth in
            SharedLink(bytesPerSecond: bandwidth, elapsed: { origin.duration(to: clock.now) })
        }
    }

    /// Binds, starts serving in the background, and returns once the port is known.
    ///
    /// - Returns: the base URL, such as `http://127.0.0.1:54321`.
    /// - Throws: ``FeedServerError`` if the configuration is invalid, the
    ///   server was already started, or it cannot bind.
    public func start() async throws -> URL {
        try configuration.validate()
        let promise = PortPromise()
        let application = Application(
            router: makeRouter(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "lookahead-feed"),
            onServerRunning: { channel in promise.fulfil(channel.localAddress?.port) },
            logger: logger
        )
        // Run as a service so that stop() can shut it down gracefully: a
        // cancelled Hummingbird application tears down response writers
        // still in use, which NIO treats as a programming error.
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let hasFinished = self.hasFinished
        try lifecycle.withLock { (lifecycle: inout Lifecycle) throws(FeedServerError) in
            guard case .idle = lifecycle else { throw .alreadyStarted }
            let task = Task {
                do {
                    try await group.run()
                } catch {
                    promise.fail(.couldNotStart("\(error)"))
                }
                promise.fail(.couldNotStart("the server stopped before it was listening"))
                hasFinished.withLock { $0 = true }
            }
            lifecycle = .running(task: task, group: group, port: nil)
        }
        let port = try await promise.value
        lifecycle.withLock { lifecycle in
            if case .running(let task, let group, _) = lifecycle {
                lifecycle = .running(task: task, group: group, port: port)
            }
        }
        logger.info("feed server listening", metadata: ["port": "\(port)", "items": "\(configuration.itemCount)"])
        return try configuration.baseURL(port: port)
    }

    /// The port the server listens on, once started; `nil` before and after.
    public var port: Int? {
        lifecycle.withLock { lifecycle in
            if case .running(_, _, let port) = lifecycle { return port }
            return nil
        }
    }

    /// Stops accepting connections, ends the requests in flight (waiting,
    /// stalled or streaming) and returns when the server has shut down.
    /// Calling it again, or before `start()`, does nothing.
    ///
    /// Requests waiting out their latency, or stalled, end at once; the
    /// server then shuts down gracefully (responses being written finish).
    /// If it has not finished after `gracePeriod`, it is cancelled. If the
    /// calling task is cancelled, `stop()` returns at once and the graceful
    /// shutdown goes on in the background.
    public func stop(gracePeriod: Duration = .seconds(5)) async {
        let running: (Task<Void, Never>, ServiceGroup)? = lifecycle.withLock { lifecycle in
            defer { lifecycle = .stopped }
            if case .running(let task, let group, _) = lifecycle { return (task, group) }
            return nil
        }
        guard let (task, group) = running else { return }
        stopSignal.stop()
        await group.triggerGracefulShutdown()
        let hasFinished = self.hasFinished
        let finished = await Settling.wait(
            until: { hasFinished.withLock { $0 } }, within: gracePeriod, pollingEvery: .milliseconds(5),
            clock: ContinuousClock())
        if !finished && Task.isCancelled {
            logger.info("feed server stopping in the background: the caller was cancelled")
            return
        }
        if !finished {
            logger.warning("feed server did not shut down gracefully in time; cancelling it")
            task.cancel()
        }
        await task.value
        logger.info("feed server stopped")
    }

    /// Whether ``stop()`` has been called: requests cut short after it are not
    /// counted as ended by the client.
    var isStopping: Bool {
        lifecycle.withLock { lifecycle in
            if case .stopped = lifecycle { return true }
            return false
        }
    }

    /// The counters since start or the last ``resetStatistics()``.
    public var statistics: FeedServerStatistics {
        statisticsStore.withLock { $0 }
    }

    /// Zeroes the counters, except the requests in flight now (and
    /// `maxInFlight`, which restarts from them).
    public func resetStatistics() {
        statisticsStore.withLock { statistics in
            let inFlight = statistics.inFlight
            statistics = FeedServerStatistics()
            statistics.inFlight = inFlight
            statistics.maxInFlight = inFlight
        }
    }
}

/// The port a starting server binds, or why it could not.
private final class PortPromise: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case done(Result<Int, FeedServerError>)
    }

    private let state = LockedValue(State.waiting(nil))

    func fulfil(_ port: Int?) {
        guard let port else { return fail(.couldNotStart("the listening socket has no port")) }
        resolve(.success(port))
    }

    func fail(_ error: FeedServerError) {
        resolve(.failure(error))
    }

    private func resolve(_ result: Result<Int, FeedServerError>) {
        let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done(result)
            return continuation
        }
        continuation?.resume(with: result.mapError { $0 })
    }

    var value: Int {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result: Result<Int, FeedServerError>? = state.withLock { state in
                    switch state {
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let result { continuation.resume(with: result.mapError { $0 }) }
            }
        }
    }
}
#endif
