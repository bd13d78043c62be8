// The prefetches a coordinator has asked its fetcher for, kept by path: the
// bookkeeping PrefetchCoordinator (by ItemPath) and NestedPrefetchCoordinator
// (by NestedItemPath) share, with what happens to a prefetch whose item
// comes on screen.

/// A coordinator's outstanding prefetches, one per path: the key each was
/// made for and its request, to cancel it when its item leaves the window,
/// re-date it, and hand its load over when the item comes on screen.
@MainActor
struct PrefetchRequestTable<Path: Hashable & Sendable, Key: Hashable & Sendable> {
    /// The key each outstanding prefetch was made for.
    private(set) var keys: [Path: Key] = [:]
    /// The request of each outstanding prefetch, by key.
    private var requests: [Key: FetchTask] = [:]

    /// Prefetches `key` on `fetcher` for the item at `path`, at `priority`.
    mutating func prefetch<Value: Sendable>(
        _ key: Key, at path: Path, from fetcher: AsyncFetcher<Key, Value>, priority: FetchPriority
    ) {
        keys[path] = key
        requests[key] = fetcher.fetchAsync(key, priority: priority)
    }

    /// The request of the prefetch at `path`, if one is outstanding.
    func request(at path: Path) -> FetchTask? {
        keys[path].flatMap { requests[$0] }
    }

    /// The item at `path` is on screen: its prefetch is consumed, as UIKit's
    /// are, without a cancel. Its load goes on, ranked by the cell's display
    /// request from now on: the prefetch steps down to `.low`. Left at its
    /// own priority, with a deadline now past, it would start ahead of every
    /// prefetch still due, and undo the `.low` a policy gives the cells a
    /// fling carries away (docs/decisions.md, "A consumed prefetch steps
    /// down to `.low`").
    mutating func consume(at path: Path) {
        guard let key = keys.removeValue(forKey: path) else { return }
        requests.removeValue(forKey: key)?.consumePrefetch()
    }

    /// Withdraws the prefetch at `path`, by the key it was made for.
    mutating func cancel<Value: Sendable>(at path: Path, on fetcher: AsyncFetcher<Key, Value>) {
        guard let key = keys.removeValue(forKey: path) else { return }
        requests[key] = nil
        fetcher.cancelFetch(key)
    }

    /// Withdraws every prefetch.
    mutating func cancelAll<Value: Sendable>(on fetcher: AsyncFetcher<Key, Value>) {
        let withdrawn = keys.values
        keys.removeAll()
        requests.removeAll()
        for key in withdrawn { fetcher.cancelFetch(key) }
    }

    /// Moves each prefetch to its item's new path; withdraws those whose item
    /// is gone (`nil`).
    mutating func remap<Value: Sendable>(_ newPath: (Path) -> Path?, on fetcher: AsyncFetcher<Key, Value>) {
        let (moved, withdrawn) = keys.remappingKeys(newPath)
        keys = moved
        for key in withdrawn {
            requests[key] = nil
            fetcher.cancelFetch(key)
        }
    }
}

extension FetchTask {
    /// Hands a prefetch over to the cell once its item is on screen: the
    /// request steps down to `.low` (never up), so that its load goes on
    /// ranked by the display requests (``PrefetchRequestTable/consume(at:)``).
    package func consumePrefetch() {
        if priority > .low { priority = .low }
    }
}
