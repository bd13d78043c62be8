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
}
