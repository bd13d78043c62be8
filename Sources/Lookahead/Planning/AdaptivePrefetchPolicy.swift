/// Lookahead's own policy: ask for each item in time for its predicted
/// appearance, earliest first.
///
/// Fixed windows ask for too little in a fling and too much while reading.
/// This policy works in time instead of distance:
/// - It predicts when each item ahead enters the viewport. At fling speeds
///   it uses UIScrollView's deceleration (0.998 per ms; the fling comes to
///   rest 0.499·v away). At drag speeds it assumes the finger keeps going.
/// - It estimates how long a load takes: the 90th percentile of recent load
///   durations (fed back by the driver), plus the wait in the loader's queue.
/// - It asks for an item when its predicted appearance falls within that
///   estimate plus a margin, earliest appearance first.
/// - In a fast fling it skips items that would be on screen only briefly as
///   the fling passes them, so the concurrency goes to where the fling lands.
/// - It cancels with hysteresis: an item it asked for stays wanted while it
///   remains within reach, so a wobbling direction causes no
///   cancel-and-restart churn.
/// - While the list rests, it keeps a small window on both sides.
///
/// - Complexity: O(log n + window) per frame: it looks only at the items
///   between the viewport and the farthest point it can reach in time.
public struct AdaptivePrefetchPolicy: PrefetchWindowPolicy, LoadDurationObserving {
    /// Load durations observed so far.
    public var estimator: LoadDurationEstimator
    /// Added to the load estimate: a load asked for exactly in time would
    /// still be late one time in ten.
    public var margin: Duration
    /// Below this speed (pt/s) the list counts as resting.
    public var restingSpeed: Double
    /// Above this speed (pt/s) the motion counts as a fling (decelerating);
    /// below it, as a drag (steady).
    public var flingSpeed: Double
    /// Screens held on each side while resting, and always ahead while moving.
    public var restingScreens: Double
    /// In a fling, an item that would be on screen for less than this is skipped.
    public var flyByTime: Duration
    /// How far, in screens, the policy looks ahead at most.
    public var maxReachScreens: Double

    var held: Set<ItemPath> = []

    public init(
        estimator: LoadDurationEstimator = LoadDurationEstimator(quantile: 0.99),
        margin: Duration = .milliseconds(300),
        restingSpeed: Double = 40,
        flingSpeed: Double = 1_200,
        restingScreens: Double = 2.0,
        flyByTime: Duration = .zero,
        maxReachScreens: Double = 6
    ) {
        self.estimator = estimator
        self.margin = margin
        self.restingSpeed = restingSpeed
        self.flingSpeed = flingSpeed
        self.restingScreens = restingScreens
        self.flyByTime = flyByTime
        self.maxReachScreens = maxReachScreens
    }

    public mutating func observeLoadDuration(_ duration: Duration) {
        estimator.record(duration)
    }

    /// How long a load asked for now is expected to take: the estimate, plus
    /// the wait behind the loads already queued.
    public func expectedLoadTime(queue: LoadQueueState) -> Duration {
        let estimate = estimator.estimate
        let waves = Double(queue.pending) / Double(queue.maxConcurrentLoads)
        return estimate + estimate * waves
    }

    /// When an item `distance` points ahead enters the viewport at `speed`
    /// (seconds), or `nil` if it will not.
    func appearance(inDistance distance: Double, speed: Double) -> Double? {
        if distance <= 0 { return 0 }
        if speed >= flingSpeed { return ScrollPhysics.time(toTravel: distance, velocity: speed) }
        return distance / speed
    }

    public mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let visible = context.frame.visibleRect
        let screen = max(visible.height, 1)
        let speed = abs(context.frame.velocity)
        let visibleSet = Set(context.visibleItems)
        let horizon = (expectedLoadTime(queue: context.loadQueue) + margin) / .seconds(1)

        var wanted: [(time: Double, distance: Double, path: ItemPath)] = []
        let isResting = speed < restingSpeed
        let forward = context.direction == .forward

        // What the motion can reach in time, and a little always.
        var reach = restingScreens * screen
        if !isResting {
            let travel =
                speed >= flingSpeed
                ? ScrollPhysics.distance(after: horizon, velocity: speed) : speed * horizon
            reach = min(max(reach, travel + screen / 4), maxReachScreens * screen)
        }
        let behind = isResting ? restingScreens * screen : 0
        let top = forward ? visible.minY - behind : visible.minY - reach
        let bottom = forward ? visible.maxY + reach : visible.maxY + behind
        let region = Rect(x: visible.minX, y: max(0, top), width: visible.width, height: max(0, bottom - max(0, top)))

        for path in layout.itemPaths(in: region) where !visibleSet.contains(path) {
            let frame = layout.frame(at: path)
            let isAhead = forward ? frame.minY >= visible.maxY : frame.maxY <= visible.minY
            let distance = frame.verticalDistance(to: visible)
            if isResting || !isAhead {
                // Resting, or just behind: nearest first, after what is ahead.
                wanted.append((horizon + distance / screen, distance, path))
                continue
            }
            guard let appears = appearance(inDistance: distance, speed: speed) else { continue }
            let isNear = distance <= restingScreens * screen
            guard isNear || appears <= horizon else { continue }
            if speed >= flingSpeed, !isNear {
                // Skip what the fling only flies by: on screen too briefly to matter.
                let leaveDistance = distance + visible.height + frame.height
                if let leaves = ScrollPhysics.time(toTravel: leaveDistance, velocity: speed),
                    leaves - appears < flyByTime / .seconds(1)
                {
                    continue
                }
            }
            wanted.append((appears, distance, path))
        }
        wanted.sort { ($0.time, $0.distance, $0.path) < ($1.time, $1.distance, $1.path) }
        var window = wanted.map(\.path)

        // Hysteresis: keep what was asked for while it stays within a wider
        // reach on either side, so a wobble does not cancel and restart it;
        // only a fast fling lets go of what it has passed (half a screen back).
        let keepAhead = max(reach, screen) * 1.5
        let keepBehind = speed >= flingSpeed ? max(behind, screen / 2) : keepAhead
        let keepTop = visible.minY - (forward ? keepBehind : keepAhead)
        let keepBottom = visible.maxY + (forward ? keepAhead : keepBehind)
        let chosen = Set(window)
        for path in held where !chosen.contains(path) && !visibleSet.contains(path) {
            // After a reload or batch update a held path may no longer exist.
            guard path.section < layout.numberOfSections, path.item < layout.numberOfItems(inSection: path.section)
            else { continue }
            let frame = layout.frame(at: path)
            if frame.maxY > keepTop, frame.minY < keepBottom { window.append(path) }
        }
        held = Set(window)
        return window
    }
}
