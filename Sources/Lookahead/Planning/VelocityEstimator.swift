// The one velocity estimate of the library: every driver that measures how
// fast a list moves (the coordinator's tracker, the headless views, the
// SwiftUI window, the paging trigger) measures it here.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A velocity, in position units per second, from positions observed at
/// times on any clock: points for a scroll view's offset, items for a list
/// that only reports which rows appear.
///
/// With a `timeConstant` of zero it is the finite difference between the
/// last two positions — what a scroll view's velocity is between two frames.
/// With a positive one it is an exponential moving average whose weight
/// follows the time between samples (`1 - exp(-Δt / timeConstant)`), so that
/// irregular samples — a burst of callbacks, then a pause — weigh by the time
/// they cover rather than by their number: a one-row wobble barely moves it,
/// a fling shows within a couple of time constants. Pure: the caller passes
/// the time.
package struct VelocityEstimator: Hashable, Sendable {
    /// How quickly the estimate follows a change of speed; zero follows at
    /// once (the finite difference).
    public let timeConstant: Duration
    /// The estimated velocity; positive towards the end of the list.
    public private(set) var velocity = 0.0
    private var anchorTime: Duration?
    private var anchorPosition = 0.0

    /// Creates an estimator at rest.
    ///
    /// - Parameter timeConstant: the time over which a new speed takes about
    ///   two thirds of the estimate; `.zero` for the plain finite difference.
    ///   Not negative.
    public init(timeConstant: Duration = .milliseconds(150)) {
        precondition(timeConstant >= .zero, "VelocityEstimator: timeConstant must not be negative, got \(timeConstant)")
        self.timeConstant = timeConstant
    }

    /// Records that the list was at `position` at `time`.
    ///
    /// Samples at the same time as the previous one are merged into the next
    /// one; a sample earlier than the previous one starts afresh at rest.
    /// - Complexity: O(1)
    public mutating func record(position: Double, at time: Duration) {
        guard let anchor = anchorTime, time >= anchor else {
            anchorTime = time
            anchorPosition = position
            velocity = 0
            return
        }
        guard time > anchor else { return }
        let elapsed = (time - anchor).seconds
        let sample = (position - anchorPosition) / elapsed
        if timeConstant == .zero {
            velocity = sample
        } else {
            let weight = 1 - exp(-elapsed / timeConstant.seconds)
            velocity += weight * (sample - velocity)
        }
        anchorTime = time
        anchorPosition = position
    }

    /// Records a velocity the view reported itself (UIKit does at the end of
    /// a drag), at `position` and `time`: it replaces the estimate, and the
    /// next measured sample starts from there.
    /// - Complexity: O(1)
    public mutating func record(velocity reported: Double, position: Double, at time: Duration) {
        anchorTime = time
        anchorPosition = position
        velocity = reported
    }

    /// Forgets the motion: the next sample starts at rest (after a jump).
    public mutating func reset() {
        anchorTime = nil
        velocity = 0
    }
}
