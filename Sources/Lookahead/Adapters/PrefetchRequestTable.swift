// The prefetches a coordinator holds on its fetcher, by path: the handle of
// each, so that every withdrawal touches the coordinator's own request and
// never another screen's interest in the same key. PrefetchCoordinator (by
// ItemPath) and NestedPrefetchCoordinator (by NestedItemPath) share it.

/// A coordinator's outstanding prefetches: the key and handle of each, by
/// path, and the fetcher batch a frame's ``CoordinatorCore/Actions`` make of them.
@MainActor
struct PrefetchRequestTable<Path: Hashable & Comparable & Sendable, Key: Hashable & Sendable> {
    private var entries: [Path: (key: Key, task: FetchTask)] = [:]
    /// Consumed prefetches, still loading at `.low`, until their path's next
    /// withdrawal or the core forgets them.
    private var consumed: [Path: [FetchTask]] = [:]

    /// The key each outstanding prefetch was made for.
    var keys: [Path: Key] { entries.mapValues(\.key) }

    /// The request of the prefetch at `path`, if one is outstanding.
    func request(at path: Path) -> FetchTask? {
        entries[path]?.task
    }

    /// Adds to `batch` what `actions` do to the prefetches held: consumed
    /// ones step down (a consumed prefetch's load goes on ranked by the
    /// cell's request; docs/decisions.md, "A consumed prefetch steps down to
    /// `.low`"), withdrawn ones are withdrawn by handle, new ones asked for
    /// by key (`key` answers for each path; `nil`: nothing to load), moved
    /// deadlines re-dated (a frame's time plus `timelineOffset` is the
    /// fetcher's), the frame's predictions checked. Returns the new
    /// prefetches, in the batch's order.
    mutating func add(
        _ actions: CoordinatorCore<Path>.Actions, key: (Path) -> Key?, timelineOffset: Duration = .zero,
        to batch: inout FetchBatch<Key>
    ) -> [(path: Path, key: Key)] {
        for path in actions.consume {
            guard let entry = entries.removeValue(forKey: path) else { continue }
            batch.consumed.append(entry.task)
            consumed[path, default: []].append(entry.task)
        }
        for path in actions.withdraw {
            if let entry = entries.removeValue(forKey: path) { batch.withdrawn.append(entry.task) }
            if let tasks = consumed.removeValue(forKey: path) { batch.withdrawn.append(contentsOf: tasks) }
        }
        for path in actions.forget { consumed[path] = nil }
        var made: [(path: Path, key: Key)] = []
        made.reserveCapacity(actions.prefetch.count)
        var madeIndex: [Path: Int] = [:]
        for path in actions.prefetch {
            guard let key = key(path) else { continue }
            madeIndex[path] = batch.prefetches.count
            batch.prefetches.append(key)
            made.append((path, key))
        }
        func request(at path: Path) -> FetchBatch<Key>.Request? {
            if let entry = entries[path] { return .task(entry.task) }
            return madeIndex[path].map { .prefetch($0) }
        }
        for (path, deadline) in actions.date {
            if let request = request(at: path) { batch.deadlines.append((request, deadline + timelineOffset)) }
        }
        for path in actions.predicted {
            if let request = request(at: path) { batch.predicted.append(request) }
        }
        return made
    }

    /// Keeps the handles the fetcher returned for the batch's new prefetches.
    mutating func adopt(_ tasks: [FetchTask], for made: [(path: Path, key: Key)]) {
        for (index, entry) in made.enumerated() { entries[entry.path] = (entry.key, tasks[index]) }
    }

    /// Moves each prefetch to its item's new path (the core named those to withdraw).
    mutating func remap(_ newPath: (Path) -> Path?) {
        entries = entries.remappingKeys(newPath).moved
        consumed = consumed.remappingKeys(newPath).moved
    }

    /// How many handles the table keeps (for tests: bounded by the window).
    var count: Int { entries.count + consumed.values.reduce(0) { $0 + $1.count } }
}

extension FetchTask {
    /// Hands a prefetch over to the cell once its item is on screen: the
    /// request steps down to `.low` (never up), so that its load goes on
    /// ranked by the display requests.
    package func consumePrefetch() {
        if priority > .low { priority = .low }
    }
}
