#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// UIScrollView's deceleration, as closed forms.
///
/// A released scroll view loses velocity at a constant rate per millisecond:
/// `UIScrollView.DecelerationRate.normal` is 0.998, so the velocity after
/// `t` ms is `v·0.998^t` and the distance travelled is
/// `v/1000 · (1 − 0.998^t) / (−ln 0.998)`. It comes to rest
/// `v·0.998/(1 − 0.998)/1000 = 0.499·v` points away (the projection Apple's
/// WWDC 2018 "Designing Fluid Interfaces" uses). Velocities are in points per
/// second, distances in points, times in seconds; signs follow the velocity.
package enum ScrollPhysics {
    /// The fraction of velocity kept per millisecond.
    public static let decelerationRate = 0.998

    static let decayPerMillisecond = -log(decelerationRate)

    /// Where a fling released at `velocity` comes to rest, relative to where it was released.
    public static func projectedDistance(velocity: Double) -> Double {
        velocity * decelerationRate / (1 - decelerationRate) / 1_000
    }

    /// The velocity of a fling `seconds` after it had `velocity`: v·0.998^ms.
    public static func velocity(after seconds: Double, velocity: Double) -> Double {
        guard seconds > 0 else { return velocity }
        return velocity * pow(decelerationRate, seconds * 1_000)
    }

    /// The distance travelled `seconds` after release.
    public static func distance(after seconds: Double, velocity: Double) -> Double {
        guard seconds > 0 else { return 0 }
        return velocity / 1_000 * (1 - pow(decelerationRate, seconds * 1_000)) / decayPerMillisecond
    }

    /// How long after release the fling has travelled `distance` (same sign
    /// as the velocity), or `nil` if it comes to rest first.
    ///
    /// - Complexity: O(1).
    public static func time(toTravel distance: Double, velocity: Double) -> Double? {
        guard distance > 0 else { return distance == 0 ? 0 : nil }
        let speed = abs(velocity)
        guard speed > 0 else { return nil }
        let fraction = 1 - distance * decayPerMillisecond * 1_000 / speed
        guard fraction > 0 else { return nil }
        return log(fraction) / log(decelerationRate) / 1_000
    }

    /// How long an animated scroll takes: UIKit's scroll to the top, and a
    /// `setContentOffset(_:animated: true)`, take about 0.3 s.
    package static let animatedScrollDuration = 0.3

    /// The share of its way an animated scroll lasting `duration` has
    /// covered after `elapsed` (in any one unit; clamped to the animation):
    /// eased in and out, as UIKit's are.
    package static func animatedScrollProgress(elapsed: Double, duration: Double) -> Double {
        guard duration > 0 else { return 1 }
        return 0.5 - 0.5 * cos(Double.pi * min(max(elapsed, 0), duration) / duration)
    }

    /// Seconds until a fling has covered `fraction` (below 1) of its way:
    /// the same for every speed, since the velocity decays exponentially.
    static func time(toCover fraction: Double) -> Double {
        log(1 - fraction) / log(decelerationRate) / 1_000
    }
}
