// The adaptive policy ends a motion where the app announced it lands: an
// animated scroll's speed projects no requests past its target, and the frame
// that reaches the target rests.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct AnnouncedArrivalTests {
    let viewport = Size(width: 390, height: 844)
    let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 2_000)
    let frameDuration = Duration.seconds(1) / 60

    /// One frame of an animated scroll, as an app drives the planner.
    struct Step {
        var offset: Double
        var target: Double?
    }

    /// Frames at rest before and after the animation.
    let restFrames = 30

    /// A rest at `from`, an animated scroll eased to `to` over 0.3 s (18
    /// frames) whose target is announced on every frame but the one that
    /// reaches it (as `AnnouncedLandings` and UIKit tell it), then a rest at `to`.
    func animatedScroll(from: Double, to: Double) -> [Step] {
        let frames = 18
        var steps = Array(repeating: Step(offset: from), count: restFrames)
        for frame in 1...frames {
            let progress = 0.5 - 0.5 * cos(Double.pi * Double(frame) / Double(frames))
            steps.append(Step(offset: from + (to - from) * progress, target: frame < frames ? to : nil))
        }
        steps += Array(repeating: Step(offset: to), count: restFrames)
        return steps
    }

    /// The items the planner asks for over `steps`, each with the frame it was asked on.
    func requests(over steps: [Step]) -> [(frame: Int, path: ItemPath)] {
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        var asked: [(Int, ItemPath)] = []
        var previous = steps[0].offset
        for (index, step) in steps.enumerated() {
            let velocity = (step.offset - previous) / (frameDuration / .seconds(1))
            previous = step.offset
            let update = planner.update(
                ScrollFrame(
                    visibleRect: Rect(origin: Point(x: 0, y: step.offset), size: viewport), velocity: velocity,
                    time: frameDuration * index, targetOffset: step.target.map { Point(x: 0, y: $0) }))
            asked += update.prefetch.map { (index, $0) }
        }
        return asked
    }

    @Test(arguments: [(3_000.0, 100_000.0), (100_000.0, 3_000.0), (40_000.0, 44_000.0)])
    func anAnimatedScrollAsksForNothingPastItsTargetsWindow(from: Double, to: Double) {
        // Given an animated scroll announced to land at `to`
        let steps = animatedScroll(from: from, to: to)
        let arrival = steps.firstIndex { $0.offset == to } ?? steps.count

        // When the planner follows it and rests there
        let asked = requests(over: steps).filter { $0.frame >= restFrames }

        // Then nothing asked for once it moved lies beyond the resting window
        // around the target: 2.5 screens ahead in its direction of travel, or
        // as far as the learned reach holds after so fast a gesture
        let screen = viewport.height
        let forward = to > from
        let policy = AdaptivePrefetchPolicy()
        let learned = policy.gestureReach.map {
            $0.screens(reachedBy: policy.reachProbability, ahead: true, afterGestureAt: .infinity)
        }
        let ahead = max(policy.restingLeadingScreens, learned ?? 0)
        let limit = forward ? to + screen + ahead * screen : to - ahead * screen
        let beyond = asked.filter {
            let frame = layout.frame(at: $0.path)
            return forward ? frame.minY >= limit : frame.maxY <= limit
        }
        #expect(
            beyond.isEmpty,
            "from \(from) to \(to): asked past the target's window on frames \(Set(beyond.map(\.frame)).sorted())")
        // And the target's own screen is asked for before it arrives
        let targetItems = layout.itemPaths(in: Rect(origin: Point(x: 0, y: to), size: viewport))
        let askedBeforeArrival = Set(asked.filter { $0.frame < arrival }.map(\.path))
        #expect(targetItems.allSatisfy { askedBeforeArrival.contains($0) })
    }

    @Test func theFrameThatReachesTheLandingRests() {
        // Given a list told on one frame that it lands 2,000 pt further
        var policy = AdaptivePrefetchPolicy()
        let from = 40_000.0
        let to = from + 2_000
        let moving = PrefetchContext(
            frame: ScrollFrame(
                visibleRect: Rect(origin: Point(x: 0, y: to - 200), size: viewport), velocity: 30_000,
                time: .zero, targetOffset: Point(x: 0, y: to)),
            visibleItems: layout.itemPaths(in: Rect(origin: Point(x: 0, y: to - 200), size: viewport)),
            direction: .forward, isFirstLayout: false)
        _ = policy.window(for: moving, layout: layout)

        // When the next frame reaches it, its last step still fast
        let visible = Rect(origin: Point(x: 0, y: to), size: viewport)
        let arrived = PrefetchContext(
            frame: ScrollFrame(visibleRect: visible, velocity: 12_000, time: frameDuration),
            visibleItems: layout.itemPaths(in: visible), direction: .forward, isFirstLayout: false)
        let window = policy.window(for: arrived, layout: layout)

        // Then it holds the resting window — 2.5 screens ahead, 1.5 behind — and
        // nothing the speed would project further
        let farthest = window.map { layout.frame(at: $0).minY }.max() ?? 0
        #expect(farthest < visible.maxY + 2.5 * viewport.height)
        #expect(window.contains { layout.frame(at: $0).maxY <= visible.minY })
    }
}
