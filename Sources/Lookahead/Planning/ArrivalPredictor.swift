// The adaptive core: how long a load takes, how fast the user moves, and so
// how far ahead the user will be when a load started now finishes. The
// adaptive policy asks it in points, the SwiftUI window and the paging
// trigger in items.

/// Predicts how far ahead the user will be when a load started now finishes.
///
/// Every adaptive decision in Lookahead is one comparison: is this item (or
/// this end of the loaded pages) nearer than the distance the user covers
/// while a load asked for now is under way? This type owns both halves of
/// that distance, so that the three places that ask it — the
/// ``AdaptivePrefetchPolicy`` (in points, with fling physics), the SwiftUI
/// window (`WindowSizing.adaptive`, in items) and the paging
/// trigger (`PagingStateMachine.accessed(index:velocity:observedPageLatency:)`,
/// in items) — cannot drift apart:
/// - **the load time**: a running quantile of observed load durations
///   (``loadTimeQuantile``: the 99th percentile for the policy, the 90th for
///   the window), plus the wait behind the loads already queued, plus
///   ``margin``;
/// - **the velocity**: one `VelocityEstimator`, fed positions (or a
///   velocity the view reported);
/// - **the motion**: steady below ``flingSpeed``, and above it decelerating
///   as a released `UIScrollView` does (`ScrollPhysics`).
///
/// Positions are in any unit — points, or items — and the reach comes back
/// in that unit; ``reachInItems(queuedLoadsPerSlot:itemExtent:)`` converts a
/// reach in points with the size of an item.
///
/// Pure: times are given, no clock is read.
package struct ArrivalPredictor: Hashable, Sendable {
    /// Slack on top of the expected load time: a load asked for exactly in
    /// time is late whenever it takes longer than the estimate.
    public var margin: Duration
    /// Above this speed (position units per second) a motion is a fling,
    /// decelerating as UIScrollView's; below it, the motion keeps its speed.
    /// `.infinity`: always steady (what a list that only reports rows needs).
    public var flingSpeed: Double
    /// How long loads take.
    package var loadDurations: LoadDurationEstimator
    /// How fast the user moves.
    package private(set) var velocityEstimator: VelocityEstimator

    /// Creates a predictor at rest that has seen no load.
    ///
    /// - Parameters:
    ///   - loadTimeQuantile: which quantile of the recent load durations is
    ///     planned for, in (0, 1].
    ///   - initialLoadDuration: the load time assumed before any is observed.
    ///   - sampleCapacity: how many recent load durations are kept (at least 1).
    ///   - margin: added to the expected load time; not negative.
    ///   - flingSpeed: above this speed a motion decelerates as a fling.
    ///   - velocityTimeConstant: how the velocity is smoothed (see
    ///     `VelocityEstimator`); `.zero` for the finite difference.
    public init(
        loadTimeQuantile: Double = 0.9,
        initialLoadDuration: Duration = .milliseconds(300),
        sampleCapacity: Int = 128,
        margin: Duration = .zero,
        flingSpeed: Double = .infinity,
        velocityTimeConstant: Duration = .zero
    ) {
        self.init(
            loadDurations: LoadDurationEstimator(
                quantile: loadTimeQuantile, prior: initialLoadDuration, capacity: sampleCapacity),
            margin: margin, flingSpeed: flingSpeed, velocityTimeConstant: velocityTimeConstant)
    }

    /// Creates a predictor over an estimator of load durations.
    package init(
        loadDurations: LoadDurationEstimator, margin: Duration, flingSpeed: Double, velocityTimeConstant: Duration
    ) {
        precondition(margin >= .zero, "ArrivalPredictor: margin must not be negative, got \(margin)")
        precondition(flingSpeed > 0, "ArrivalPredictor: flingSpeed must be positive, got \(flingSpeed)")
        self.loadDurations = loadDurations
        self.margin = margin
        self.flingSpeed = flingSpeed
        self.velocityEstimator = VelocityEstimator(timeConstant: velocityTimeConstant)
    }

    // MARK: Observations

    /// The quantile of recent load durations that is planned for.
    public var loadTimeQuantile: Double { loadDurations.quantile }

    /// How many load durations have been observed (up to the capacity).
    public var observedLoadCount: Int { loadDurations.count }

    /// The velocity, in position units per second; positive towards the end.
    public var velocity: Double { velocityEstimator.velocity }

    /// One load took `duration` from request to data.
    /// - Complexity: O(sample capacity).
    public mutating func observeLoadDuration(_ duration: Duration) {
        loadDurations.record(duration)
    }

    /// The user was at `position` at `time`.
    /// - Complexity: O(1).
    public mutating func record(position: Double, at time: Duration) {
        velocityEstimator.record(position: position, at: time)
    }

    /// The view reported its own `velocity` at `position` and `time`.
    /// - Complexity: O(1).
    public mutating func record(velocity: Double, position: Double, at time: Duration) {
        velocityEstimator.record(velocity: velocity, position: position, at: time)
    }

    /// Forgets the motion (a jump, a reload): the next position starts at rest.
    public mutating func resetMotion() {
        velocityEstimator.reset()
    }

    // MARK: Predictions

    /// The planned-for load time: the quantile of recent durations.
    /// - Complexity: O(1).
    public var loadTime: Duration { loadDurations.estimate }

    /// Another quantile of the same load durations (the median: a typical load).
    /// - Complexity: O(1).
    public func loadTime(atQuantile quantile: Double) -> Duration {
        loadDurations.quantile(quantile)
    }

    /// How long a load asked for now is expected to take: the load time,
    /// plus the wait behind `queuedLoadsPerSlot` loads per slot of the
    /// loader (each a load time).
    /// - Complexity: O(1).
    public func expectedLoadTime(queuedLoadsPerSlot: Double = 0) -> Duration {
        let estimate = loadTime
        return estimate + estimate * max(0, queuedLoadsPerSlot)
    }

    /// The seconds between asking for an item now and needing it on screen
    /// at the latest: the expected load time plus the margin.
    /// - Complexity: O(1).
    public func horizon(queuedLoadsPerSlot: Double = 0) -> Double {
        (expectedLoadTime(queuedLoadsPerSlot: queuedLoadsPerSlot) + margin) / .seconds(1)
    }

    /// How far a motion at `speed` (not negative) travels in `seconds`:
    /// steadily, or as a decelerating fling at or above ``flingSpeed``.
    /// - Complexity: O(1).
    public func distance(travelledIn seconds: Double, speed: Double) -> Double {
        speed >= flingSpeed ? ScrollPhysics.distance(after: seconds, velocity: speed) : speed * seconds
    }

    /// When, in seconds from now, a point `distance` ahead is reached at
    /// `speed`; `nil` if a fling comes to rest first. At speed zero the
    /// answer is infinite.
    /// - Complexity: O(1).
    public func appearance(inDistance distance: Double, speed: Double) -> Double? {
        if distance <= 0 { return 0 }
        if speed >= flingSpeed { return ScrollPhysics.time(toTravel: distance, velocity: speed) }
        return distance / speed
    }

    /// How far ahead, in position units, a user moving at `speed` will be
    /// when a load that takes `loadTime` (plus the margin) finishes.
    /// - Complexity: O(1).
    public func reach(speed: Double, loadTime: Duration) -> Double {
        distance(travelledIn: (loadTime + margin) / .seconds(1), speed: abs(speed))
    }

    /// How far ahead, in position units, the user will be at the estimated
    /// velocity when a load asked for now finishes, behind
    /// `queuedLoadsPerSlot` queued loads per slot.
    /// - Complexity: O(1).
    public func reach(queuedLoadsPerSlot: Double = 0) -> Double {
        distance(travelledIn: horizon(queuedLoadsPerSlot: queuedLoadsPerSlot), speed: abs(velocity))
    }

    /// ``reach(queuedLoadsPerSlot:)`` in items, for positions in points and
    /// items `itemExtent` points long (row pitch, along the scroll axis).
    /// - Complexity: O(1).
    public func reachInItems(queuedLoadsPerSlot: Double = 0, itemExtent: Double) -> Double {
        precondition(itemExtent > 0, "ArrivalPredictor: itemExtent must be positive, got \(itemExtent)")
        return reach(queuedLoadsPerSlot: queuedLoadsPerSlot) / itemExtent
    }
}
