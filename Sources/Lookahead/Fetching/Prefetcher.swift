/// Prefetches values for keys the user is about to see, without getting in
/// the way of the keys they see now.
///
/// Nuke's `ImagePrefetcher` for any key. A prefetcher keeps a set of keys:
/// `startPrefetching(with:)` adds to it, `stopPrefetching(with:)` removes from
/// it (the calls need not balance: a key is in the set or not). At most
/// `maxConcurrentRequestCount` of its keys are being fetched at once, at the
/// prefetcher's `priority` (low by default, below display requests); the rest
/// wait their turn in the order they were asked for, or by when their items
/// are predicted to appear (``startPrefetching(with:deadlines:)``). Its set of
/// keys and their outcomes are kept by the scheduler's group, where the
/// simulator's prefetchers keep theirs too.
///
/// Its loads are the fetcher's loads: when a cell asks for a key that is being
/// prefetched, the two share one load, which then runs at the display
/// request's higher priority; stopping the prefetch leaves the display request
/// untouched.
///
/// ```swift
/// let prefetcher = Prefetcher(fetcher: fetcher)
/// // prefetchItemsAt:
/// prefetcher.startPrefetching(with: indexPaths.map { items[$0.item].id })
/// // cancelPrefetchingForItemsAt:
/// prefetcher.stopPrefetching(with: indexPaths.map { items[$0.item].id })
/// // viewWillDisappear:
/// prefetcher.isPaused = true
/// ```
///
/// Releasing the prefetcher stops everything it started. All members are safe
/// to use from any thread.
public final class Prefetcher<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The fetcher whose loads and cache the prefetcher uses.
    public let fetcher: AsyncFetcher<Key, Value>
    let group: FetchScheduler<Key, FetchPayload<Value>>.GroupID

    /// Where this prefetcher puts what it loads: `.memory` (decoded values in
    /// the fetcher's cache) or `.disk` (see ``init(diskPrefetchingFor:maxConcurrentRequestCount:priority:)``).
    public let destination: PrefetchDestination
    /// Whether a key needs no prefetch: it is in the destination already.
    let isAvailable: @Sendable (Key) -> Bool

    /// Creates a prefetcher with the `.memory` destination: values land in
    /// `fetcher`'s memory cache.
    ///
    /// - Parameters:
    ///   - fetcher: the fetcher to load through.
    ///   - maxConcurrentRequestCount: the most of this prefetcher's keys being
    ///     fetched at once (at least 1).
    ///   - priority: the priority of every prefetch.
    public convenience init(
        fetcher: AsyncFetcher<Key, Value>,
        maxConcurrentRequestCount: Int = 2,
        priority: FetchPriority = .low
    ) {
        let cache = fetcher.memoryCache
        self.init(
            fetcher: fetcher, destination: .memory, isAvailable: { cache.value(forKey: $0) != nil },
            maxConcurrentRequestCount: maxConcurrentRequestCount, priority: priority)
    }

    init(
        fetcher: AsyncFetcher<Key, Value>,
        destination: PrefetchDestination,
        isAvailable: @escaping @Sendable (Key) -> Bool,
        maxConcurrentRequestCount: Int,
        priority: FetchPriority
    ) {
        precondition(
            maxConcurrentRequestCount >= 1,
            "maxConcurrentRequestCount must be at least 1, got \(maxConcurrentRequestCount)")
        self.fetcher = fetcher
        self.destination = destination
        self.isAvailable = isAvailable
        self.group = fetcher.core.update { state, _ in
            let group = state.scheduler.makeGroup(priority: priority, admissionLimit: maxConcurrentRequestCount)
            state.prefetchers[group.index] = FetcherCore.PrefetcherBook(group: group)
            return group
        }
    }

    deinit {
        let group = self.group
        // The book holds `didComplete`, a user closure: it is taken out under
        // the lock and released after, since its captures may deinit another
        // prefetcher of the same fetcher, which takes the same lock.
        let book = fetcher.core.update { state, _ in
            _ = state.scheduler.removeGroup(group)
            return state.prefetchers.removeValue(forKey: group.index)
        }
        withExtendedLifetime(book) {}
    }

    /// Adds `keys` to the set to prefetch, in order. Keys already in the
    /// destination (cached in memory, or on disk) are skipped (and counted in
    /// `skippedCount`); keys already in the set stay
    /// where they are. An empty array does nothing.
    ///
    /// - Complexity: O(`keys.count`).
    public func startPrefetching(with keys: [Key]) {
        prefetch(keys, deadlines: nil)
    }

    /// Adds `keys` to the set to prefetch, each with when its item is
    /// predicted to appear: among this prefetcher's keys waiting for a slot,
    /// the one due soonest starts first.
    ///
    /// As ``startPrefetching(with:)`` otherwise; a key already in the set
    /// takes its new deadline.
    ///
    /// - Parameters:
    ///   - keys: the keys to prefetch.
    ///   - deadlines: for each key, how long from now until its item is
    ///     predicted to appear, on the fetcher's clock (negative: overdue).
    /// - Complexity: O(`keys.count` × log n).
    public func startPrefetching(with keys: [Key], deadlines: [Duration]) {
        precondition(
            deadlines.count == keys.count,
            "startPrefetching(with:deadlines:): \(keys.count) keys but \(deadlines.count) deadlines")
        prefetch(keys, deadlines: deadlines)
    }

    /// Changes when `key`'s item is predicted to appear (how long from now,
    /// on the fetcher's clock), or removes its deadline with `nil`. Does
    /// nothing when `key` is not in the set.
    /// - Complexity: O(log n).
    public func setDeadline(_ deadline: Duration?, for key: Key) {
        let group = self.group
        let core = fetcher.core
        let due = deadline.map { core.timeline() + $0 }
        core.update { state, _ in state.scheduler.setDeadline(due, forKey: key, in: group) }
    }

    /// Adds keys to the set, with their deadlines from now if given.
    func prefetch(_ keys: [Key], deadlines: [Duration]?) {
        guard !keys.isEmpty else { return }
        let group = self.group
        let core = fetcher.core
        // Asked before taking the fetcher's lock: a disk lookup hashes the key,
        // and the clock is the user's.
        let available = keys.map(isAvailable)
        let now = deadlines == nil ? Duration.zero : core.timeline()
        core.update { state, effects in
            guard var book = state.prefetchers[group.index] else { return }
            var skippedAny = false
            for (index, key) in keys.enumerated() {
                let due = deadlines.map { now + $0[index] }
                if state.scheduler.containsKey(key, in: group) {
                    if deadlines != nil { state.scheduler.setDeadline(due, forKey: key, in: group) }
                    continue
                }
                if available[index] {
                    book.skipped += 1
                    skippedAny = true
                    continue
                }
                state.scheduler.addKey(
                    key, to: group, deadline: due, payload: FetchPayload(.prefetch(group: group.index)))
            }
            if skippedAny, state.scheduler.keyCount(in: group) == 0, let didComplete = book.didComplete {
                effects.notifications.append(didComplete)
            }
            state.prefetchers[group.index] = book
        }
    }

    /// Removes `keys` from the set to prefetch. Their loads stop unless
    /// something else wants them. An empty array does nothing.
    ///
    /// - Complexity: O(`keys.count`).
    public func stopPrefetching(with keys: [Key]) {
        guard !keys.isEmpty else { return }
        let group = self.group
        fetcher.core.update { state, _ in
            for key in keys {
                state.scheduler.removeKey(key, from: group)
            }
        }
    }

    /// Removes every key from the set to prefetch.
    ///
    /// - Complexity: O(keys in the set).
    public func stopPrefetching() {
        let group = self.group
        fetcher.core.update { state, _ in
            _ = state.scheduler.withdrawAll(inGroup: group)
        }
    }

    /// While paused, fetches already running finish and the rest wait.
    public var isPaused: Bool {
        get { fetcher.core.state.withLock { $0.scheduler.isPaused(group) } }
        set {
            let group = self.group
            fetcher.core.update { state, _ in state.scheduler.setPaused(newValue, group: group) }
        }
    }

    /// The priority of every prefetch, those already waiting included.
    public var priority: FetchPriority {
        get { fetcher.core.state.withLock { $0.scheduler.priority(of: group) } }
        set {
            let group = self.group
            fetcher.core.update { state, _ in state.scheduler.setPriority(newValue, group: group) }
        }
    }

    /// Called, off any lock, each time the last outstanding prefetch completes
    /// or fails, and when a `startPrefetching(with:)` call finds every new key
    /// already cached. Stopping prefetches does not call it: nothing completed.
    public var didComplete: (@Sendable () -> Void)? {
        get { fetcher.core.state.withLock { $0.prefetchers[group.index]?.didComplete } }
        set {
            let group = self.group
            // The closure replaced is released after the lock: its captures may
            // deinit something that takes the fetcher's lock.
            let replaced = fetcher.core.state.withLock { state in
                let replaced = state.prefetchers[group.index]?.didComplete
                state.prefetchers[group.index]?.didComplete = newValue
                return replaced
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// Prefetches that produced a value.
    public var completedCount: Int { fetcher.core.state.withLock { $0.scheduler.completedCount(in: group) } }
    /// Prefetches that failed for good.
    public var failedCount: Int { fetcher.core.state.withLock { $0.scheduler.failedCount(in: group) } }
    /// Keys that were already cached when asked for.
    public var skippedCount: Int { fetcher.core.state.withLock { $0.prefetchers[group.index]?.skipped ?? 0 } }
    /// Keys in the set that have not completed yet.
    public var outstandingCount: Int { fetcher.core.state.withLock { $0.scheduler.keyCount(in: group) } }
}
