/// Which items to hold prefetched around the viewport.
///
/// - ``system``: UIKit's observed behaviour — the next window of items in the
///   scroll direction (6 rows of a grid, 10 rows of a list), nothing for
///   items visible on the first layout, the window replaced on a reversal.
/// - ``screens(leading:trailing:)``: Texture's ranges, in screenfuls ahead of
///   and behind the viewport, swapped when the direction changes.
/// - ``adaptive``: Lookahead's own, each item in time for its predicted
///   appearance; ``adaptive(_:)`` with settings of your own (what
///   `lookahead tune` prints).
public struct PrefetchPolicy: Sendable {
    /// The policies the planner knows; `custom` is the simulator's and the tests'.
    package enum Kind: Sendable {
        case system
        case screens(leading: Double, trailing: Double)
        case adaptive(AdaptivePrefetchPolicy)
        case custom(any PrefetchPolicyProtocol)
    }

    package let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// UIKit's observed window.
    public static let system = PrefetchPolicy(.system)

    /// Texture's ranges: `leading` screens ahead and `trailing` behind.
    public static func screens(leading: Double = 2.5, trailing: Double = 1.5) -> PrefetchPolicy {
        PrefetchPolicy(.screens(leading: leading, trailing: trailing))
    }

    /// Lookahead's own policy with its shipped settings (see ``AdaptivePrefetchPolicy``).
    public static let adaptive = PrefetchPolicy(.adaptive(AdaptivePrefetchPolicy()))

    /// Lookahead's own policy with `settings`: what `lookahead tune` recommends.
    public static func adaptive(_ settings: AdaptivePrefetchPolicy) -> PrefetchPolicy {
        PrefetchPolicy(.adaptive(settings))
    }

    /// Any policy of the package's own (the simulator's, the tests').
    package static func custom(_ policy: any PrefetchPolicyProtocol) -> PrefetchPolicy {
        PrefetchPolicy(.custom(policy))
    }

    /// A fresh policy instance, with its own state.
    package func makeWindowPolicy() -> any PrefetchPolicyProtocol {
        switch kind {
        case .system: SystemPrefetchPolicy()
        case .screens(let leading, let trailing): ScreensPrefetchPolicy(leading: leading, trailing: trailing)
        case .adaptive(let policy): policy
        case .custom(let policy): policy
        }
    }

    /// Whether the policy is not one of the library's own: it may change its
    /// window with time alone, and may repeat an item in it. The library's
    /// own policies, however configured and wrapped in `custom`, keep the
    /// built-in cases' promises: distinct items, and at rest the same window
    /// for the same visible rect.
    var isCustom: Bool {
        guard case .custom(let policy) = kind else { return false }
        return !(policy is AdaptivePrefetchPolicy || policy is ScreensPrefetchPolicy || policy is SystemPrefetchPolicy)
    }
}

/// What a policy knows when it decides the window.
package struct PrefetchContext: Sendable {
    /// The frame being shown.
    public var frame: ScrollFrame
    /// The items intersecting the visible rect, ascending.
    public var visibleItems: [ItemPath]
    /// The direction of travel, kept from earlier frames while the list rests.
    public var direction: ScrollDirection
    /// True for the first frame after the layout was set up or reloaded.
    public var isFirstLayout: Bool
    /// The loader's queue as the driver reported it for this frame (the
    /// `loadQueue` parameter of `PrefetchPlanner.update(_:loadQueue:)`).
    public internal(set) var loadQueue: LoadQueueState

    /// Creates a context (the planner does, each frame; a test of a policy of
    /// your own may too).
    public init(
        frame: ScrollFrame, visibleItems: [ItemPath], direction: ScrollDirection, isFirstLayout: Bool,
        loadQueue: LoadQueueState = LoadQueueState()
    ) {
        self.frame = frame
        self.visibleItems = visibleItems
        self.direction = direction
        self.isFirstLayout = isFirstLayout
        self.loadQueue = loadQueue
    }
}

/// How busy the loader is: policies that plan in time add the wait in the queue.
package struct LoadQueueState: Hashable, Sendable {
    /// Loads waiting for a slot.
    public var pending: Int
    /// The loader's concurrency limit (at least 1).
    public var maxConcurrentLoads: Int

    /// The loads waiting ahead of a new one, per slot: the wait in the queue
    /// is that many load times.
    public var queuedLoadsPerSlot: Double { Double(pending) / Double(maxConcurrentLoads) }

    /// Creates a state.
    public init(pending: Int = 0, maxConcurrentLoads: Int = 6) {
        self.pending = pending
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
    }
}

/// A policy that learns from how long loads take.
package protocol LoadDurationObserving {
    /// One load took `duration` from request to data.
    mutating func observeLoadDuration(_ duration: Duration)
}

/// Decides, frame by frame, which items should be held prefetched.
///
/// A policy is pure: it sees the frame and the layout and returns the items
/// it wants, nearest (or most urgent) first, never a visible one. The
/// `PrefetchPlanner` turns successive windows into prefetch and cancel
/// calls. A policy may keep state between frames (it is `mutating`).
///
/// The work per frame must follow the window, not the list: use the layout's
/// `itemPaths(in:)` and flat indices, never a scan of every item.
package protocol PrefetchPolicyProtocol: Sendable {
    /// The items to hold prefetched now, in the order they should be asked for.
    mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath]

    /// The priority a visible cell should ask for its data at. `.high` by
    /// default; a policy may lower it for a cell about to be scrolled away.
    func displayPriority(for path: ItemPath, context: PrefetchContext, layout: any CollectionLayout) -> FetchPriority

    /// Items of the last window with the time each one's data is needed by,
    /// on the frames' clock (`ScrollFrame.time`), for a policy that predicts
    /// it (`PrefetchPlanner.deadlines`); none by default. A requirement
    /// rather than a protocol to cast to: the planner asks every frame.
    var deadlines: [(path: ItemPath, time: Duration)] { get }
}

extension PrefetchPolicyProtocol {
    /// `.high`: a visible cell's data comes first.
    package func displayPriority(
        for path: ItemPath, context: PrefetchContext, layout: any CollectionLayout
    ) -> FetchPriority {
        .high
    }

    /// None: the policy does not predict when its items are needed.
    package var deadlines: [(path: ItemPath, time: Duration)] { [] }
}
