import DequeModule

/// Prefetching for lists that only report which rows appear and disappear:
/// SwiftUI's `List`, `LazyVStack` and `LazyVGrid`.
///
/// Nuke's `ScrollViewPrefetcher`, portable and testable. Call `onAppear(_:)`
/// and `onDisappear(_:)` from each row; the prefetcher tracks the visible
/// range and the scroll direction and keeps `windowSize` items ahead of the
/// visible range prefetched, calling `prefetch` for items that enter that
/// window (nearest first) and `cancel` for items that leave it without having
/// been shown. Items that are shown leave the window silently: they were
/// consumed, not abandoned.
///
/// ```swift
/// let prefetcher = ScrollViewPrefetcher(prefetcher: imagePrefetcher, itemCount: urls.count) { urls[$0] }
/// ForEach(urls.indices, id: \.self) { index in
///     ImageView(url: urls[index])
///         .onAppear { prefetcher.onAppear(index) }
///         .onDisappear { prefetcher.onDisappear(index) }
/// }
/// ```
///
/// **Timing.** Callbacks are coalesced on the injected clock: the first change
/// after an update schedules the next update `debounce` later, and every
/// change until then joins it. A burst of `onAppear`/`onDisappear` calls —
/// a layout pass, a jump — therefore yields one update, computed from where
/// the burst ended. It is not a debounce that restarts on every call: during a
/// fling rows appear every frame, and a timer restarted on each would not fire
/// until the fling ended, which is exactly when prefetching is too late.
/// `debounce: .zero` updates synchronously inside each call.
///
/// **Delivery.** `prefetch` and `cancel` are called outside the prefetcher's
/// lock — from the clock's task, or with `debounce: .zero` from the thread
/// that reported the change — and never concurrently with each other: updates
/// are delivered one at a time, in the order they were made, and a callback may
/// call back into the prefetcher. In each update `cancel` comes first, so a
/// concurrency-limited consumer frees its slots before it is given new work.
///
/// The decisions are a ``PrefetchWindowStateMachine``'s; this class only
/// feeds it, schedules its settles and delivers their results. Indices outside
/// `0..<itemCount`, a second `onAppear` for a visible row and an `onDisappear`
/// for a row that never appeared are ignored. Every member is safe to call
/// from any thread. Releasing the prefetcher drops a pending update.
public final class ScrollViewPrefetcher: Sendable {
    /// How many items are kept prefetched ahead of the visible range.
    public let windowSize: Int
    /// How long changes are collected before the window moves.
    public let debounce: Duration

    private let state: LockedValue<State>
    private let sleep: @Sendable (Duration) async throws -> Void
    private let prefetch: @Sendable ([Int]) -> Void
    private let cancel: @Sendable ([Int]) -> Void

    private struct State {
        var machine: PrefetchWindowStateMachine
        /// The task that will settle the machine, while one is scheduled.
        var scheduledUpdate: Task<Void, Never>?
        /// Updates made and not yet delivered, oldest first.
        var undelivered: Deque<PrefetchWindowStateMachine.Update> = []
        /// Whether some thread is delivering `undelivered`: only one does, so
        /// updates arrive in order and never concurrently.
        var isDelivering = false

        /// Queues `update`; returns whether the caller must now deliver.
        mutating func enqueue(_ update: PrefetchWindowStateMachine.Update) -> Bool {
            guard !update.isEmpty else { return false }
            undelivered.append(update)
            guard !isDelivering else { return false }
            isDelivering = true
            return true
        }

        /// The next update to deliver, or `nil` — and the delivering thread is done.
        mutating func nextDelivery() -> PrefetchWindowStateMachine.Update? {
            if let update = undelivered.popFirst() { return update }
            isDelivering = false
            return nil
        }
    }

    /// Creates a prefetcher that reports its decisions to two closures.
    ///
    /// - Parameters:
    ///   - itemCount: the number of items in the list (at least 0).
    ///   - windowSize: how many items to keep prefetched ahead of the visible
    ///     range (at least 0). Twelve is about a screenful of a photo grid, or
    ///     one and a half of a table; UIKit asks for about that much.
    ///   - debounce: how long to collect changes before moving the window (at
    ///     least `.zero`). Fifty milliseconds, three frames, covers one layout
    ///     pass's burst of `onAppear` calls and still moves the window twenty
    ///     times a second during a fling — far more often than an item scrolls
    ///     by. `.zero` updates synchronously in every call.
    ///   - clock: the clock `debounce` is measured on.
    ///   - prefetch: called with the indices that entered the window, nearest
    ///     to the visible range first.
    ///   - cancel: called with the indices that left the window without being shown.
    public init(
        itemCount: Int,
        windowSize: Int = 12,
        debounce: Duration = .milliseconds(50),
        clock: some Clock<Duration> = ContinuousClock(),
        prefetch: @escaping @Sendable ([Int]) -> Void,
        cancel: @escaping @Sendable ([Int]) -> Void
    ) {
        precondition(debounce >= .zero, "debounce must not be negative, got \(debounce)")
        self.windowSize = windowSize
        self.debounce = debounce
        self.state = LockedValue(
            State(machine: PrefetchWindowStateMachine(itemCount: itemCount, windowSize: windowSize)))
        self.sleep = { duration in try await clock.sleep(for: duration) }
        self.prefetch = prefetch
        self.cancel = cancel
    }

    deinit {
        state.withLock { $0.scheduledUpdate?.cancel() }
    }

    /// Reports that the row at `index` became visible: call it from the row's `onAppear`.
    ///
    /// - Complexity: O(1) amortized; O(visible + `windowSize`) with `debounce: .zero`.
    public func onAppear(_ index: Int) {
        change { $0.appeared(index) }
    }

    /// Reports that the row at `index` is no longer visible: call it from the row's `onDisappear`.
    ///
    /// - Complexity: O(1) amortized; O(visible + `windowSize`) with `debounce: .zero`.
    public func onDisappear(_ index: Int) {
        change { $0.disappeared(index) }
    }

    /// The number of items in the list.
    ///
    /// Setting it is `update(itemCount:)`.
    public var itemCount: Int {
        get { state.withLock { $0.machine.itemCount } }
        set { update(itemCount: newValue) }
    }

    /// Changes the number of items in the list, for instance when the next
    /// page of a feed has loaded; the window follows at the next update.
    ///
    /// Indices past the new end are forgotten without a cancel: they no
    /// longer name an item. Call it before the rows of new items can appear,
    /// since appearances of indices past the current count are ignored.
    ///
    /// - Complexity: O(visible + `windowSize`) when the list shrinks, O(1)
    ///   otherwise (plus an update with `debounce: .zero`).
    public func update(itemCount: Int) {
        change { $0.update(itemCount: itemCount) }
    }

    /// The direction the window extends in: where the user was last seen scrolling.
    public var direction: ScrollDirection {
        state.withLock { $0.machine.direction }
    }

    /// Indices prefetched and not yet cancelled or shown, nearest to the
    /// visible range first. Changes made since the last update are not yet
    /// reflected in it.
    public var window: [Int] {
        state.withLock { $0.machine.window }
    }

    /// Applies `event` to the machine and, if it changed anything, makes or
    /// schedules an update.
    private func change(_ event: (inout PrefetchWindowStateMachine) -> Bool) {
        let mustDeliver: Bool = state.withLock { state in
            guard event(&state.machine) else { return false }
            if debounce == .zero {
                return state.enqueue(state.machine.settle())
            }
            if state.scheduledUpdate == nil {
                state.scheduledUpdate = Task { [weak self, sleep, debounce] in
                    do {
                        try await sleep(debounce)
                    } catch {
                        return  // cancelled: the prefetcher is gone
                    }
                    self?.settleScheduledUpdate()
                }
            }
            return false
        }
        if mustDeliver { deliver() }
    }

    /// Makes the scheduled update. Runs in the scheduled task.
    private func settleScheduledUpdate() {
        let mustDeliver: Bool = state.withLock { state in
            state.scheduledUpdate = nil
            return state.enqueue(state.machine.settle())
        }
        if mustDeliver { deliver() }
    }

    /// Delivers queued updates, outside the lock, until none is left.
    private func deliver() {
        while let update = state.withLock({ $0.nextDelivery() }) {
            if !update.cancel.isEmpty { cancel(update.cancel) }
            if !update.prefetch.isEmpty { prefetch(update.prefetch) }
        }
    }
}
