import Testing

@testable import Lookahead

/// The adaptive policy in a fling: telling a coasting fling from other fast
/// motion, asking for the landing zone first, and leaving what the fling
/// passes by to low priority.
@Suite(.timeLimit(.minutes(1)))
struct AdaptiveFlingTests {
    let viewport = Size(width: 390, height: 844)
    let frameTime = Duration.nanoseconds(16_666_667)

    func list(rows: Int = 5_000) -> ListLayout {
        ListLayout(width: 390, rowHeight: 100, rowCount: rows)
    }

    func frame(offset: Double, velocity: Double, time: Duration) -> ScrollFrame {
        ScrollFrame(visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: velocity, time: time)
    }

    func context(
        _ layout: ListLayout, _ frame: ScrollFrame, queue: LoadQueueState = LoadQueueState()
    ) -> PrefetchContext {
        return PrefetchContext(
            frame: frame, visibleItems: layout.itemPaths(in: frame.visibleRect),
            direction: frame.velocity < 0 ? .backward : .forward, isFirstLayout: false, loadQueue: queue)
    }

    /// The frames of a fling released at `velocity` from `start`, as
    /// UIScrollView decelerates it.
    func fling(from start: Double, velocity: Double, frames: Int) -> [ScrollFrame] {
        (0..<frames).map { index in
            let seconds = Double(index) / 60
            return frame(
                offset: start + ScrollPhysics.distance(after: seconds, velocity: velocity),
                velocity: ScrollPhysics.velocity(after: seconds, velocity: velocity), time: frameTime * index)
        }
    }

    /// A policy that has seen loads of about `typical`.
    func policy(typical: Duration = .milliseconds(120)) -> AdaptivePrefetchPolicy {
        var policy = AdaptivePrefetchPolicy()
        for _ in 0..<50 { policy.observeLoadDuration(typical) }
        return policy
    }

    @Test func aFlingUnderUIScrollViewsDecelerationCoasts() {
        let layout = list()
        var policy = policy()
        let frames = fling(from: 20_000, velocity: 8_000, frames: 20)
        var coasting: [Bool] = []
        for frame in frames {
            _ = policy.window(for: context(layout, frame), layout: layout)
            coasting.append(policy.isCoasting)
        }
        // The first frame has nothing to compare with; every later one coasts.
        #expect(coasting == [false] + Array(repeating: true, count: 19))
    }

    @Test func anAcceleratingOrHardBrakingMotionDoesNotCoast() {
        let layout = list()
        // A finger speeding up, then an animated scroll braking far harder than a fling.
        for velocities in [[3_000.0, 4_000, 5_000, 6_000], [40_000.0, 30_000, 20_000, 10_000]] {
            var policy = policy()
            var offset = 20_000.0
            for (index, velocity) in velocities.enumerated() {
                offset += velocity / 60
                _ = policy.window(
                    for: context(layout, frame(offset: offset, velocity: velocity, time: frameTime * index)),
                    layout: layout)
                #expect(!policy.isCoasting, "velocities \(velocities), frame \(index)")
            }
        }
    }

    @Test func theLandingZoneIsAskedForFirstHoweverFar() throws {
        // Given a fast fling: 15,000 pt/s lands ~7,500 pt away, beyond the 6-screen reach
        let layout = list()
        var policy = policy()
        let frames = fling(from: 20_000, velocity: 15_000, frames: 2)
        _ = policy.window(for: context(layout, frames[0]), layout: layout)

        // When the policy plans the second, coasting, frame
        let window = policy.window(for: context(layout, frames[1]), layout: layout)

        // Then the window opens with the items where the fling comes to rest
        let landing = 20_000 + ScrollPhysics.projectedDistance(velocity: 15_000)
        let restingRect = Rect(x: 0, y: landing, width: 390, height: 844)
        let first = try #require(window.first)
        #expect(layout.frame(at: first).intersects(Rect(x: 0, y: landing - 844 / 4, width: 390, height: 844 * 1.5)))
        let landed = Set(layout.itemPaths(in: restingRect))
        #expect(landed.isSubset(of: Set(window.prefix(landed.count + 6))))
        #expect(landing - frames[1].visibleRect.maxY > policy.maxReachScreens * 844)
    }

    @Test func whatTheFlingPassesByIsNeitherAskedForNorShownFirst() {
        // Given a coasting fling at 8,000 pt/s and loads of 120 ms
        let layout = list()
        var policy = policy()
        let frames = fling(from: 20_000, velocity: 8_000, frames: 2)
        _ = policy.window(for: context(layout, frames[0]), layout: layout)
        let now = context(layout, frames[1])
        let window = Set(policy.window(for: now, layout: layout))

        // Then the row just below the screen, gone in well under 120 ms, is not asked for
        let visible = frames[1].visibleRect
        let next = layout.itemPaths(in: Rect(x: 0, y: visible.maxY + 1, width: 390, height: 1))
        #expect(!next.isEmpty)
        #expect(window.isDisjoint(with: next))

        // And a visible row about to leave asks at low priority; at rest it asks high
        let leaving = layout.itemPaths(in: Rect(x: 0, y: visible.minY, width: 390, height: 1))
        for path in leaving {
            #expect(policy.displayPriority(for: path, context: now, layout: layout) == .low)
        }
        let resting = context(layout, frame(offset: 20_000, velocity: 0, time: .seconds(5)))
        _ = policy.window(for: resting, layout: layout)
        for path in resting.visibleItems {
            #expect(policy.displayPriority(for: path, context: resting, layout: layout) == .high)
        }
    }

    @Test func slowLoadsMakeMoreOfTheFlingPassBy() {
        // The same fling, with loads of 50 ms and of 600 ms
        let layout = list()
        func asked(typical: Duration) -> Int {
            var policy = policy(typical: typical)
            let frames = fling(from: 20_000, velocity: 6_000, frames: 2)
            _ = policy.window(for: context(layout, frames[0]), layout: layout)
            let window = policy.window(for: context(layout, frames[1]), layout: layout)
            // Items between the screen and the landing zone.
            let landing = 20_000 + ScrollPhysics.projectedDistance(velocity: 6_000) - 844 / 4
            return window.filter { layout.frame(at: $0).maxY < landing }.count
        }
        #expect(asked(typical: .milliseconds(50)) > asked(typical: .milliseconds(600)))
    }

    @Test func thePlannerForwardsDisplayPriorities() {
        let layout = list()
        var planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        let first = ItemPath(item: 200, section: 0)
        // Before any frame, and for the fixed policies, a visible cell asks high.
        #expect(planner.displayPriority(for: first) == .high)
        for duration in 0..<50 { planner.observeLoadDuration(.milliseconds(100 + duration % 3)) }
        for frame in fling(from: 20_000, velocity: 8_000, frames: 3) { _ = planner.update(frame) }
        let top = planner.visibleItems[0]
        #expect(planner.displayPriority(for: top) == .low)
        // A path beyond the layout is not an error.
        #expect(planner.displayPriority(for: ItemPath(item: 9_999_999, section: 0)) == .high)

        var fixed = PrefetchPlanner(layout: layout, policy: .system)
        for frame in fling(from: 20_000, velocity: 8_000, frames: 3) { _ = fixed.update(frame) }
        #expect(fixed.displayPriority(for: fixed.visibleItems[0]) == .high)
    }
}
