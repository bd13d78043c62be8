/// Where the demo's items come from: the list of identifiers, and one item
/// by identifier.
///
/// The demo is written against these two closures, so it runs over the
/// embedded feed server and HTTP loader, a server elsewhere, or the
/// in-process ``DemoFeed/simulated(itemCount:latencyMedian:latencyP99:seed:clock:)``
/// feed that tests use.
#if Tools
public struct DemoFeed: Sendable {
    /// Loads the identifiers of the items, in display order.
    public var identifiers: @Sendable () async throws -> [Int]
    /// Loads one item. Runs in a task that is cancelled when nobody wants the
    /// item any more; a loader that honours cancellation really stops.
    public var item: @Sendable (Int) async throws -> DemoItem
    /// Whether a failed item load is worth retrying.
    public var isTransient: @Sendable (any Error) -> Bool

    /// Creates a feed from its two loaders.
    ///
    /// - Parameter isTransient: which `item` errors the fetcher retries; none by default.
    public init(
        identifiers: @escaping @Sendable () async throws -> [Int],
        item: @escaping @Sendable (Int) async throws -> DemoItem,
        isTransient: @escaping @Sendable (any Error) -> Bool = { _ in false }
    ) {
        self.identifiers = identifiers
        self.item = item
        self.isTransient = isTransient
    }
}
#endif
