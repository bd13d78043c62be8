// The two-stage pipeline (bytes on disk, decoded values in memory), the
// `.disk` prefetch destination, and the queue its disk I/O runs on.

import Dispatch

/// Two stages behind one key: raw bytes, kept on disk, then values decoded
/// from them, kept in memory.
///
/// Nuke's pipeline for any key. ``dataFetcher`` loads bytes: from the
/// ``diskCache`` when it has them, otherwise through `fetchData`, storing
/// what it fetched on disk; it keeps nothing in memory. ``fetcher`` decodes
/// those bytes into values and keeps them in its memory cache. A value load
/// joins any byte load already running for its key, so a cell that appears
/// while its bytes are being prefetched to disk waits for that one request.
///
/// Prefetch to either destination:
///
/// ```swift
/// let pipeline = try DataPipeline<Int, Thumbnail>(
///     diskCache: DiskCache(directory: thumbnailsPath),
///     fetchData: { id in Array(try await api.image(id, size: 96)) },
///     decode: { _, bytes in try Thumbnail(png: bytes) })
/// // .memory: decoded, ready to display.
/// let nearby = Prefetcher(fetcher: pipeline.fetcher)
/// // .disk: bytes only, not decoded, little memory.
/// let further = Prefetcher(diskPrefetchingFor: pipeline)
/// ```
///
/// A byte load that fails to store its bytes (a full disk, say) still
/// delivers them: the disk is a cache, not a requirement. ``diskWriteFailures``
/// counts such failures.
///
/// Disk reads and writes run on a serial dispatch queue of the pipeline's own,
/// awaited from the fetch: a slow disk then holds that queue's one thread,
/// never the cooperative pool's few threads (two on a two-core device), on
/// which every other task of the app waits. One queue also keeps a burst of
/// prefetches from issuing dozens of file operations at once.
public final class DataPipeline<Key: Hashable & Sendable & CustomStringConvertible, Value: Sendable>: Sendable {
    /// Where bytes are kept. Keys are stored under their `description`.
    public let diskCache: DiskCache
    /// Loads raw bytes, disk first; the `.disk` destination's fetcher.
    public let dataFetcher: AsyncFetcher<Key, [UInt8]>
    /// Loads decoded values through ``dataFetcher``; the `.memory` destination's fetcher.
    public let fetcher: AsyncFetcher<Key, Value>
    private let writeFailures: LockedValue<Int>

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - diskCache: where bytes are kept.
    ///   - memoryCache: where decoded values are kept.
    ///   - maxConcurrentLoads: the most byte loads at once, and the most
    ///     value loads at once (at least 1).
    ///   - retryPolicy: how transient failures of `fetchData` are retried.
    ///   - isTransient: which errors of `fetchData` are worth a retry.
    ///   - fetchData: fetches the bytes of a key (from the network, say).
    ///   - decode: turns bytes into a value. An error fails the value load
    ///     and is not retried; the bytes stay on disk.
    public convenience init(
        diskCache: DiskCache,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        maxConcurrentLoads: Int = 6,
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = isTransientByDefault,
        fetchData: @escaping @Sendable (Key) async throws -> [UInt8],
        decode: @escaping @Sendable (Key, [UInt8]) throws -> Value
    ) {
        self.init(
            diskCache: diskCache, memoryCache: memoryCache, maxConcurrentLoads: maxConcurrentLoads,
            retryPolicy: retryPolicy, isTransient: isTransient, fetchData: { key, _ in try await fetchData(key) },
            decode: decode)
    }

    /// Creates a pipeline whose byte loader learns each load's ``LoadContext``:
    /// the priority of the value load it serves (and its changes), whether
    /// that is a prefetch, which attempt it is. The other parameters are
    /// those of the initializer whose `fetchData` takes the key alone.
    public convenience init(
        diskCache: DiskCache,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        maxConcurrentLoads: Int = 6,
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = isTransientByDefault,
        fetchData: @escaping @Sendable (Key, LoadContext) async throws -> [UInt8],
        decode: @escaping @Sendable (Key, [UInt8]) throws -> Value
    ) {
        self.init(
            diskCache: diskCache, memoryCache: memoryCache, maxConcurrentLoads: maxConcurrentLoads,
            retryPolicy: retryPolicy, isTransient: isTransient, fetchData: fetchData,
            decodeInContext: { key, bytes, _ in try decode(key, bytes) })
    }

    /// Creates a pipeline whose decoding is asynchronous and learns the value
    /// load's ``LoadContext`` (its priority, whether it is a prefetch): what
    /// an image pipeline needs to decode off the cooperative pool, the most
    /// urgent first. The other parameters are those of the initializers
    /// whose `decode` is synchronous.
    public init(
        diskCache: DiskCache,
        memoryCache: MemoryCache<Key, Value> = MemoryCache(),
        maxConcurrentLoads: Int = 6,
        retryPolicy: RetryPolicy = .default,
        isTransient: @escaping @Sendable (any Error) -> Bool = isTransientByDefault,
        fetchData: @escaping @Sendable (Key, LoadContext) async throws -> [UInt8],
        decodeInContext decode: @escaping @Sendable (Key, [UInt8], LoadContext) async throws -> Value
    ) {
        let writeFailures = LockedValue(0)
        let disk = DiskWorkQueue(label: "Lookahead.DataPipeline.disk")
        let dataFetcher = AsyncFetcher<Key, [UInt8]>(
            maxConcurrentLoads: maxConcurrentLoads,
            memoryCache: MemoryCache(countLimit: 0),
            retryPolicy: retryPolicy,
            isTransient: isTransient
        ) { key, context in
            let name = key.description
            if let bytes = await disk.run({ diskCache.data(forKey: name) }) { return bytes }
            let bytes = try await fetchData(key, context)
            let stored = await disk.run { (try? diskCache.store(bytes, forKey: name)) != nil }
            if !stored {
                writeFailures.withLock { $0 += 1 }
            }
            return bytes
        }
        self.diskCache = diskCache
        self.dataFetcher = dataFetcher
        self.writeFailures = writeFailures
        self.fetcher = AsyncFetcher(
            maxConcurrentLoads: maxConcurrentLoads,
            memoryCache: memoryCache,
            retryPolicy: .never
        ) { key, context in
            // At the value load's priority, following it (a cell a fling carries away lowers it).
            let data = try await dataFetcher.value(for: key, following: context)
            return try await decode(key, data, context)
        }
    }

    /// Byte loads whose bytes could not be stored on disk.
    public var diskWriteFailures: Int { writeFailures.withLock { $0 } }
}

/// Where a ``Prefetcher`` puts what it loads.
public enum PrefetchDestination: Hashable, Sendable {
    /// Decoded values in the fetcher's memory cache, ready to display.
    case memory
    /// Raw bytes in a ``DataPipeline``'s disk cache: not decoded, not kept in memory.
    case disk
}

extension Prefetcher where Value == [UInt8] {
    /// Creates a prefetcher with the `.disk` destination: it fetches the raw
    /// bytes of its keys into `pipeline`'s disk cache without decoding them
    /// or keeping them in memory. Keys already on disk are skipped.
    ///
    /// When a cell then asks `pipeline.fetcher` for a key, its bytes come
    /// from disk (or join the prefetch still running) and are decoded once.
    ///
    /// A key counts as on disk only while its file exists (`DiskCache.contains(_:)`
    /// checks), so a key whose file was deleted behind the cache's back is
    /// fetched again rather than skipped forever.
    ///
    /// - Parameters:
    ///   - pipeline: the pipeline whose ``DataPipeline/dataFetcher`` to load through.
    ///   - maxConcurrentRequestCount: the most of this prefetcher's keys being
    ///     fetched at once (at least 1).
    ///   - priority: the priority of every prefetch.
    public convenience init<Decoded>(
        diskPrefetchingFor pipeline: DataPipeline<Key, Decoded>,
        maxConcurrentRequestCount: Int = 2,
        priority: FetchPriority = .low
    ) where Key: CustomStringConvertible {
        let diskCache = pipeline.diskCache
        self.init(
            fetcher: pipeline.dataFetcher,
            destination: .disk,
            isAvailable: { key in diskCache.contains(key.description) },
            maxConcurrentRequestCount: maxConcurrentRequestCount,
            priority: priority)
    }
}

/// Runs blocking disk work on a serial dispatch queue and awaits its result.
///
/// Not on the cooperative pool: a task blocked in `read(2)` holds one of its
/// few threads, and enough of them starve every other task.
package struct DiskWorkQueue: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.marker.withLock { $0 }, value: true)
    }

    /// Runs `work` on the queue, after the work submitted before it, and returns its result.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Whether the caller runs on a pipeline's disk queue (for tests).
    package static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker.withLock { $0 }) ?? false
    }

    /// The key whose value marks the disk queues. In a `LockedValue` only
    /// because the key type is not `Sendable`; it is never mutated.
    private static let marker = LockedValue(DispatchSpecificKey<Bool>())
}
