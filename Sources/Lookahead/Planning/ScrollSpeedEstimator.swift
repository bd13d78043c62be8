#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A smoothed scroll speed, in items per second, from positions observed at
/// times on any clock.
///
/// An exponential moving average whose weight follows the time between
/// samples (`1 - exp(-Δt / timeConstant)`), so that irregular samples — a
/// burst of callbacks, then a pause — weigh by the time they cover rather
/// than by their number. A one-row wobble barely moves it; a fling shows
/// within a couple of time constants. Pure: the caller passes the time.
public struct ScrollSpeedEstimator: Hashable, Sendable {
    /// How quickly the estimate follows a change of speed.
    public let timeConstant: Duration
    /// The smoothed speed; positive towards the end of the list.
    public private(set) var itemsPerSecond = 0.0
    private var anchorTime: Duration?
    private var anchorPosition = 0.0

    /// Creates an estimator at rest.
    ///
    /// - Parameter timeConstant: the time over which a new speed takes about
    ///   two thirds of the estimate; more than zero.
    public init(timeConstant: Duration = .milliseconds(150)) {
        precondition(timeConstant > .zero, "ScrollSpeedEstimator: timeConstant must be positive, got \(timeConstant)")
        self.timeConstant = timeConstant
    }

    /// Records that the list was at `position` (an item index, fractional if
    /// need be) at `time`.
    ///
    /// Samples at the same time as the previous one are merged into the next
    /// one; a sample earlier than the previous one starts afresh at rest.
    /// - Complexity: O(1)
    public mutating func record(position: Double, at time: Duration) {
        guard let anchor = anchorTime, time >= anchor else {
            anchorTime = time
            anchorPosition = position
            itemsPerSecond = 0
            return
        }
        guard time > anchor else { return }
        let elapsed = (time - anchor).seconds
        let sample = (position - anchorPosition) / elapsed
        let weight = 1 - exp(-elapsed / timeConstant.seconds)
        itemsPerSecond += weight * (sample - itemsPerSecond)
        anchorTime = time
        anchorPosition = position
    }

    /// Forgets the motion: the next sample starts at rest (after a jump).
    public mutating func reset() {
        anchorTime = nil
        itemsPerSecond = 0
    }
}
