/// Decides which rows of a list to prefetch from nothing but the rows that
/// appear and disappear: the pure core of ``ScrollViewPrefetcher``.
///
/// SwiftUI lists have no prefetch data source; all an app sees is each row's
/// `onAppear` and `onDisappear`. Feed those to `appeared(_:)` and
/// `disappeared(_:)`, then call `settle()` to learn how the prefetch window
/// moved. No clock, no tasks, no locks: the time is given with each call.
///
/// **When to settle** is decided here too (see `timingAfterChange(at:)`), so
/// that ``ScrollViewPrefetcher`` on a real clock and the simulator in virtual
/// time settle at the same moments: a change arranges a settle `debounce`
/// later, and every change until then joins it; a settle that sees the list
/// moving arranges another one ``restCheckDelay`` later (or `debounce`, if
/// longer) to notice that it stopped. The driver only keeps a timer for
/// ``scheduledSettleTime`` and calls `settleArranged(at:queuedLoadsPerSlot:)`
/// when it fires.
///
/// **The window.** With `WindowSizing.fixed(count:)`, `count` items
/// ahead of the visible range in the current direction — forward:
/// `max + 1 … max + count`, backward: `min - count … min - 1` — clamped to
/// `0..<itemCount`, ordered nearest to the visible range first. With
/// `WindowSizing.adaptive(_:)`, as far ahead as the measured speed
/// and load time call for, and a few items behind (see
/// `AdaptiveWindowSettings`); it needs the time of each settle
/// (`settle(at:queuedLoadsPerSlot:)`) and learns load times from
/// `observeLoadDuration(_:)`.
///
/// **The direction** comes from how the visible range moved since the previous
/// settle: both ends at or past where they were, one of them further → forward;
/// both at or before, one of them earlier → backward. A range that grew or
/// shrank at both ends, or did not move, is ambiguous and keeps the last
/// direction (initially forward: lists start at the top). Comparing whole
/// ranges rather than single events makes the answer independent of the order
/// in which a burst of callbacks arrives.
///
/// **Invariants.**
/// - `window` holds indices that were emitted for prefetching and have been
///   neither cancelled nor seen; it never holds a visible index.
/// - Every index in `visibleIndices` and `window` is in `0..<itemCount`.
/// - Adaptive: `window` holds no index that was seen (`consumed`).
///
/// **Bad input** is ignored rather than trapped on, because it is routine in
/// SwiftUI (a row can report `onAppear` twice, or after the data shrank):
/// an index outside `0..<itemCount`, the appearance of a visible index, and
/// the disappearance of an index that is not visible change nothing.
package struct ScrollViewPrefetcherStateMachine: Sendable {
    /// What changed in the window at a settle.
    public typealias Update = PrefetchUpdate<Int>

    /// The number of items in the list; valid indices are `0..<itemCount`.
    public private(set) var itemCount: Int
    /// How the window is sized.
    public let sizing: WindowSizing
    /// The most items the window holds ahead of the visible range (before clamping).
    public var windowSize: Int { sizing.maximumCount }
    /// The direction the window currently extends in.
    public private(set) var direction: ScrollDirection = .forward
    /// The rows that have appeared and not disappeared since.
    public private(set) var visibleIndices: Set<Int> = []
    /// Indices prefetched and not yet cancelled or seen, nearest first.
    public private(set) var window: [Int] = []
    /// `window` as a set, for constant-time membership.
    private var windowMembers: Set<Int> = []
    /// The visible range at the last settle that had one: what the next
    /// settle's range is compared with, and where the window is anchored
    /// while no row is visible.
    private var settledRange: ClosedRange<Int>?
    /// Adaptive: the core predicting how far ahead, in items, the user will
    /// be when a load asked for now lands (positions are item indices).
    package private(set) var predictor: ArrivalPredictor
    /// Adaptive: indices seen and still near the visible range, which need
    /// no prefetch behind the user.
    private var consumed: Set<Int> = []
    /// How long changes are collected before the window moves.
    public let debounce: Duration
    /// When the driver should settle next, on its clock; `nil` when nothing is arranged.
    public internal(set) var scheduledSettleTime: Duration?
    /// Whether the arranged settle only checks that the list came to rest:
    /// a change replaces it with a sooner one.
    public internal(set) var isRestCheckScheduled = false

    /// Creates a state machine with nothing visible and an empty window.
    ///
    /// - Parameters:
    ///   - itemCount: the number of items in the list (at least 0).
    ///   - windowSize: how many items to keep prefetched ahead of the visible
    ///     range (at least 0; 0 never prefetches).
    public init(itemCount: Int, windowSize: Int = 12) {
        self.init(itemCount: itemCount, sizing: .fixed(count: windowSize))
    }

    /// Creates a state machine with nothing visible and an empty window.
    ///
    /// - Parameters:
    ///   - itemCount: the number of items in the list (at least 0).
    ///   - sizing: how the window is sized.
    ///   - debounce: how long to collect changes before settling (at least
    ///   `.zero`; `.zero` settles at every change); see `timingAfterChange(at:)`.
    public init(itemCount: Int, sizing: WindowSizing, debounce: Duration = .milliseconds(50)) {
        precondition(itemCount >= 0, "itemCount must not be negative, got \(itemCount)")
        precondition(debounce >= .zero, "debounce must not be negative, got \(debounce)")
        self.debounce = debounce
        precondition(sizing.maximumCount >= 0, "windowSize must not be negative, got \(sizing.maximumCount)")
        self.itemCount = itemCount
        self.sizing = sizing
        switch sizing {
        case .fixed:
            predictor = ArrivalPredictor()
        case .adaptive(let configuration):
            predictor = configuration.makePredictor()
        }
    }

    /// Records how long one load took, for the adaptive window's horizon.
    /// - Complexity: O(1)
    public mutating func observeLoadDuration(_ duration: Duration) {
        predictor.observeLoadDuration(duration)
    }

    /// Adaptive: the scroll speed, in items per second, positive towards
    /// the end of the list; zero for a fixed window.
    public var itemsPerSecond: Double { predictor.velocity }

    /// Records that the row at `index` became visible.
    ///
    /// An index in the window is removed from it without a cancel: it was
    /// consumed, which is what it was prefetched for.
    ///
    /// - Returns: whether anything changed, that is, whether a settle is due.
    /// - Complexity: O(1) amortized, O(`windowSize`) if `index` is in the window.
    @discardableResult
    public mutating func appeared(_ index: Int) -> Bool {
        guard (0..<itemCount).contains(index), visibleIndices.insert(index).inserted else { return false }
        if windowMembers.remove(index) != nil {
            window.removeAll { $0 == index }
        }
        if case .adaptive = sizing { consumed.insert(index) }
        return true
    }

    /// Records that the row at `index` is no longer visible.
    ///
    /// - Returns: whether anything changed, that is, whether a settle is due.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public mutating func disappeared(_ index: Int) -> Bool {
        visibleIndices.remove(index) != nil
    }

    /// Changes the number of items in the list.
    ///
    /// Visible and windowed indices past the new end are forgotten, the
    /// windowed ones without a cancel: they no longer name an item, so a
    /// consumer could not map them to one. The window is recomputed at the
    /// next settle — a list that grew at its end extends it.
    ///
    /// - Returns: whether anything changed, that is, whether a settle is due.
    /// - Complexity: O(visible + `windowSize`) when the list shrinks, O(1) otherwise.
    @discardableResult
    public mutating func update(itemCount newCount: Int) -> Bool {
        precondition(newCount >= 0, "itemCount must not be negative, got \(newCount)")
        guard newCount != itemCount else { return false }
        if newCount < itemCount {
            visibleIndices = visibleIndices.filter { $0 < newCount }
            window.removeAll { $0 >= newCount }
            windowMembers = Set(window)
            consumed = consumed.filter { $0 < newCount }
        }
        itemCount = newCount
        return true
    }

    /// Infers the direction, moves the window and returns the difference.
    ///
    /// With no row visible the window stays anchored at the last visible
    /// range (a jump reports its rows disappearing before, or after, the new
    /// ones appear; in between nothing should be cancelled); before any row
    /// has appeared it is empty.
    ///
    /// - Complexity: O(visible + `windowSize`), never O(`itemCount`).
    public mutating func settle() -> Update {
        settle(time: nil, queuedLoadsPerSlot: 0)
    }

    /// Infers the direction and, for the adaptive window, the speed at
    /// `time`, moves the window and returns the difference.
    ///
    /// - Parameters:
    ///   - time: now, on any fixed origin; not before the previous settle's.
    ///   - queuedLoadsPerSlot: the loads waiting ahead of a new one, per
    ///     concurrent slot of the loader: the queue wait is that many load times.
    /// - Complexity: O(visible + window), never O(`itemCount`).
    public mutating func settle(at time: Duration, queuedLoadsPerSlot: Double = 0) -> Update {
        settle(time: time, queuedLoadsPerSlot: queuedLoadsPerSlot)
    }

    /// Whether the adaptive window sees the list moving: settling again later,
    /// with nothing changed, lets its estimate come back to rest.
    public var isMoving: Bool {
        guard case .adaptive = sizing else { return false }
        return abs(predictor.velocity) >= AdaptiveWindowSettings.restingSpeed
    }

    mutating func settle(time: Duration?, queuedLoadsPerSlot: Double) -> Update {
        if let range = visibleRange() {
            switch sizing {
            case .fixed:
                if let previous = settledRange {
                    direction = Self.direction(from: previous, to: range) ?? direction
                }
            case .adaptive(let configuration):
                if let time {
                    predictor.record(position: Double(range.lowerBound + range.upperBound) / 2, at: time)
                }
                // The direction turns only when the smoothed speed is decisive:
                // fast enough to reach past the resting window. A wobble is not.
                let reach = predictor.reach(queuedLoadsPerSlot: queuedLoadsPerSlot)
                if isMoving, reach >= Double(max(1, configuration.restingCount)) {
                    direction = predictor.velocity > 0 ? .forward : .backward
                }
            }
            settledRange = range
        }
        if case .adaptive(let configuration) = sizing {
            return settleAdaptive(configuration, queuedLoadsPerSlot: queuedLoadsPerSlot)
        }
        let target = targetWindow()
        let targetMembers = Set(target)
        let update = Update(
            prefetch: target.filter { !windowMembers.contains($0) },
            cancel: window.filter { !targetMembers.contains($0) }
        )
        window = target
        windowMembers = targetMembers
        #if DEBUG
        checkInvariants()
        #endif
        return update
    }

    /// The adaptive window: targets on both sides, kept items within the
    /// hysteresis, nearest first.
    private mutating func settleAdaptive(
        _ configuration: AdaptiveWindowSettings, queuedLoadsPerSlot: Double
    )
        -> Update
    {
        guard let range = settledRange, itemCount > 0 else { return Update() }
        let counts = adaptiveCounts(configuration, queuedLoadsPerSlot: queuedLoadsPerSlot)
        let forward = direction == .forward ? counts.ahead : counts.behind
        let backward = direction == .forward ? counts.behind : counts.ahead
        func keep(_ count: Int) -> Int {
            max(Int((Double(count) * configuration.hysteresis).rounded(.up)), count + configuration.restingCount)
        }
        // Ahead, nothing is cancelled for slowing down (the user is still
        // heading there; a wobble must not churn): only past the maximum, or
        // once a reversal has made it the side behind.
        let keepForward = keep(direction == .forward ? configuration.maximumCount : forward)
        let keepBackward = keep(direction == .backward ? configuration.maximumCount : backward)
        /// The distance of `index` from the visible range, and whether it lies
        /// within what its side keeps.
        func isKept(_ index: Int) -> Bool {
            if index > range.upperBound { return index - range.upperBound <= keepForward }
            if index < range.lowerBound { return range.lowerBound - index <= keepBackward }
            return false
        }
        consumed = consumed.filter { isKept($0) || range.contains($0) }
        var target: [Int] = []
        let upper = min(range.upperBound + forward, itemCount - 1)
        if range.upperBound + 1 <= upper { target += (range.upperBound + 1)...upper }
        let lower = max(range.lowerBound - backward, 0)
        if lower <= range.lowerBound - 1 { target += lower...(range.lowerBound - 1) }
        target.removeAll { visibleIndices.contains($0) || consumed.contains($0) }

        let cancel = window.filter { !isKept($0) }
        let prefetchSet = Set(target).subtracting(windowMembers)
        var newWindow = window.filter(isKept) + target.filter { prefetchSet.contains($0) }
        let isForward = direction == .forward
        func ahead(_ index: Int) -> Bool { isForward ? index > range.upperBound : index < range.lowerBound }
        func distance(_ index: Int) -> Int {
            index > range.upperBound ? index - range.upperBound : range.lowerBound - index
        }
        func nearestFirst(_ a: Int, _ b: Int) -> Bool {
            let (da, db) = (distance(a), distance(b))
            if da != db { return da < db }
            return ahead(a) && !ahead(b)
        }
        newWindow.sort(by: nearestFirst)
        let update = Update(
            prefetch: target.filter { prefetchSet.contains($0) }.sorted(by: nearestFirst), cancel: cancel)
        window = newWindow
        windowMembers = Set(newWindow)
        #if DEBUG
        checkInvariants()
        #endif
        return update
    }

    /// How many items the adaptive window wants ahead and behind now: ahead,
    /// the core's reach in items (rounded up), between `restingCount` and
    /// `maximumCount`; behind, `restingCount`.
    package func adaptiveCounts(queuedLoadsPerSlot: Double = 0) -> (ahead: Int, behind: Int) {
        guard case .adaptive(let configuration) = sizing else { return (sizing.maximumCount, 0) }
        return adaptiveCounts(configuration, queuedLoadsPerSlot: queuedLoadsPerSlot)
    }

    private func adaptiveCounts(
        _ configuration: AdaptiveWindowSettings, queuedLoadsPerSlot: Double
    )
        -> (ahead: Int, behind: Int)
    {
        let reach = predictor.reach(queuedLoadsPerSlot: queuedLoadsPerSlot).rounded(.up)
        let ahead = isMoving ? Int(min(reach, Double(configuration.maximumCount))) : 0
        return (max(ahead, configuration.restingCount), configuration.restingCount)
    }

    /// The smallest range holding every visible index, or `nil` if none is.
    ///
    /// Recomputed rather than maintained: a row at either end disappears on
    /// almost every scroll step, and the visible set is one screenful.
    private func visibleRange() -> ClosedRange<Int>? {
        guard let first = visibleIndices.first else { return nil }
        var lower = first
        var upper = first
        for index in visibleIndices {
            lower = min(lower, index)
            upper = max(upper, index)
        }
        return lower...upper
    }

    /// `forward` if the range moved towards the end, `backward` if towards
    /// the start, `nil` if it did not move or grew or shrank at both ends.
    static func direction(from previous: ClosedRange<Int>, to current: ClosedRange<Int>) -> ScrollDirection? {
        let lowerMove = current.lowerBound - previous.lowerBound
        let upperMove = current.upperBound - previous.upperBound
        if lowerMove >= 0, upperMove >= 0, lowerMove + upperMove > 0 { return .forward }
        if lowerMove <= 0, upperMove <= 0, lowerMove + upperMove < 0 { return .backward }
        return nil
    }

    /// The window for the settled range and direction, nearest first.
    private func targetWindow() -> [Int] {
        guard let range = settledRange, windowSize > 0, itemCount > 0 else { return [] }
        switch direction {
        case .forward:
            let first = range.upperBound + 1
            let last = min(range.upperBound + windowSize, itemCount - 1)
            return first <= last ? Array(first...last) : []
        case .backward:
            let first = min(range.lowerBound - 1, itemCount - 1)
            let last = max(range.lowerBound - windowSize, 0)
            return first >= last ? Array((last...first).reversed()) : []
        }
    }

    /// Checks the invariants listed on the type and stops the program if one
    /// does not hold. Runs after every settle in debug builds; tests call it.
    ///
    /// - Complexity: O(visible + `windowSize`).
    package func checkInvariants() {
        precondition(window.count == windowMembers.count, "the window has duplicates: \(window)")
        precondition(windowMembers == Set(window), "windowMembers is out of sync with window \(window)")
        precondition(windowMembers.isDisjoint(with: visibleIndices), "a visible index is in the window \(window)")
        precondition(windowMembers.isDisjoint(with: consumed), "a seen index is in the window \(window)")
        precondition(window.allSatisfy { (0..<itemCount).contains($0) }, "a window index is out of range: \(window)")
        precondition(
            visibleIndices.allSatisfy { (0..<itemCount).contains($0) },
            "a visible index is out of range: \(visibleIndices.sorted())")
    }
}
