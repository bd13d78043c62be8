#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(ucrt)
import ucrt
#endif

/// A fling that decelerates as UIScrollView's does at its normal
/// deceleration rate.
///
/// UIScrollView multiplies the velocity by `decelerationRate` (0.998, its
/// `.normal` rate) every millisecond. With the release velocity v₀ in pt/s
/// and t in ms:
///
/// - velocity: v(t) = v₀ · 0.998^t
/// - offset travelled: x(t) = v₀/1000 · (1 − 0.998^t) / (−ln 0.998)
///
/// x(t) tends to v₀/1000 / (−ln 0.998) ≈ 0.4995 · v₀, the continuous form of
/// the per-millisecond sum Σₖ≥₁ v₀/1000 · 0.998ᵏ = v₀ · 0.998 / (1 − 0.998) / 1000
/// = 0.499 · v₀ that is quoted as a fling's projected distance (WWDC 2018,
/// "Designing Fluid Interfaces"); the two differ by 0.1 %. The fling stops
/// once its speed falls below `stopSpeed` (20 pt/s), which leaves off a tail
/// of about 20 · 0.4995 ≈ 10 pt: a fling from v₀ travels about 0.499 · v₀ − 10 pt.
struct TraceFling: Hashable, Sendable {
    /// UIScrollView's normal deceleration rate: the velocity kept per millisecond.
    static let decelerationRate = 0.998
    /// Below this speed, in pt/s, the fling is over (UIScrollView stops at a
    /// similarly small speed rather than creeping on forever).
    static let stopSpeed = 20.0

    /// The release velocity in pt/s; positive down the content.
    var velocity: Double

    /// The distance a fling from `velocity` travels before it comes to rest,
    /// as UIKit projects it: `velocity · 0.998 / (1 − 0.998) / 1000` = 0.499 · velocity.
    static func projectedDistance(velocity: Double) -> Double {
        velocity * decelerationRate / (1 - decelerationRate) / 1000
    }

    /// The release velocity of a fling that travels `distance` (signed),
    /// the inverse of ``distance(afterMilliseconds:)`` at rest.
    static func velocity(travelling distance: Double) -> Double {
        distance * 1_000 * -log(decelerationRate)
    }

    /// The velocity `milliseconds` after the release.
    func velocity(afterMilliseconds milliseconds: Double) -> Double {
        velocity * pow(Self.decelerationRate, milliseconds)
    }

    /// The offset travelled `milliseconds` after the release, signed like the velocity.
    func distance(afterMilliseconds milliseconds: Double) -> Double {
        velocity / 1000 * (1 - pow(Self.decelerationRate, milliseconds)) / -log(Self.decelerationRate)
    }

    /// Whether the fling is still moving `milliseconds` after the release.
    func isMoving(afterMilliseconds milliseconds: Double) -> Bool {
        abs(velocity(afterMilliseconds: milliseconds)) >= Self.stopSpeed
    }
}
