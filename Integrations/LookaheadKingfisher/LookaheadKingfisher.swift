// Lookahead deciding what and when, Kingfisher loading, decoding and
// caching: a fetcher whose loads are Kingfisher's retrievals — at the load's
// priority and following it (the download task's), cancelled through their
// tasks, cached in Kingfisher's caches only. Copy this file into an app that
// already uses Kingfisher (8.x); it is kept out of Lookahead's package so
// that Lookahead's graph stays swift-collections.

import Foundation
import Kingfisher
import Lookahead

/// An ``AsyncFetcher`` over Kingfisher's `KingfisherManager`.
///
/// - **One cache, Kingfisher's.** The fetcher keeps nothing in memory: a
///   cell reads `manager.cache.retrieveImageInMemoryCache(forKey:)`, and
///   every load Kingfisher answers from its caches.
/// - **One download per image.** A display request and a prefetch of the
///   same URL are one Lookahead load, which is one Kingfisher retrieval;
///   Kingfisher shares one download among the retrievals of a URL.
/// - **Priorities.** Each load's priority becomes the download's
///   (`URLSessionTask.priority`) and follows it while the load runs.
/// - **Cancellation.** When nobody wants a load any more, its download task
///   is cancelled.
public enum KingfisherFetching {
    /// A fetcher of `manager`'s images, with `options` (a processor, say).
    public static func fetcher(
        manager: KingfisherManager = .shared, options: KingfisherOptionsInfo = [], maxConcurrentLoads: Int = 6
    ) -> AsyncFetcher<URL, KFCrossPlatformImage> {
        AsyncFetcher(maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: 0)) { url, context in
            let retrieval = Retrieval()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let task = manager.retrieveImage(
                        with: url, options: options + [.downloadPriority(priority(context.priority))]
                    ) { result in
                        continuation.resume(with: result.map(\.image).mapError { $0 as any Error })
                    }
                    retrieval.started(task)
                    context.onPriorityChange { retrieval.task?.sessionTask?.task.priority = priority($0) }
                }
            } onCancel: {
                retrieval.cancel()
            }
        }
    }

    /// `URLSessionTask`'s priority for Lookahead's (what `URLSessionLoader` uses).
    public static func priority(_ priority: FetchPriority) -> Float {
        switch priority {
        case .veryHigh, .high: URLSessionTask.highPriority
        case .normal: URLSessionTask.defaultPriority
        case .low: 0.25
        case .veryLow: URLSessionTask.lowPriority
        }
    }
}

/// A retrieval's download task, set when it starts; a cancellation that
/// comes first is kept for it.
private final class Retrieval: @unchecked Sendable {
    private let lock = NSLock()
    private var storedTask: DownloadTask?
    private var isCancelled = false

    var task: DownloadTask? { lock.withLock { storedTask } }

    func started(_ task: DownloadTask?) {
        let cancelNow = lock.withLock {
            storedTask = task
            return isCancelled
        }
        if cancelNow { task?.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return storedTask
        }
        task?.cancel()
    }
}
