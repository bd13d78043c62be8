import Testing

@testable import Lookahead

/// ``ScrollTracker``: the velocity between reports, and an announced target
/// kept on the frames of the motion it announced.
@Suite(.timeLimit(.minutes(1)))
struct ScrollTrackerTests {
    let viewport = Size(width: 390, height: 844)
    static let frameTime = Duration.nanoseconds(16_666_667)

    func report(_ tracker: inout ScrollTracker, y: Double, frame: Int) -> ScrollFrame? {
        tracker.frame(contentOffset: Point(x: 0, y: y), viewportSize: viewport, time: Self.frameTime * frame)
    }

    @Test func anAnimatedScrollsTargetIsKeptUntilItEndsAndItsVelocityIsMeasured() throws {
        // Given a list at rest at 5,000
        var tracker = ScrollTracker()
        _ = report(&tracker, y: 5_000, frame: 0)
        // When the app announces an animated scroll to the top, before it moves
        let announcing = tracker.frameAnnouncing(
            target: .zero, contentOffset: Point(x: 0, y: 5_000), viewportSize: viewport, time: Self.frameTime)
        let announced = try #require(announcing)
        // Then that frame carries the target, at rest (no velocity is reported for an animated scroll)
        #expect(announced.targetOffset == .zero)
        #expect(announced.velocity == 0)
        // And the animation's frames carry it too, with the velocity measured between them
        let next = report(&tracker, y: 4_000, frame: 2)
        let moving = try #require(next)
        #expect(moving.targetOffset == .zero)
        #expect(abs(moving.velocity - -1_000 / (Self.frameTime / .seconds(1))) < 1e-6)
        // And once the animation has ended, frames carry none
        tracker.endFling()
        let arrived = report(&tracker, y: 0, frame: 3)
        #expect(arrived != nil && arrived?.targetOffset == nil)
    }

    @Test func aDragsEndReportsItsVelocityAndANonFiniteTargetIsDropped() throws {
        // Given a list being dragged
        var tracker = ScrollTracker()
        _ = report(&tracker, y: 1_000, frame: 0)
        // When the drag ends with UIKit's velocity and target
        let releasing = tracker.frameAnnouncing(
            target: Point(x: 0, y: 9_000), contentOffset: Point(x: 0, y: 1_010), viewportSize: viewport,
            time: Self.frameTime, velocity: 12_000)
        let released = try #require(releasing)
        // Then the frame has the reported velocity, not the measured 600 pt/s, and the target
        #expect(released.velocity == 12_000)
        #expect(released.targetOffset == Point(x: 0, y: 9_000))
        // And a target that is not a number announces nothing
        let breaking = tracker.frameAnnouncing(
            target: Point(x: 0, y: .nan), contentOffset: Point(x: 0, y: 1_200), viewportSize: viewport,
            time: Self.frameTime * 2)
        let broken = try #require(breaking)
        #expect(broken.targetOffset == nil)
    }

    @Test func aTargetAnnouncedWithoutAReportIsCarriedFromTheNextReportOn() throws {
        // Given a list at rest at 5,000
        var tracker = ScrollTracker()
        _ = report(&tracker, y: 5_000, frame: 0)
        // When the app announces an animated scroll to the top, with no report of its own
        tracker.announceAtNextReport(target: .zero)
        #expect(tracker.hasPendingTarget)
        // Then a report the planner cannot use leaves it pending
        let unusable = tracker.frame(
            contentOffset: Point(x: 0, y: .nan), viewportSize: viewport, time: Self.frameTime)
        #expect(unusable == nil && tracker.hasPendingTarget)
        // And the next report carries it, announced once, and the frames after it too
        let first = try #require(report(&tracker, y: 4_900, frame: 2))
        #expect(first.targetOffset == .zero)
        #expect(!tracker.hasPendingTarget)
        let second = try #require(report(&tracker, y: 4_000, frame: 3))
        #expect(second.targetOffset == .zero)
        // And the end of the motion drops it
        tracker.endFling()
        #expect(report(&tracker, y: 0, frame: 4)?.targetOffset == nil)
        // And a target that is not a number is not announced; the end of a motion drops a pending one
        tracker.announceAtNextReport(target: Point(x: 0, y: .infinity))
        #expect(!tracker.hasPendingTarget && report(&tracker, y: 0, frame: 5)?.targetOffset == nil)
        tracker.announceAtNextReport(target: Point(x: 0, y: 3_000))
        tracker.endFling()
        #expect(!tracker.hasPendingTarget && report(&tracker, y: 0, frame: 6)?.targetOffset == nil)
    }

    /// A fling measured at 8,000 pt/s over five frames, then a deceleration
    /// reported with `velocity` on the sixth.
    func decelerate(reporting velocity: Double, measuredSpeed: Double = 8_000) -> ScrollFrame? {
        var tracker = ScrollTracker()
        let step = measuredSpeed * (Self.frameTime / .seconds(1))
        for frame in 0..<5 { _ = report(&tracker, y: 1_000 + step * Double(frame), frame: frame) }
        return tracker.frameDecelerating(
            velocity: velocity, contentOffset: Point(x: 0, y: 1_000 + step * 5), viewportSize: viewport,
            maxOffset: 100_000, time: Self.frameTime * 5)
    }

    @Test(arguments: [8.0, -8_000, 0, 80_000])
    func aDecelerationsVelocityThatContradictsTheMotionGivesWayToTheMeasuredOne(reported: Double) throws {
        // Given a fling measured at 8,000 pt/s
        // When SwiftUI reports its deceleration with a velocity in another unit, or the other way round
        let frame = try #require(decelerate(reporting: reported))
        // Then the measured velocity stands, and the target is where it takes the fling
        #expect(abs(frame.velocity - 8_000) < 1e-6)
        let target = try #require(frame.targetOffset)
        let offset = frame.visibleRect.minY
        #expect(abs(target.y - (offset + ScrollPhysics.projectedDistance(velocity: 8_000))) < 1e-6)
    }

    @Test func aPlausibleReportedVelocityStandsAndTheTargetIsClamped() throws {
        // Given a fling measured at 8,000 pt/s, released at 12,000 (UIKit's release velocity is smoothed)
        let released = try #require(decelerate(reporting: 12_000))
        // Then the report stands
        #expect(released.velocity == 12_000)
        #expect(
            released.targetOffset?.y == released.visibleRect.minY + ScrollPhysics.projectedDistance(velocity: 12_000))
        // And at rest there is nothing to check it against
        let resting = try #require(decelerate(reporting: 2, measuredSpeed: 0))
        #expect(resting.velocity == 2)
        // And a target past either end of the content is clamped to it (fresh trackers: nothing measured)
        var tracker = ScrollTracker()
        let up = tracker.frameDecelerating(
            velocity: -5_000, contentOffset: Point(x: 0, y: 300), viewportSize: viewport, maxOffset: 10_000,
            time: .zero)
        #expect(up?.targetOffset?.y == 0)
        tracker = ScrollTracker()
        let down = tracker.frameDecelerating(
            velocity: 5_000, contentOffset: Point(x: 0, y: 9_900), viewportSize: viewport, maxOffset: 10_000,
            time: .zero)
        #expect(down?.targetOffset?.y == 10_000)
        // And a velocity that is not a number announces nothing
        #expect(
            tracker.frameDecelerating(
                velocity: .nan, contentOffset: Point(x: 0, y: 300), viewportSize: viewport, maxOffset: 10_000,
                time: .zero) == nil)
    }
}
