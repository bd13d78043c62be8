// The prefetches a coordinator holds on its fetcher, by path: the handle of
// each, so that every withdrawal touches the coordinator's own request and
// never another screen's interest in the same key. PrefetchCoordinator (by
// ItemPath) and NestedPrefetchCoordinator (by NestedItemPath) share it, and
// the simulator's and the replay's loaders keep the same by key.

/// A coordinator's outstanding prefetches: the handle of each, by path, and
/// the changes a frame's ``CoordinatorCore/Actions`` make of them.
///
/// Keyless, so that the per-frame work is the same code whatever the
/// fetcher's key type: the coordinator looks the keys of new prefetches up.
package struct PrefetchRequestTable<Path: Hashable & Comparable & Sendable>: Sendable {
    private var entries: [Path: FetchTask] = [:]
    /// Consumed prefetches, still loading at `.low`, until their path's next
    /// withdrawal or the core forgets them.
    private var consumed: [Path: [FetchTask]] = [:]
    /// Consumed prefetches the core forgot (their item out of reach), left
    /// to finish: still held, so that an update or a reload lets go of them
    /// rather than leave them loading items that may be gone. Those that
    /// ended are dropped now and then (``prune(keepingPending:)``).
    private var finishing: [FetchTask] = []

    package init() {}

    /// The request of the prefetch at `path`, if one is outstanding.
    package func request(at path: Path) -> FetchTask? {
        entries[path]
    }

    /// The paths with an outstanding prefetch.
    package var paths: Dictionary<Path, FetchTask>.Keys { entries.keys }

    /// Whether a prefetch at `path` is held, outstanding or consumed.
    package func holds(_ path: Path) -> Bool {
        entries[path] != nil || consumed[path] != nil
    }

    /// The paths of `actions`' new prefetches that have a key (`key`
    /// answers; `nil`: nothing to load), and the keys, in order: the batch's.
    /// The one part of a frame that depends on the fetcher's key type.
    package static func keys<Key>(
        of actions: CoordinatorCore<Path>.Actions, _ key: (Path) -> Key?
    ) -> (
        paths: [Path], keys: [Key]
    ) {
        var paths: [Path] = []
        var keys: [Key] = []
        for path in actions.prefetch {
            guard let key = key(path) else { continue }
            paths.append(path)
            keys.append(key)
        }
        return (paths, keys)
    }

    /// Adds to `changes` what `actions` do to the prefetches held: consumed
    /// ones step down (a consumed prefetch's load goes on ranked by the
    /// cell's request; docs/decisions.md, "A consumed prefetch steps down to
    /// `.low`"), withdrawn ones are withdrawn by handle, moved deadlines
    /// re-dated (a frame's time plus `timelineOffset` is the fetcher's), the
    /// frame's predictions checked. `made` are the paths of the frame's new
    /// prefetches that have a key, in the batch's order.
    package mutating func add(
        _ actions: CoordinatorCore<Path>.Actions, made: [Path], timelineOffset: Duration = .zero,
        to changes: inout FetchRequestChanges
    ) {
        for path in actions.consume {
            guard let task = entries.removeValue(forKey: path) else { continue }
            changes.consumed.append(task)
            consumed[path, default: []].append(task)
        }
        for path in actions.withdraw {
            if let task = entries.removeValue(forKey: path) { changes.withdrawn.append(task) }
            if let tasks = consumed.removeValue(forKey: path) { changes.withdrawn.append(contentsOf: tasks) }
        }
        for path in actions.forget {
            guard let tasks = consumed.removeValue(forKey: path) else { continue }
            // Let go of in the batch (withdrawn unless loading); held until done.
            changes.forgotten += tasks
            finishing += tasks
        }
        guard !actions.date.isEmpty || !actions.predicted.isEmpty else { return }
        func request(at path: Path) -> FetchBatchRequest? {
            if let task = entries[path] { return .task(task) }
            return made.firstIndex(of: path).map { .prefetch($0) }
        }
        for (path, deadline) in actions.date {
            if let request = request(at: path) { changes.deadlines.append((request, deadline + timelineOffset)) }
        }
        for path in actions.predicted {
            if let request = request(at: path) { changes.predicted.append(request) }
        }
    }

    /// Keeps the handles the fetcher returned for the batch's new prefetches.
    package mutating func adopt(_ tasks: [FetchTask], for made: [Path]) {
        for (index, path) in made.enumerated() { entries[path] = tasks[index] }
    }

    /// Moves each prefetch to its item's new path (the core named those to
    /// withdraw, and they were, so no two land on one path).
    package mutating func remap(_ newPath: (Path) -> Path?) {
        entries = entries.remappingKeys(newPath).moved
        consumed = consumed.remappingKeys(newPath).moved
    }

    /// Every handle the table keeps: outstanding, consumed, finishing.
    package var allRequests: [FetchTask] { Array(entries.values) + consumed.values.joined() + finishing }

    /// Lets go of every handle, withdrawing none.
    package mutating func removeAll() {
        entries.removeAll()
        consumed.removeAll()
        finishing.removeAll()
    }

    /// Lets go of the forgotten consumed prefetches still finishing, and
    /// returns them: an update or a reload withdraws them (after the next
    /// window's prefetches), for their paths may name other items by now.
    package mutating func takeFinishing() -> [FetchTask] {
        defer { finishing.removeAll() }
        return finishing
    }

    /// Drops the finishing handles whose requests ended, once there are
    /// more than a few: `isPending` answers for all of them at once.
    package mutating func prune(keepingPending isPending: ([FetchTask]) -> [Bool]) {
        guard finishing.count > Self.finishingBeforePrune else { return }
        let pending = isPending(finishing)
        finishing = zip(finishing, pending).compactMap { $1 ? $0 : nil }
    }

    /// How many finishing handles may wait before the ended ones are dropped.
    package static var finishingBeforePrune: Int { 16 }

    /// How many handles the table keeps (bounded by the window).
    package var count: Int { entries.count + consumed.values.reduce(0) { $0 + $1.count } + finishing.count }
}

extension FetchTask {
    /// Hands a prefetch over to the cell once its item is on screen: the
    /// request steps down to `.low` (never up), so that its load goes on
    /// ranked by the display requests.
    package func consumePrefetch() {
        if priority > .low { priority = .low }
    }
}
