import Testing

@testable import Lookahead

/// The landing zone from the app: a fling announced by its target offset
/// (`scrollViewWillEndDragging`) is planned for on the frame that announces it.
@Suite(.timeLimit(.minutes(1)))
struct LandingZoneTests {
    let viewport = Size(width: 390, height: 844)
    let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 5_000)

    func frame(offset: Double, velocity: Double, target: Double? = nil) -> ScrollFrame {
        ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: velocity,
            time: .milliseconds(500), targetOffset: target.map { Point(x: 0, y: $0) })
    }

    /// A planner past its first layout, at rest at `offset`, that has seen loads of 120 ms.
    func planner(at offset: Double) -> PrefetchPlanner {
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        for _ in 0..<50 { planner.observeLoadDuration(.milliseconds(120)) }
        _ = planner.update(
            ScrollFrame(visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), time: .zero))
        return planner
    }

    @Test func anAnnouncedFlingAsksForItsLandingZoneOnThatVeryFrame() {
        // Given a list at rest, and a drag that ends in a fling far beyond the reach of any window
        let target = 40_000.0
        var planner = planner(at: 20_000)
        // When the drag's end announces the target, on the first moving frame
        let update = planner.update(frame(offset: 20_100, velocity: 15_000, target: target))
        // Then the landing zone comes first in that frame's prefetches
        let landing = Set(layout.itemPaths(in: Rect(x: 0, y: target, width: 390, height: 844)))
        let zone = Rect(x: 0, y: target - 844 / 4, width: 390, height: 844 * 1.5)
        let first = update.prefetch.first.map { layout.frame(at: $0) }
        #expect(first?.intersects(zone) == true, "first prefetch at \(String(describing: first))")
        #expect(landing.isSubset(of: Set(update.prefetch)))
    }

    @Test func withoutAnAnnouncementTheFirstMovingFrameDoesNotGuess() {
        // Given the same list and motion, with no target announced
        let target = 40_000.0
        var planner = planner(at: 20_000)
        // When the first moving frame is planned
        let update = planner.update(frame(offset: 20_100, velocity: 15_000))
        // Then nothing near the landing is asked for yet: one frame cannot tell a fling from a drag
        let landing = Set(layout.itemPaths(in: Rect(x: 0, y: target, width: 390, height: 844)))
        #expect(landing.isDisjoint(with: Set(update.prefetch)))
    }

    @Test func theAnnouncedTargetWinsOverThePhysicsProjection() {
        // Given a fling whose app-adjusted target (paging, snapping) is short of the physics' projection
        let projected = 20_100 + ScrollPhysics.projectedDistance(velocity: 15_000)
        let target = 26_000.0
        var planner = planner(at: 20_000)
        // When it is announced
        let update = planner.update(frame(offset: 20_100, velocity: 15_000, target: target))
        // Then the target's items are asked for first, and not the projection's
        let announced = Set(layout.itemPaths(in: Rect(x: 0, y: target, width: 390, height: 844)))
        let physics = Set(layout.itemPaths(in: Rect(x: 0, y: projected, width: 390, height: 844)))
        #expect(announced.isSubset(of: Set(update.prefetch.prefix(announced.count + 8))))
        #expect(physics.isDisjoint(with: Set(update.prefetch)))
    }
}
