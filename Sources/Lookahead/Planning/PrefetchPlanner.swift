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
/// - Complexity: each update costs O(log n + window) for n items: the layout
///   answers "what is visible" by binary search, and the sets it diffs hold
///   only the window.
public struct PrefetchPlanner: Sendable {
    /// The layout the index paths refer to.
    public private(set) var layout: any CollectionLayout
    /// The policy deciding the window.
    public private(set) var policy: any PrefetchPolicyProtocol
    /// Items asked for and neither displayed nor cancelled since.
    public private(set) var prefetched: Set<ItemPath> = []
    /// The items intersecting the last frame's visible rect, ascending.
    public private(set) var visibleItems: [ItemPath] = []
    /// The direction of travel.
    public private(set) var direction: ScrollDirection = .forward
    /// Whether prefetch calls are made at all (`isPrefetchingEnabled`).
    public private(set) var isEnabled: Bool

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
    ///     with its ``ScrollFrame/targetOffset`` when the app knows where a
    ///     fling lands (the adaptive policy then asks for that landing at once).
    ///   - loadQueue: the loader's queue as it is now, for policies that plan
    ///     in time (the adaptive policy); the others ignore it.
    /// - Complexity: O(log n + window).
    public mutating func update(_ frame: ScrollFrame, loadQueue: LoadQueueState = LoadQueueState()) -> Update {
        direction = Self.direction(of: frame, after: lastFrame, previous: direction)
        lastFrame = frame
        visibleItems = layout.itemPaths(in: frame.visibleRect)
        // What is on screen has been consumed: it leaves the set without a cancel.
        for path in visibleItems { prefetched.remove(path) }
        let isFirstLayout = needsFirstLayout
        needsFirstLayout = false
        guard isEnabled else { return Update() }

        let context = PrefetchContext(
            frame: frame, visibleItems: visibleItems, direction: direction, isFirstLayout: isFirstLayout,
            loadQueue: loadQueue)
        lastContext = context
        let window = policy.window(for: context, layout: layout)
        var update = Update()
        for path in window where !prefetched.contains(path) {
            update.prefetch.append(path)
        }
        // A distinct window holding every item asked for cancels none: the
        // common frame, found without hashing the window again.
        if !hasDistinctWindows || window.count - update.prefetch.count < prefetched.count {
            let wanted = Set(window)
            for path in prefetched where !wanted.contains(path) {
                update.cancel.append(path)
            }
            update.cancel.sort()
        }
        for path in update.cancel { prefetched.remove(path) }
        prefetched.formUnion(update.prefetch)
        return update
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
        let cancelled = prefetched.sorted()
        prefetched.removeAll()
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
        prefetched = Set(prefetched.compactMap(newPath))
        visibleItems = visibleItems.compactMap(newPath)
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
