// SwiftUI rows' prefetching with the key lookup on the main actor: a
// ScrollViewPrefetcher decides in indices on any thread; this class turns
// its updates into keys on the main actor, in order, from a list that may
// grow between the decision and the lookup.

/// A ``ScrollViewPrefetcher`` over a list of keys kept on the main actor.
///
/// ``ScrollViewPrefetcher/init(prefetcher:itemCount:window:debounce:clock:keyForIndex:)``
/// looks keys up on whatever thread delivers an update, so its closure must
/// read a thread-safe copy of the list. This class keeps the list on the
/// main actor instead, where SwiftUI keeps it: updates are queued as they
/// are delivered and applied on the main actor in the order they were made
/// (cancels before prefetches, as delivered), each index read against
/// ``keys`` as they are then. ``setKeys(_:)`` grows or replaces the list.
///
/// `LookaheadSwiftUI`'s `ObservableRowPrefetcher` wraps it for views
/// that observe it; on iOS 16 use it directly with `.lookaheadPrefetch`.
@MainActor
package final class RowPrefetcher<Key: Hashable & Sendable, Value: Sendable> {
    /// The index-level prefetcher rows report to.
    package let rows: ScrollViewPrefetcher
    /// The prefetcher the keys go to.
    package let prefetcher: Prefetcher<Key, Value>
    /// The keys of the rows, in order.
    package private(set) var keys: [Key]

    private let pending: LockedValue<Pending>
    private var observation: FetchObservation?

    private struct Pending {
        var updates: [(isCancel: Bool, indices: [Int])] = []
        var isDrainScheduled = false
    }

    /// Creates a row prefetcher.
    ///
    /// - Parameters:
    ///   - prefetcher: where keys are prefetched; its fetcher's load
    ///     durations teach the adaptive window.
    ///   - keys: the keys of the rows.
    ///   - window: how the window is sized; adaptive by default.
    ///   - debounce: how long changes are collected before the window moves.
    ///   - clock: the clock `debounce` and the scroll speed are measured on.
    package init(
        prefetcher: Prefetcher<Key, Value>,
        keys: [Key],
        window: PrefetchWindowSizing = .adaptive,
        debounce: Duration = .milliseconds(50),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        let pending = LockedValue(Pending())
        // Filled in once `self` exists; the closures below only enqueue.
        let drain = LockedValue<(@Sendable () -> Void)?>(nil)
        let enqueue: @Sendable (Bool, [Int]) -> Void = { isCancel, indices in
            let mustSchedule = pending.withLock { pending in
                pending.updates.append((isCancel, indices))
                defer { pending.isDrainScheduled = true }
                return !pending.isDrainScheduled
            }
            if mustSchedule, let schedule = drain.withLock({ $0 }) { schedule() }
        }
        self.prefetcher = prefetcher
        self.keys = keys
        self.pending = pending
        self.rows = ScrollViewPrefetcher(
            itemCount: keys.count, window: window, debounce: debounce, clock: clock,
            queuedLoadsPerSlot: { [fetcher = prefetcher.fetcher] in
                Double(fetcher.pendingLoadCount) / Double(max(1, fetcher.maxConcurrentLoads))
            },
            prefetch: { enqueue(false, $0) }, cancel: { enqueue(true, $0) })
        drain.withLock { $0 = { Task { @MainActor [weak self] in self?.applyPending() } } }
        let rows = rows
        observation = prefetcher.fetcher.observe { event in
            if case .succeeded(_, let duration) = event { rows.observeLoadDuration(duration) }
        }
    }

    /// Replaces the keys — the list grew (a page loaded) or changed — and
    /// tells the index-level prefetcher the new count.
    package func setKeys(_ keys: [Key]) {
        self.keys = keys
        rows.update(itemCount: keys.count)
    }

    /// The row at `index` appeared.
    package func onAppear(_ index: Int) {
        rows.onAppear(index)
    }

    /// The row at `index` disappeared.
    package func onDisappear(_ index: Int) {
        rows.onDisappear(index)
    }

    /// Applies the queued updates in order, reading the keys as they are now.
    private func applyPending() {
        let updates = pending.withLock { pending in
            defer {
                pending.updates.removeAll()
                pending.isDrainScheduled = false
            }
            return pending.updates
        }
        for update in updates {
            let keys = update.indices.compactMap { self.keys.indices.contains($0) ? self.keys[$0] : nil }
            guard !keys.isEmpty else { continue }
            if update.isCancel {
                prefetcher.stopPrefetching(with: keys)
            } else {
                prefetcher.startPrefetching(with: keys)
            }
        }
    }
}
