// Lookahead deciding what and when, Nuke loading, decoding and caching: a
// fetcher whose loads are Nuke's image tasks — at the load's priority and
// following it, cancelled through their tasks, cached in Nuke's caches only.
// Copy this file into an app that already uses Nuke (13.x); it is kept out
// of Lookahead's package so that Lookahead's graph stays swift-collections.

import Foundation
import Lookahead
import Nuke

/// An ``AsyncFetcher`` over a Nuke `ImagePipeline`.
///
/// - **One cache, Nuke's.** The fetcher keeps nothing in memory: a cell
///   reads `pipeline.cache[url]` synchronously, and every load Nuke answers
///   from its memory or disk cache.
/// - **One download per image.** A display request and a prefetch of the
///   same URL are one Lookahead load, which is one Nuke task; a cell Nuke's
///   own `LazyImage` or `loadImage(with:into:)` shows joins it in Nuke.
/// - **Priorities.** Each load's `LoadContext` priority becomes the
///   request's, and follows it while the load runs (a fling carrying a cell
///   away lowers it): `ImageTask.priority`.
/// - **Cancellation.** When nobody wants a load any more, its task is
///   cancelled, and with it Nuke's download if nobody else waits for it.
public enum NukeFetching {
    /// A fetcher of `pipeline`'s images, with `processors` applied.
    public static func fetcher(
        pipeline: ImagePipeline = .shared, processors: [any ImageProcessing] = [], maxConcurrentLoads: Int = 6
    ) -> AsyncFetcher<URL, ImageContainer> {
        AsyncFetcher(maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: 0)) { url, context in
            let request = ImageRequest(url: url, processors: processors, priority: priority(context.priority))
            let task = pipeline.imageTask(with: request)
            context.onPriorityChange { task.priority = priority($0) }
            // Awaiting the response cancels the task when the load is cancelled.
            return try await task.response.container
        }
    }

    /// Nuke's priority for Lookahead's: the same five levels.
    public static func priority(_ priority: FetchPriority) -> ImageRequest.Priority {
        switch priority {
        case .veryLow: .veryLow
        case .low: .low
        case .normal: .normal
        case .high: .high
        case .veryHigh: .veryHigh
        }
    }
}
