#if Tools
import Foundation
import Logging
import LookaheadHTTP
import LookaheadServer

/// The feed the demo runs over, and how to stop it: the embedded
/// ``FeedServer`` on 127.0.0.1 with the configured latency (or the server at
/// `--server`), read through ``HTTPLoader`` and ``FeedClient``.
struct DemoFeedSource: Sendable {
    var feed: DemoFeed
    var stop: @Sendable () async -> Void

    /// Starts the embedded server unless a server URL is configured, and
    /// opens an HTTP loader on it with one connection per concurrent load.
    ///
    /// - Throws: what ``FeedServer/start()`` throws.
    /// The connections the demo's HTTP loader keeps: `maxConcurrentLoads` for
    /// each grid, whose fetcher runs at most that many loads at once, as an
    /// app has its own. Shared, the grids would queue for each other's
    /// connections, and the one asking more (prefetching further) would wait
    /// more.
    static func connections(for configuration: DemoConfiguration) -> Int {
        configuration.maxConcurrentLoads * configuration.strategies.count
    }

    static func start(
        configuration: DemoConfiguration,
        logger: Logger = Logger(label: "lookahead.demo") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> DemoFeedSource {
        let server: FeedServer?
        let baseURL: URL
        if let url = configuration.serverURL {
            server = nil
            baseURL = url
        } else {
            let faults = FaultInjection(
                latencyMedian: configuration.latencyMedian, latencyP99: configuration.latencyP99)
            let embedded = FeedServer(
                configuration: FeedServerConfiguration(
                    itemCount: configuration.itemCount, seed: configuration.seed, faults: faults),
                logger: logger)
            baseURL = try await embedded.start()
            server = embedded
            logger.info("embedded feed server started", metadata: ["url": "\(baseURL)"])
        }
        let loader = HTTPLoader(
            baseURL: baseURL,
            configuration: HTTPLoaderConfiguration(maximumConnections: connections(for: configuration)),
            logger: logger)
        let client = FeedClient(loader: loader)
        let feed = DemoFeed(
            identifiers: { try await client.topStories() },
            item: { id in
                // The body itself, to count its bytes; decoded to check it is the item asked for.
                let body = try await loader.data(path: "/v0/item/\(id).json", item: "\(id)")
                let item = try JSONDecoder().decode(FeedItem.self, from: body)
                guard item.id == id else {
                    throw DemoFeedError("the feed answered item \(item.id) when asked for item \(id)")
                }
                return DemoItem(id: id, byteCount: body.count)
            },
            isTransient: HTTPLoader.isTransient)
        return DemoFeedSource(
            feed: feed,
            stop: {
                logger.debug("stopping the HTTP loader")
                do {
                    try await loader.shutdown()
                } catch {
                    logger.warning("HTTP loader did not shut down cleanly", metadata: ["error": "\(error)"])
                }
                if let server {
                    // Cancelling the server with connections still open can trip a precondition in
                    // NIO's async writer (seen as a crash at exit), so let the connections the loader
                    // just closed drain first, for at most two seconds.
                    // A cancelled stop skips the waits (a cancelled sleep returns at once) instead of spinning.
                    let clock = ContinuousClock()
                    await Settling.wait(
                        until: { server.statistics.inFlight == 0 }, within: .seconds(2),
                        pollingEvery: .milliseconds(10), clock: clock)
                    try? await clock.sleep(for: .milliseconds(100))
                    logger.debug("stopping the embedded feed server")
                    await server.stop()
                }
                logger.debug("feed stopped")
            })
    }
}
#endif
