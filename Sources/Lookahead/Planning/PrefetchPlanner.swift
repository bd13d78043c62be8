/// The pure state machine that turns frames of scrolling into prefetch and
/// cancel calls.
///
/// Feed it each frame (`update(_:)`); it asks its policy for the window of
/// items to hold prefetched and returns the difference from the last frame:
/// items to prefetch, in the policy's order (nearest first for the built-in
/// ones), and items to cancel — those that were asked for and left the
/// window without being displayed. Items that become visible are consumed:
/// they leave the prefetched set without a cancel, as in UIKit. Items visible
/// on the first layout are never prefetched.
///
/// No clock, no I/O: the headless views, the simulator and an app's own
/// `UICollectionView` glue all drive this same type.
///
/// - Complexity: each update costs O(log n + window · log window) for n
///   items: the layout answers "what is visible" by binary search, and what
///   it diffs — the window, and the items asked for, kept sorted — holds only
///   the window (a frame's few new items are inserted in place).
package struct PrefetchPlanner: Sendable {
    /// The layout the index paths refer to.
    public private(set) var layout: any CollectionLayout
    /// The policy deciding the window.
    public private(set) var policy: any PrefetchPolicyProtocol
    /// Items asked for and neither displayed nor cancelled since.
    ///
    /// - Complexity: O(prefetched items): built from ``prefetchedPaths`` on each call.
    public var prefetched: Set<ItemPath> { Set(held) }
    /// Items asked for and neither displayed nor cancelled since, ascending:
    /// what ``prefetched`` holds, as the planner keeps it.
    ///
    /// - Complexity: O(1).
    public var prefetchedPaths: [ItemPath] { held }

    /// Whether the window holds `path` prefetched.
    /// - Complexity: O(log window).
    package func holds(_ path: ItemPath) -> Bool { Self.contains(path, inAscending: held) }
    /// The items intersecting the last frame's visible rect, ascending.
    public private(set) var visibleItems: [ItemPath] = []
    /// The direction of travel.
    public private(set) var direction: ScrollDirection = .forward
    /// Whether prefetch calls are made at all (`isPrefetchingEnabled`).
    public private(set) var isEnabled: Bool

    /// What is asked for, ascending, without repeats: a sorted array rather
    /// than a set, so that a frame tests membership by binary search and
    /// merges instead of hashing every item it holds.
    var held: [ItemPath] = []
    /// The window sorted, when a frame needs it; kept to reuse its storage.
    var sortedWindow: [ItemPath] = []
    var lastFrame: ScrollFrame?
    /// What the policy saw on the last frame, for ``displayPriority(for:)``.
    var lastContext: PrefetchContext?
    var needsFirstLayout = true
    /// Whether the policy is a built-in one, whose windows never repeat an
    /// item: a frame then finds what to cancel by counting, without a set of
    /// the window.
    var hasDistinctWindows: Bool

    /// The change one frame makes to the prefetched set (cancels ascending).
    public typealias Update = PrefetchUpdate<ItemPath>

    /// Creates a planner.
    public init(layout: any CollectionLayout, policy: PrefetchPolicy = .system, isEnabled: Bool = true) {
        self.layout = layout
        self.policy = policy.makeWindowPolicy()
        self.isEnabled = isEnabled
        hasDistinctWindows = !policy.isCustom
    }

    /// Plans one frame.
    ///
    /// - Parameters:
    ///   - frame: what the scroll view shows now, how fast it moves, and when;
    ///     with its `ScrollFrame.targetOffset` when the app knows where a
    ///     fling lands (the adaptive policy then asks for that landing at once).
    ///   - loadQueue: the loader's queue as it is now, for policies that plan
    ///     in time (the adaptive policy); the others ignore it.
    /// - Complexity: O(log n + window).
    public mutating func update(_ frame: ScrollFrame, loadQueue: LoadQueueState = LoadQueueState()) -> Update {
        direction = Self.direction(of: frame, after: lastFrame, previous: direction)
        lastFrame = frame
        visibleItems = layout.itemPaths(in: frame.visibleRect)
        // What is on screen has been consumed: it leaves the set without a cancel.
        if !held.isEmpty, !visibleItems.isEmpty {
            let visible = visibleItems
            held.removeAll { Self.contains($0, inAscending: visible) }
        }
        let isFirstLayout = needsFirstLayout
        needsFirstLayout = false
        guard isEnabled else { return Update() }

        let context = PrefetchContext(
            frame: frame, visibleItems: visibleItems, direction: direction, isFirstLayout: isFirstLayout,
            loadQueue: loadQueue)
        lastContext = context
        let window = policy.window(for: context, layout: layout)
        var update = Update()
        for path in window where !Self.contains(path, inAscending: held) {
            update.prefetch.append(path)
        }
        // A distinct window holding every item asked for cancels none: the
        // common frame, found without sorting the window.
        if !hasDistinctWindows || window.count - update.prefetch.count < held.count {
            var wanted = sortedWindow
            sortedWindow = []
            wanted.removeAll(keepingCapacity: true)
            wanted.append(contentsOf: window)
            wanted.sort()
            // `held` is ascending, so the cancels come out ascending.
            for path in held where !Self.contains(path, inAscending: wanted) {
                update.cancel.append(path)
            }
            if !update.cancel.isEmpty { held.removeAll { !Self.contains($0, inAscending: wanted) } }
            sortedWindow = wanted
        }
        // In place: a frame adds a few items to a window of dozens.
        for path in update.prefetch {
            let index = Self.partitionPoint(of: path, inAscending: held)
            // A custom policy may repeat an item in its window.
            if index == held.count || held[index] != path { held.insert(path, at: index) }
        }
        return update
    }

    /// The index of the first of the ascending `paths` not below `path`.
    ///
    /// - Complexity: O(log n).
    static func partitionPoint(of path: ItemPath, inAscending paths: [ItemPath]) -> Int {
        LayoutSearch.partitionPoint(in: paths.indices) { paths[$0] >= path }
    }

    /// Whether the ascending `paths` hold `path`.
    ///
    /// - Complexity: O(log n).
    static func contains(_ path: ItemPath, inAscending paths: [ItemPath]) -> Bool {
        let index = partitionPoint(of: path, inAscending: paths)
        return index < paths.count && paths[index] == path
    }

    /// When the items of the last frame's window are needed, on the frames'
    /// clock, if the policy predicts it (the adaptive policy does; the
    /// others answer nothing). Re-date the prefetches with it every frame
    /// (``FetchTask/setDeadline(_:)``, ``Prefetcher/setDeadline(_:for:)``),
    /// and the fetcher starts queued prefetches earliest-due first rather
    /// than in the order they were asked for. Items the window keeps only by
    /// hysteresis are left out: their earlier deadline stands.
    ///
    /// - Complexity: O(window).
    public var deadlines: [(path: ItemPath, time: Duration)] {
        isEnabled ? policy.deadlines : []
    }

    /// The priority a cell showing `path` should ask for its data at, as of
    /// the last frame: `.high`, unless the policy sees the cell about to be
    /// carried away by a fling (``PrefetchPolicy/adaptive``), then lower.
    /// Ask it in `cellForItemAt`, and again on later frames for a cell still
    /// waiting, to raise a request when the fling stops.
    ///
    /// - Complexity: O(1).
    public func displayPriority(for path: ItemPath) -> FetchPriority {
        guard isEnabled, let lastContext, path.section < layout.numberOfSections,
            path.item < layout.numberOfItems(inSection: path.section)
        else { return .high }
        return policy.displayPriority(for: path, context: lastContext, layout: layout)
    }

    /// Whether the item at `path` was on screen in the last frame planned,
    /// or within `margin` points of it; before any frame, every item counts
    /// as on screen.
    package func isOnScreen(_ path: ItemPath, margin: Double = 0) -> Bool {
        guard let lastContext else { return true }
        guard path.section < layout.numberOfSections, path.item < layout.numberOfItems(inSection: path.section)
        else { return false }
        let visible = lastContext.frame.visibleRect
        let reach = Rect(
            x: visible.minX, y: visible.minY - margin, width: visible.width, height: visible.height + 2 * margin)
        return layout.frame(at: path).intersects(reach)
    }

    /// Turns prefetching off or on. Turning it off cancels everything asked for.
    public mutating func setEnabled(_ isEnabled: Bool) -> Update {
        self.isEnabled = isEnabled
        guard !isEnabled else { return Update() }
        return cancelAll()
    }

    /// Tells a policy that learns from load durations how long one took.
    public mutating func observeLoadDuration(_ duration: Duration) {
        guard var observing = policy as? any PrefetchPolicyProtocol & LoadDurationObserving else { return }
        observing.observeLoadDuration(duration)
        policy = observing
    }

    /// Switches to another policy; the next frame plans with it.
    public mutating func setPolicy(_ policy: PrefetchPolicy) {
        self.policy = policy.makeWindowPolicy()
        hasDistinctWindows = !policy.isCustom
    }

    /// Cancels everything asked for (a jump the caller handles itself, the
    /// view going away).
    public mutating func cancelAll() -> Update {
        let cancelled = held
        held = []
        return Update(cancel: cancelled)
    }

    /// Replaces the layout after a reload: what was asked for is cancelled
    /// (its index paths may mean other items now) and the next frame is a
    /// first layout again.
    public mutating func reload(layout: any CollectionLayout) -> Update {
        let update = cancelAll()
        self.layout = layout
        visibleItems = []
        lastContext = nil
        needsFirstLayout = true
        return update
    }

    /// Replaces the layout after batch updates, moving what was asked for to
    /// the items' new index paths; `newPath` returns `nil` for deleted items,
    /// which are dropped without a cancel (their index paths no longer exist:
    /// a data source that prefetches by identity withdraws them when it
    /// removes the items).
    ///
    /// - Complexity: O(window).
    public mutating func applyUpdates(layout: any CollectionLayout, newPath: (ItemPath) -> ItemPath?) {
        self.layout = layout
        held = held.compactMap(newPath)
        held.sort()
        visibleItems = visibleItems.compactMap(newPath)
        // A move may reorder them.
        visibleItems.sort()
    }

    /// The direction of travel: the sign of the velocity, else of the offset
    /// change, else unchanged.
    static func direction(
        of frame: ScrollFrame, after last: ScrollFrame?, previous: ScrollDirection
    )
        -> ScrollDirection
    {
        if frame.velocity > 0 { return .forward }
        if frame.velocity < 0 { return .backward }
        if let last {
            let delta = frame.visibleRect.minY - last.visibleRect.minY
            if delta > 0 { return .forward }
            if delta < 0 { return .backward }
        }
        return previous
    }
}
