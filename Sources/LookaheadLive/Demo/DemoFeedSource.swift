import Foundation
import Logging

/// The feed the demo runs over, and how to stop it.
struct DemoFeedSource: Sendable {
    var feed: DemoFeed
    var stop: @Sendable () async -> Void

    /// The in-process feed: items loaded after the configured latencies.
    static func start(configuration: DemoConfiguration, logger: Logger) async throws -> DemoFeedSource {
        let feed = DemoFeed.simulated(
            itemCount: configuration.itemCount, latencyMedian: configuration.latencyMedian,
            latencyP99: configuration.latencyP99, seed: configuration.seed, clock: ContinuousClock())
        logger.info("using the in-process feed")
        return DemoFeedSource(feed: feed, stop: {})
    }
}
