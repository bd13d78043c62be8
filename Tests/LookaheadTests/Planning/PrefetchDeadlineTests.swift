import Testing

@testable import Lookahead

/// ``PrefetchPlanner/deadlines``: when the adaptive policy predicts each
/// item of its window is needed — ahead of a moving list at its predicted
/// appearance, in a fling's landing zone as the fling brings it in, at once
/// for an animated scroll's target — and nothing for what the window keeps
/// only by hysteresis, nor for policies that predict nothing.
@Suite(.timeLimit(.minutes(1)))
struct PrefetchDeadlineTests {
    let viewport = Size(width: 390, height: 844)
    let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 2_000)
    static let frame = Duration.nanoseconds(16_666_667)

    /// A planner after `frames` frames of a steady drag at `speed` pt/s from `start`.
    func dragged(_ planner: inout PrefetchPlanner, from start: Double, speed: Double, frames: Int) -> ScrollFrame {
        var last = ScrollFrame(visibleRect: .zero)
        for index in 0...frames {
            let time = Self.frame * index
            let rect = Rect(origin: Point(x: 0, y: start + speed * time.seconds), size: viewport)
            last = ScrollFrame(visibleRect: rect, velocity: speed, time: time)
            _ = planner.update(last)
        }
        return last
    }

    @Test func itemsAheadOfADragAreDueWhenTheyAppear() {
        // Given a list dragged at 600 pt/s for half a second
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        let frame = dragged(&planner, from: 20_000, speed: 600, frames: 30)
        let visible = frame.visibleRect

        // Then each item ahead is due when the drag brings its top into view
        let ahead = planner.deadlines.filter { layout.frame(at: $0.path).minY >= visible.maxY }
        #expect(ahead.count >= 5)
        for (path, deadline) in ahead {
            let appears = (layout.frame(at: path).minY - visible.maxY) / 600
            #expect(abs((deadline - frame.time).seconds - appears) < 0.005, "\(path)")
        }
        // And they come nearest first
        #expect(ahead.map(\.time) == ahead.map(\.time).sorted())
        // And every dated item is one the planner holds prefetched
        #expect(Set(planner.deadlines.map(\.path)).isSubset(of: planner.prefetched))
    }

    @Test func aFlingsLandingZoneIsDueAsTheFlingBringsItInNotAtOnce() {
        // Given a list at rest
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        let start = Rect(origin: Point(x: 0, y: 20_000), size: viewport)
        _ = planner.update(ScrollFrame(visibleRect: start))
        // When a fling at 9,000 pt/s is released, announcing where it lands
        let speed = 9_000.0
        let target = 20_000 + ScrollPhysics.projectedDistance(velocity: speed)
        let rect = Rect(origin: Point(x: 0, y: 20_010), size: viewport)
        let release = ScrollFrame(
            visibleRect: rect, velocity: speed, time: Self.frame, targetOffset: Point(x: 0, y: target))
        _ = planner.update(release)

        // Then the items where it lands are dated by the deceleration: when each enters the viewport
        let landing = planner.deadlines.filter { layout.frame(at: $0.path).minY >= target - 844 / 4 }
        #expect(landing.count >= 8)
        for (path, deadline) in landing {
            let distance = layout.frame(at: path).minY - rect.maxY
            let due = (deadline - release.time).seconds
            if let enters = ScrollPhysics.time(toTravel: distance, velocity: speed) {
                #expect(abs(due - enters) < 1e-6, "\(path)")
            } else {
                // Past where the physics stops: when the fling has all but come to rest
                #expect(abs(due - ScrollPhysics.time(toCover: 0.95)) < 1e-6, "\(path)")
            }
            #expect(due > 0.3, "\(path) is due \(due) s after the release")
        }
    }

    @Test func anAnimatedScrollsTargetIsDueAtOnce() {
        // Given a list at rest, then an animated scroll to a far target, announced, moving slower than a fling
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        _ = planner.update(ScrollFrame(visibleRect: Rect(origin: Point(x: 0, y: 1_000), size: viewport)))
        let frame = ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: 1_020), size: viewport), velocity: 800, time: Self.frame,
            targetOffset: Point(x: 0, y: 90_000))
        _ = planner.update(frame)

        // Then what is at the target is due on this very frame
        let landing = planner.deadlines.filter { layout.frame(at: $0.path).minY >= 80_000 }
        #expect(!landing.isEmpty)
        #expect(landing.allSatisfy { $0.time == frame.time })
    }

    @Test func whatTheWindowKeepsByHysteresisKeepsItsDate() {
        // Given a list dragged forward, then back, slowly: what was ahead stays held by hysteresis
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        let forward = dragged(&planner, from: 20_000, speed: 600, frames: 30)
        let datedAhead = Set(planner.deadlines.map(\.path))
        var time = forward.time
        var y = forward.visibleRect.minY
        for _ in 0..<6 {
            time += Self.frame
            y -= 10
            _ = planner.update(
                ScrollFrame(visibleRect: Rect(origin: Point(x: 0, y: y), size: viewport), velocity: -600, time: time))
        }
        // Then items still held from before, no longer in the fresh window, have no new date
        let visibleBottom = y + viewport.height
        let keptAhead = planner.prefetched.filter { layout.frame(at: $0).minY >= visibleBottom + 100 }
        let dated = Set(planner.deadlines.map(\.path))
        #expect(!keptAhead.isEmpty)
        #expect(!keptAhead.isSubset(of: dated))
        #expect(keptAhead.isSubset(of: datedAhead.union(dated)))
        #expect(dated.isSubset(of: planner.prefetched))
    }

    @Test func policiesThatPredictNothingDateNothing() {
        for policy in [PrefetchPolicy.system, .screens()] {
            var planner = PrefetchPlanner(layout: layout, policy: policy)
            _ = dragged(&planner, from: 20_000, speed: 600, frames: 10)
            #expect(!planner.prefetched.isEmpty)
            #expect(planner.deadlines.isEmpty)
        }
        // And a planner turned off dates nothing
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        _ = dragged(&planner, from: 20_000, speed: 600, frames: 10)
        _ = planner.setEnabled(false)
        #expect(planner.deadlines.isEmpty)
    }
}
