import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct AdaptivePrefetchPolicyTests {
    let viewport = Size(width: 390, height: 844)

    @Test func aFlingComesToRestAtItsProjectedDistance() {
        // 0.499·v, and the closed form of the distance at a few times
        for velocity in [500.0, 3_000, 8_000] {
            #expect(abs(ScrollPhysics.projectedDistance(velocity: velocity) - 0.499 * velocity) < 1e-9)
            let k = -log(0.998)
            for milliseconds in [16.0, 100, 500, 2_000] {
                let expected = velocity / 1_000 * (1 - pow(0.998, milliseconds)) / k
                #expect(abs(ScrollPhysics.distance(after: milliseconds / 1_000, velocity: velocity) - expected) < 1e-9)
            }
            // After ten seconds it has all but stopped, just short of the projection.
            let far = ScrollPhysics.distance(after: 10, velocity: velocity)
            #expect(far < ScrollPhysics.projectedDistance(velocity: velocity) * 1.002)
            #expect(far > ScrollPhysics.projectedDistance(velocity: velocity) * 0.99)
        }
    }

    @Test func theTimeToTravelInvertsTheDistance() {
        for velocity in [800.0, 6_000] {
            for seconds in [0.05, 0.3, 1.2] {
                let distance = ScrollPhysics.distance(after: seconds, velocity: velocity)
                let time = ScrollPhysics.time(toTravel: distance, velocity: velocity)
                #expect(time.map { abs($0 - seconds) < 1e-9 } == true)
            }
            // Beyond where the fling stops, an item never appears.
            #expect(ScrollPhysics.time(toTravel: 0.5 * velocity, velocity: velocity) == nil)
        }
    }

    @Test func theEstimatorConvergesOnAKnownDistribution() {
        // Given durations uniform over 100…1,099 ms, shuffled with a seed
        var random = SeededRandom(seed: 0xE57)
        var estimator = LoadDurationEstimator(quantile: 0.9, prior: .milliseconds(300), capacity: 1_000)
        #expect(estimator.estimate == .milliseconds(300))
        var durations = (0..<1_000).map { Duration.milliseconds(100 + $0) }
        durations.shuffle(using: &random)
        for duration in durations { estimator.record(duration) }

        // Then its 90th percentile is the 900th smallest: 999 ms
        #expect(estimator.estimate == .milliseconds(999), "seed 0xE57")

        // And it follows a change: after 1,000 loads of 50 ms, the old ones are forgotten
        for _ in 0..<1_000 { estimator.record(.milliseconds(50)) }
        #expect(estimator.estimate == .milliseconds(50))
    }

    func list(rows: Int = 2_000) -> ListLayout {
        ListLayout(width: 390, rowHeight: 100, rowCount: rows)
    }

    func context(
        _ layout: ListLayout, offset: Double, velocity: Double, queue: LoadQueueState = LoadQueueState()
    )
        -> PrefetchContext
    {
        let rect = Rect(origin: Point(x: 0, y: offset), size: viewport)
        return PrefetchContext(
            frame: ScrollFrame(visibleRect: rect, velocity: velocity), visibleItems: layout.itemPaths(in: rect),
            direction: velocity < 0 ? .backward : .forward, isFirstLayout: false, loadQueue: queue)
    }

    @Test func itemsAreOrderedByPredictedAppearanceAndNothingVisibleIsAsked() {
        let layout = list()
        var policy = AdaptivePrefetchPolicy()
        let context = context(layout, offset: 50_000, velocity: 900)
        let window = policy.window(for: context, layout: layout)
        #expect(!window.isEmpty)
        #expect(Set(window).isDisjoint(with: context.visibleItems))
        let ahead = window.filter { layout.frame(at: $0).minY >= 50_844 }
        #expect(ahead.map(\.item) == ahead.map(\.item).sorted())
    }

    @Test func slowerLoadsAndLongerQueuesReachFurtherAhead() {
        // Given the same motion
        let layout = list()
        var fast = AdaptivePrefetchPolicy()
        for _ in 0..<50 { fast.observeLoadDuration(.milliseconds(50)) }
        var slow = AdaptivePrefetchPolicy()
        for _ in 0..<50 { slow.observeLoadDuration(.milliseconds(900)) }

        // When each plans a frame of a fling at 8,000 pt/s
        let quick = fast.window(for: context(layout, offset: 50_000, velocity: 8_000), layout: layout)
        let patient = slow.window(for: context(layout, offset: 50_000, velocity: 8_000), layout: layout)
        var queued = AdaptivePrefetchPolicy()
        for _ in 0..<50 { queued.observeLoadDuration(.milliseconds(900)) }
        let busy = queued.window(
            for: context(
                layout, offset: 50_000, velocity: 8_000, queue: LoadQueueState(pending: 12, maxConcurrentLoads: 6)),
            layout: layout)

        // Then the slower the loads and the longer the queue, the further it asks
        #expect(quick.count < patient.count)
        #expect(patient.count < busy.count)
    }

    @Test func aWobbleCausesNoCancelAndRestartChurn() {
        // Given a planner scrolling down steadily with the adaptive policy
        let layout = list()
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        var offset = 40_000.0
        for frame in 0..<60 {
            offset += 10
            _ = planner.update(
                ScrollFrame(
                    visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: 600,
                    time: .milliseconds(frame * 16)))
        }

        // When the direction wobbles for a few frames (up 2 pt, down 2 pt)
        var cancelled: [ItemPath] = []
        var asked: [ItemPath] = []
        for frame in 60..<80 {
            offset += frame.isMultiple(of: 2) ? -2 : 2
            let update = planner.update(
                ScrollFrame(
                    visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport),
                    velocity: frame.isMultiple(of: 2) ? -120 : 120, time: .milliseconds(frame * 16)))
            cancelled += update.cancel
            asked += update.prefetch
        }

        // Then nothing it had asked for ahead is cancelled and asked for again
        #expect(Set(cancelled).isDisjoint(with: Set(asked)))
        #expect(cancelled.filter { layout.frame(at: $0).minY >= offset + 844 }.isEmpty)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func visibleItemsOutOfOrderPlanAsInOrder(seed: UInt64) {
        // Given two policies fed the same frames — a drag, an announced fling, a rest —
        // one with the visible items ascending, the other with them shuffled
        let layout = list()
        var random = SeededRandom(seed: seed)
        var ordered = AdaptivePrefetchPolicy()
        var shuffled = AdaptivePrefetchPolicy()
        var offset = 40_000.0
        for frame in 0..<90 {
            let velocity: Double = frame < 30 ? 600 : frame < 60 ? 6_000 - Double(frame - 30) * 150 : 0
            offset += velocity / 60
            let rect = Rect(origin: Point(x: 0, y: offset), size: viewport)
            let scrollFrame = ScrollFrame(
                visibleRect: rect, velocity: velocity, time: .milliseconds(frame * 16),
                targetOffset: frame == 30 ? Point(x: 0, y: offset + 3_000) : nil)
            let visible = layout.itemPaths(in: rect)
            let inOrder = PrefetchContext(
                frame: scrollFrame, visibleItems: visible, direction: .forward, isFirstLayout: frame == 0)
            var outOfOrder = inOrder
            outOfOrder.visibleItems = visible.shuffled(using: &random)

            // When each plans the frame
            let expected = ordered.window(for: inOrder, layout: layout)
            let window = shuffled.window(for: outOfOrder, layout: layout)

            // Then both ask for the same items in the same order, none visible
            #expect(window == expected, "seed \(seed), frame \(frame)")
            #expect(Set(window).isDisjoint(with: visible), "seed \(seed), frame \(frame)")
        }
    }

    @Test func restingKeepsAWindowOnBothSidesWiderAhead() {
        // Given a fast reader: 24,000 pt in 6 s, then at rest (the resting
        // window of screens alone: the learned reach, which adds to it after
        // a hard fling, has tests of its own)
        let layout = list()
        var policy = AdaptivePrefetchPolicy(gestureReach: nil)
        for frame in 0...360 {
            var moving = context(layout, offset: 26_000 + Double(frame) * 24_000 / 360, velocity: 4_000)
            moving.frame.time = .milliseconds(frame * 6_000 / 360)
            _ = policy.window(for: moving, layout: layout)
        }
        // (far from where it moved, so that nothing held from the motion stays)
        var resting = context(layout, offset: 80_000, velocity: 0)
        resting.frame.time = .milliseconds(6_016)
        let window = policy.window(for: resting, layout: layout)

        // Then it holds the caps, wider ahead
        let frames = window.map { layout.frame(at: $0) }
        let behind = frames.filter { $0.maxY <= 80_000 }
        let ahead = frames.filter { $0.minY >= 80_844 }
        #expect(!behind.isEmpty && !ahead.isEmpty)
        #expect(ahead.count > behind.count)
        let visible = Rect(x: 0, y: 80_000, width: 390, height: 844)
        let leading = policy.restingLeadingScreens * 844
        let trailing = policy.restingTrailingScreens * 844
        #expect(ahead.allSatisfy { $0.verticalDistance(to: visible) <= leading })
        #expect(ahead.contains { $0.verticalDistance(to: visible) > leading - 100 })
        #expect(behind.allSatisfy { $0.verticalDistance(to: visible) <= trailing })
        #expect(behind.contains { $0.verticalDistance(to: visible) > trailing - 100 })
    }

    @Test func restingLoadsWhatLiesAheadBeforeWhatIsBehind() {
        // Given a reader who moved forward, now at rest
        let layout = list()
        func restingWindow(_ policy: inout AdaptivePrefetchPolicy) -> (window: [ItemPath], due: [Duration]) {
            for frame in 0...60 {
                var moving = context(layout, offset: 40_000 + Double(frame) * 10, velocity: 600)
                moving.frame.time = .milliseconds(frame * 16)
                _ = policy.window(for: moving, layout: layout)
            }
            var resting = context(layout, offset: 80_000, velocity: 0)
            resting.frame.time = .milliseconds(1_000)
            let window = policy.window(for: resting, layout: layout)
            return (window, policy.deadlines.map(\.time))
        }
        func distance(_ path: ItemPath) -> Double {
            layout.frame(at: path).verticalDistance(to: Rect(x: 0, y: 80_000, width: 390, height: 844))
        }
        func isAhead(_ path: ItemPath) -> Bool { layout.frame(at: path).minY >= 80_844 }

        // Then, by default, the items a screen ahead come before the items half a screen behind
        var policy = AdaptivePrefetchPolicy()
        #expect(policy.restingTrailingWeight == 3)
        let (window, due) = restingWindow(&policy)
        let screenAhead = window.firstIndex { isAhead($0) && distance($0) >= 844 }
        let halfBehind = window.firstIndex { !isAhead($0) && distance($0) >= 422 }
        #expect(screenAhead != nil && halfBehind != nil)
        #expect(screenAhead! < halfBehind!)
        // and are due first
        #expect(due[screenAhead!] < due[halfBehind!])
        // (the window behind is still held)
        #expect(window.contains { !isAhead($0) && distance($0) > 844 })

        // And with a weight of 1, nearest first on both sides: half a screen behind comes first
        var even = AdaptivePrefetchPolicy(restingTrailingWeight: 1)
        let (evenWindow, _) = restingWindow(&even)
        let evenAhead = evenWindow.firstIndex { isAhead($0) && distance($0) >= 844 }
        let evenBehind = evenWindow.firstIndex { !isAhead($0) && distance($0) >= 422 }
        #expect(evenBehind! < evenAhead!)
    }
}
