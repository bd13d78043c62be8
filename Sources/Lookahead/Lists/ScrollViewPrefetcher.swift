import DequeModule

/// Prefetching for lists that only report which rows appear and disappear:
/// SwiftUI's `List`, `LazyVStack` and `LazyVGrid`.
///
/// Nuke's `ScrollViewPrefetcher`, portable and testable. Call `onAppear(_:)`
/// and `onDisappear(_:)` from each row; the prefetcher tracks the visible
/// range, the scroll direction and speed, and keeps a window of items around
/// the visible range prefetched, calling `prefetch` for items that enter that
/// window (nearest first) and `cancel` for items that leave it without having
/// been shown. Items that are shown leave the window silently: they were
/// consumed, not abandoned.
///
/// **The window** is adaptive by default (``PrefetchWindowSizing/adaptive``):
/// it reaches as far ahead as the items that will appear before a load
/// started now would finish — from the scroll speed measured on the clock and
/// the load durations reported to ``observeLoadDuration(_:)`` — and keeps a
/// few items on both sides at rest. While the list moves, the prefetcher
/// settles again a little after the last change, so that a list that stopped
/// comes back to the resting window. ``PrefetchWindowSizing/fixed(count:)``
/// keeps Nuke's fixed window ahead.
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
/// The decisions are a `ScrollViewPrefetcherStateMachine`'s, when to settle
/// included (the simulator drives the same machine in virtual time); this
/// class only feeds it, keeps a timer for the settle it arranges and
/// delivers the results. Indices outside
/// `0..<itemCount`, a second `onAppear` for a visible row and an `onDisappear`
/// for a row that never appeared are ignored. Every member is safe to call
/// from any thread. Releasing the prefetcher drops a pending update.
package final class ScrollViewPrefetcher: Sendable {
    /// How the window is sized.
    package let windowSizing: PrefetchWindowSizing
    /// The most items kept prefetched ahead of the visible range.
    package var windowSize: Int { windowSizing.maximumCount }
    /// How long after a settle that saw the list moving it settles again,
    /// to notice that the list stopped.
    package static var restCheckDelay: Duration { ScrollViewPrefetcherStateMachine.restCheckDelay }
    /// How long changes are collected before the window moves.
    package var debounce: Duration { state.withLock { $0.machine.debounce } }

    private let state: LockedValue<State>
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The clock's time since the prefetcher was created.
    private let now: @Sendable () -> Duration
    /// The loads waiting per concurrent slot of the consumer, when known.
    private let queuedLoadsPerSlot: (@Sendable () -> Double)?
    /// Whether every change settles at once (no debounce).
    private let settlesInEveryChange: Bool
    private let prefetch: @Sendable ([Int]) -> Void
    private let cancel: @Sendable ([Int]) -> Void
    /// Observations that live as long as this prefetcher.
    private let observations = LockedValue<[FetchObservation]>([])

    private struct State {
        var machine: ScrollViewPrefetcherStateMachine
        /// The task that will settle the machine at its `scheduledSettleTime`, while one is arranged.
        var scheduledUpdate: Task<Void, Never>?
        /// The serial of `scheduledUpdate`: a task replaced after its sleep
        /// ended finds another serial here and does nothing.
        var scheduledUpdateSerial = 0
        /// Updates made and not yet delivered, oldest first.
        var undelivered: Deque<ScrollViewPrefetcherStateMachine.Update> = []
        /// Whether some thread is delivering `undelivered`: only one does, so
        /// updates arrive in order and never concurrently.
        var isDelivering = false
        /// Whether a task is to settle at the machine's `scheduledSettleTime`
        /// (`scheduledUpdate` is set once the task is started, after the lock).
        var isSettleArranged = false
        /// The latest time the machine was given: a time read before the lock
        /// by one thread may be earlier than one another thread gave since.
        var latestTime = Duration.zero

        /// `time`, or the latest time the machine was given if that is later.
        mutating func notBeforeLatest(_ time: Duration) -> Duration {
            latestTime = max(latestTime, time)
            return latestTime
        }

        /// Arranges the task that settles at the machine's `scheduledSettleTime`,
        /// unless one is arranged already: its serial and how long it sleeps.
        mutating func arrangeSettle(at time: Duration) -> ArrangedSettle? {
            guard !isSettleArranged, let due = machine.scheduledSettleTime else { return nil }
            isSettleArranged = true
            scheduledUpdateSerial += 1
            return ArrangedSettle(serial: scheduledUpdateSerial, delay: max(.zero, due - time))
        }

        /// Queues `update`; returns whether the caller must now deliver.
        mutating func enqueue(_ update: ScrollViewPrefetcherStateMachine.Update) -> Bool {
            guard !update.isEmpty else { return false }
            undelivered.append(update)
            guard !isDelivering else { return false }
            isDelivering = true
            return true
        }

        /// The next update to deliver, or `nil` — and the delivering thread is done.
        mutating func nextDelivery() -> ScrollViewPrefetcherStateMachine.Update? {
            if let update = undelivered.popFirst() { return update }
            isDelivering = false
            return nil
        }
    }

    /// A settle arranged under the lock, for a task started after it.
    private struct ArrangedSettle {
        var serial: Int
        var delay: Duration
    }

    /// Creates a prefetcher that reports its decisions to two closures.
    ///
    /// - Parameters:
    ///   - itemCount: the number of items in the list (at least 0).
    ///   - window: how the window is sized: adaptive by default;
    ///     `.fixed(count: 12)` is about a screenful of a photo grid, or one and
    ///     a half of a table, which is about what UIKit asks for.
    ///   - debounce: how long to collect changes before moving the window (at
    ///     least `.zero`). Fifty milliseconds, three frames, covers one layout
    ///     pass's burst of `onAppear` calls and still moves the window twenty
    ///     times a second during a fling — far more often than an item scrolls
    ///     by. `.zero` updates synchronously in every call.
    ///   - clock: the clock `debounce` and the scroll speed are measured on.
    ///   - prefetch: called with the indices that entered the window, nearest
    ///     to the visible range first.
    ///   - cancel: called with the indices that left the window without being shown.
    package convenience init(
        itemCount: Int,
        window: PrefetchWindowSizing = .adaptive,
        debounce: Duration = .milliseconds(50),
        clock: some Clock<Duration> = ContinuousClock(),
        prefetch: @escaping @Sendable ([Int]) -> Void,
        cancel: @escaping @Sendable ([Int]) -> Void
    ) {
        self.init(
            itemCount: itemCount, window: window, debounce: debounce, clock: clock, queuedLoadsPerSlot: nil,
            prefetch: prefetch, cancel: cancel)
    }

    init(
        itemCount: Int,
        window: PrefetchWindowSizing,
        debounce: Duration,
        clock: some Clock<Duration>,
        queuedLoadsPerSlot: (@Sendable () -> Double)?,
        prefetch: @escaping @Sendable ([Int]) -> Void,
        cancel: @escaping @Sendable ([Int]) -> Void
    ) {
        precondition(debounce >= .zero, "debounce must not be negative, got \(debounce)")
        self.windowSizing = window
        self.state = LockedValue(
            State(
                machine: ScrollViewPrefetcherStateMachine(itemCount: itemCount, sizing: window.kind, debounce: debounce)
            ))
        self.sleep = { duration in try await clock.sleep(for: duration) }
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        self.queuedLoadsPerSlot = queuedLoadsPerSlot
        self.settlesInEveryChange = debounce == .zero
        self.prefetch = prefetch
        self.cancel = cancel
    }

    deinit {
        // Cancelling runs the clock's cancellation handler: never under the lock.
        state.withLock { $0.scheduledUpdate.take() }?.cancel()
    }

    /// How many load durations the window has learned from.
    var observedLoadCount: Int { state.withLock { $0.machine.predictor.observedLoadCount } }

    /// Keeps `observation` alive as long as this prefetcher.
    func retain(_ observation: FetchObservation) {
        observations.withLock { $0.append(observation) }
    }

    /// Reports that the row at `index` became visible: call it from the row's `onAppear`.
    ///
    /// - Complexity: O(1) amortized; O(visible + `windowSize`) with `debounce: .zero`.
    package func onAppear(_ index: Int) {
        change { $0.appeared(index) }
    }

    /// Reports that the row at `index` is no longer visible: call it from the row's `onDisappear`.
    ///
    /// - Complexity: O(1) amortized; O(visible + `windowSize`) with `debounce: .zero`.
    package func onDisappear(_ index: Int) {
        change { $0.disappeared(index) }
    }

    /// The number of items in the list.
    ///
    /// Setting it is `update(itemCount:)`.
    package var itemCount: Int {
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
    package func update(itemCount: Int) {
        change { $0.update(itemCount: itemCount) }
    }

    /// Reports how long one load of an item took (from request to data), so
    /// that the adaptive window reaches far enough ahead for the loads to
    /// finish in time. Ignored by a fixed window.
    ///
    /// - Complexity: O(1)
    package func observeLoadDuration(_ duration: Duration) {
        state.withLock { $0.machine.observeLoadDuration(duration) }
    }

    /// The scroll speed the adaptive window sees, in items per second,
    /// positive towards the end of the list; zero for a fixed window.
    package var itemsPerSecond: Double {
        state.withLock { $0.machine.itemsPerSecond }
    }

    /// The direction the window extends in: where the user was last seen scrolling.
    package var direction: ScrollDirection {
        state.withLock { $0.machine.direction }
    }

    /// Indices prefetched and not yet cancelled or shown, nearest to the
    /// visible range first. Changes made since the last update are not yet
    /// reflected in it.
    package var window: [Int] {
        state.withLock { $0.machine.window }
    }

    /// Applies `event` to the machine and, if it changed anything, settles
    /// or arranges a settle as the machine says. The clock and the consumer's
    /// queue are read before the lock, and the settle's task is started
    /// after it: nothing the app supplied runs under the lock.
    private func change(_ event: (inout ScrollViewPrefetcherStateMachine) -> Bool) {
        let time = now()
        // Only a prefetcher without a debounce settles inside a change.
        let queued = settlesInEveryChange ? queuedLoadsPerSlot?() ?? 0 : 0
        let (mustDeliver, replaced, arranged): (Bool, Task<Void, Never>?, ArrangedSettle?) = state.withLock {
            state in
            guard event(&state.machine) else { return (false, nil, nil) }
            let time = state.notBeforeLatest(time)
            switch state.machine.timingAfterChange(at: time) {
            case .now:
                let mustDeliver = state.enqueue(state.machine.settleNow(at: time, queuedLoadsPerSlot: queued))
                return (mustDeliver, nil, state.arrangeSettle(at: time))
            case .at:
                let replaced = state.scheduledUpdate.take()
                state.isSettleArranged = false
                return (false, replaced, state.arrangeSettle(at: time))
            case .unchanged:
                return (false, nil, nil)
            }
        }
        // Cancelling runs the clock's cancellation handler: only now that the lock is released.
        replaced?.cancel()
        start(arranged)
        if mustDeliver { deliver() }
    }

    /// Starts the task for the settle arranged under the lock, and records
    /// it there unless another has replaced it meanwhile.
    private func start(_ arranged: ArrangedSettle?) {
        guard let arranged else { return }
        let task = Task { [weak self, sleep] in
            do {
                try await sleep(arranged.delay)
            } catch {
                return  // cancelled: the prefetcher is gone, or an earlier update replaced this one
            }
            self?.settleScheduledUpdate(serial: arranged.serial)
        }
        let isCurrent = state.withLock { state in
            guard state.isSettleArranged, state.scheduledUpdateSerial == arranged.serial else { return false }
            state.scheduledUpdate = task
            return true
        }
        if !isCurrent { task.cancel() }
    }

    /// Makes the arranged update. Runs in the scheduled task `serial`.
    private func settleScheduledUpdate(serial: Int) {
        let time = now()
        let queued = queuedLoadsPerSlot?() ?? 0
        let (mustDeliver, arranged): (Bool, ArrangedSettle?) = state.withLock { state in
            // Replaced after its sleep ended: the newer task settles.
            guard state.isSettleArranged, state.scheduledUpdateSerial == serial else { return (false, nil) }
            state.scheduledUpdate = nil
            state.isSettleArranged = false
            let time = state.notBeforeLatest(time)
            let mustDeliver = state.enqueue(state.machine.settleArranged(at: time, queuedLoadsPerSlot: queued))
            return (mustDeliver, state.arrangeSettle(at: time))
        }
        start(arranged)
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
