// Images the way a grid wants them: bytes on disk, decoded off the main
// thread for the cell's pixel size, a slot per core and the most urgent
// first, kept in memory by their decoded bytes. Portable: the decoder is
// given (ImageIO's thumbnail path on Apple platforms, ThumbnailPipeline+ImageIO).

public import Lookahead

/// Loads images for cells: bytes from disk or `fetchData`, decoded to a
/// ``DecodedImage`` by `decode` on a ``DecodeQueue`` slot (one per core by
/// default, the visible cells' before the prefetches'), kept in a memory
/// cache charged by decoded bytes within `memoryBudget`.
///
/// Its ``fetcher`` is what a ``PrefetchCoordinator`` drives; a
/// ``Prefetcher`` over ``dataFetcher`` keeps bytes ahead on disk without
/// decoding them.
public final class ThumbnailPipeline<Key: Hashable & Sendable & CustomStringConvertible, Image: Sendable>: Sendable {
    /// Bytes on disk, decoded images in memory.
    public let pipeline: DataPipeline<Key, DecodedImage<Image>>
    package let decodes: DecodeQueue

    /// Loads and caches the decoded images: what cells and the coordinator ask.
    public var fetcher: AsyncFetcher<Key, DecodedImage<Image>> { pipeline.fetcher }
    /// Loads the bytes, disk first: what a `.disk` prefetcher asks.
    public var dataFetcher: AsyncFetcher<Key, [UInt8]> { pipeline.dataFetcher }

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - diskCache: where the bytes are kept.
    ///   - memoryBudget: the most decoded bytes kept in memory; 15% of the
    ///     device's memory by default, at most 512 MiB (``MemoryCache/defaultCostLimit``).
    ///   - maxConcurrentLoads: the most byte loads (and image loads) at once.
    ///   - decodeSlots: the most decodes at once (at least 1): the cores.
    ///   - fetchData: the bytes of a key, from the network say; it learns
    ///     the load's priority and whether it is a prefetch.
    ///   - decode: the bytes decoded for the cell; runs off the main
    ///     thread, never on the cooperative pool.
    public init(
        diskCache: DiskCache,
        memoryBudget: Int = MemoryCache<Key, DecodedImage<Image>>.defaultCostLimit,
        maxConcurrentLoads: Int = 6,
        decodeSlots: Int,
        fetchData: @escaping @Sendable (Key, LoadContext) async throws -> [UInt8],
        decode: @escaping @Sendable ([UInt8]) throws -> DecodedImage<Image>
    ) {
        precondition(decodeSlots >= 1, "ThumbnailPipeline: decodeSlots must be at least 1, got \(decodeSlots)")
        let decodes = DecodeQueue(slots: decodeSlots)
        self.decodes = decodes
        pipeline = DataPipeline(
            diskCache: diskCache, memoryCache: MemoryCache(costLimit: memoryBudget),
            maxConcurrentLoads: maxConcurrentLoads, fetchData: fetchData
        ) { _, bytes, context in
            try await decodes.run(priority: context.priority) { try decode(bytes) }
        }
    }
}
