import Testing

@testable import Lookahead

/// The learned reach of the next gesture: fitted from a trace's offsets, and
/// used by the adaptive policy to size and order its resting window.
@Suite(.timeLimit(.minutes(1)))
struct GestureReachTests {
    /// A trace at 60 Hz: `cycles` times a rest of `rest`, then a move of
    /// `screens` screens (of 800 pt) in `move`, forward.
    static func trace(
        cycles: Int, rest: Duration, move: Duration, screens: Double, backEvery: Int = 0
    ) -> [(time: Duration, offset: Double)] {
        var samples: [(time: Duration, offset: Double)] = []
        var time = Duration.zero
        var offset = 100_000.0
        let frame = Duration.nanoseconds(16_666_667)
        for cycle in 0..<cycles {
            let restEnd = time + rest
            while time < restEnd {
                samples.append((time, offset))
                time += frame
            }
            let sign = backEvery > 0 && cycle % backEvery == backEvery - 1 ? -1.0 : 1.0
            let frames = Int(move / frame)
            let step = screens * 800 / Double(frames) * sign
            for _ in 0..<frames {
                offset += step
                samples.append((time, offset))
                time += frame
            }
        }
        return samples
    }

    @Test func aTraceOfRestsAndFlicksAheadIsFittedAsReachingAheadAndNeverBehind() {
        // Given rests of 2 s between flicks of 2.8 screens forward (5,600 pt/s)
        let samples = Self.trace(cycles: 40, rest: .seconds(2), move: .milliseconds(400), screens: 2.8)

        // When it is fitted over a horizon of 2 s
        let reach = GestureReach.fit(samples, screen: 800, horizon: .seconds(2))

        // Then the rests are those after a hard fling (but the first rest's, before any gesture)
        let flings = reach.table(afterGestureAt: 6_000)
        #expect(flings.rests > 100)
        #expect(reach.tables[0].rests <= 8)
        #expect(reach.tables[1].rests == 0 && reach.tables[2].rests == 0)
        // and their next gesture came within 2.8 screens ahead, no farther (the next flick is past the horizon)
        #expect(reach.share(ofReaching: 2.5, ahead: true, afterGestureAt: 6_000) > 0.95)
        #expect(reach.share(ofReaching: 3, ahead: true, afterGestureAt: 6_000) < 0.05)
        let half = reach.screens(reachedBy: 0.5, ahead: true, afterGestureAt: 6_000)
        #expect(half > 2.5 && half < 3)
        // And nothing behind
        #expect(reach.share(ofReaching: 0, ahead: false, afterGestureAt: 6_000) == 0)

        // And over a horizon of 3 s, the later rests reach into the flick after
        let longer = GestureReach.fit(samples, screen: 800, horizon: .seconds(3))
        let second = longer.share(ofReaching: 3.5, ahead: true, afterGestureAt: 6_000)
        #expect(second > 0.05 && second < 0.95)
    }

    @Test func aSlowReadersRestsAreTheSlowestBand() {
        // Given a reader who drags half a screen at 200 pt/s, resting 3 s between, one drag in four backward
        let samples = Self.trace(cycles: 60, rest: .seconds(3), move: .seconds(2), screens: 0.5, backEvery: 4)

        // When it is fitted
        let reach = GestureReach.fit(samples, screen: 800)

        // Then every rest is a reader's
        #expect(reach.tables[0].rests > 100)
        #expect(reach.tables.dropFirst().allSatisfy { $0.rests == 0 })
        // reaching under a screen, ahead more often than behind
        #expect(reach.share(ofReaching: 1, ahead: true, afterGestureAt: 200) == 0)
        let ahead = reach.share(ofReaching: 0.1, ahead: true, afterGestureAt: 200)
        let behind = reach.share(ofReaching: 0.1, ahead: false, afterGestureAt: 200)
        #expect(ahead > behind && behind > 0)
    }

    @Test func aRecordersSamplesAreFittedOnTheScreenItDescribes() {
        // Given a recorder of the flicks above
        var recorder = ScrollTraceRecorder()
        let samples = Self.trace(cycles: 20, rest: .seconds(1), move: .milliseconds(400), screens: 3)
        for sample in samples { recorder.record(offset: sample.offset, at: sample.time) }

        // Then it has no model until it knows its screen
        #expect(GestureReach.fit(recorder) == nil)
        // and then the one its samples give on that screen
        recorder.describe(viewport: Size(width: 390, height: 800), itemCount: 1_000)
        #expect(GestureReach.fit(recorder) == GestureReach.fit(samples, screen: 800))
    }

    @Test func tablesAreClampedNonIncreasingAndOfTheModelsLength() {
        let table = GestureReach.Table(ahead: [1.5, 0.4, 0.6, .nan, 0.2], behind: [], rests: -3)
        #expect(table.ahead.count == GestureReach.steps && table.behind.count == GestureReach.steps)
        #expect(Array(table.ahead.prefix(5)) == [1, 0.4, 0.4, 0, 0])
        #expect(table.behind.allSatisfy { $0 == 0 })
        #expect(table.rests == 0)
        // The distance a share reaches inverts the interpolated share
        let falling = GestureReach.Table(ahead: [1, 0.8, 0.6, 0.4, 0.2, 0], behind: [], rests: 1)
        let reach = GestureReach(horizon: .seconds(2), tables: [table, table, table, falling])
        for share in [0.9, 0.5, 0.3] {
            let screens = reach.screens(reachedBy: share, ahead: true, afterGestureAt: 5_000)
            #expect(abs(reach.share(ofReaching: screens, ahead: true, afterGestureAt: 5_000) - share) < 1e-9)
        }
        #expect(reach.screens(reachedBy: 0.5, ahead: false, afterGestureAt: 5_000) == 0)
        // Each peak speed reads its band's table
        #expect(reach.table(afterGestureAt: 599) == table && reach.table(afterGestureAt: 4_000) == falling)
    }

    // MARK: The policy

    let viewport = Size(width: 390, height: 844)

    func context(_ layout: ListLayout, offset: Double, velocity: Double, at time: Duration) -> PrefetchContext {
        let rect = Rect(origin: Point(x: 0, y: offset), size: viewport)
        var frame = ScrollFrame(visibleRect: rect, velocity: velocity)
        frame.time = time
        return PrefetchContext(
            frame: frame, visibleItems: layout.itemPaths(in: rect), direction: velocity < 0 ? .backward : .forward,
            isFirstLayout: false, loadQueue: LoadQueueState())
    }

    /// A policy's window at rest at 80,000 pt, after a fling forward.
    func restingWindow(_ policy: inout AdaptivePrefetchPolicy, layout: ListLayout) -> [ItemPath] {
        for frame in 0...30 {
            let moving = context(
                layout, offset: 70_000 + Double(frame) * 60, velocity: 3_600, at: .milliseconds(frame * 16))
            _ = policy.window(for: moving, layout: layout)
        }
        return policy.window(for: context(layout, offset: 80_000, velocity: 0, at: .seconds(1)), layout: layout)
    }

    @Test func atRestTheLearnedReachHoldsWhatTheNextGestureLikelyComesTo() {
        let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 2_000)
        let visible = Rect(x: 0, y: 80_000, width: 390, height: 844)
        func distance(_ path: ItemPath) -> Double { layout.frame(at: path).verticalDistance(to: visible) }
        func isAhead(_ path: ItemPath) -> Bool { layout.frame(at: path).minY >= visible.maxY }

        // Given rests after a fling that half the time reach 5 screens ahead, and a third of the time 2 screens behind
        var ahead = Array(repeating: 0.5, count: 11)
        ahead[0] = 1
        let flings = GestureReach.Table(ahead: ahead + [0], behind: [0.9, 0.6, 0.5, 0.4, 0.34, 0], rests: 100)
        let none = GestureReach.Table(ahead: [0], behind: [0], rests: 100)
        let learned = GestureReach(horizon: .seconds(2), tables: [none, none, flings, flings])

        // When the policy rests after a fling of 3,600 pt/s with it, holding what at least a fifth of rests reached
        var policy = AdaptivePrefetchPolicy(gestureReach: learned, reachProbability: 0.2)
        let window = restingWindow(&policy, layout: layout)
        // (what it plans this frame: the rest it holds from the fling, by hysteresis)
        let planned = policy.deadlines.map(\.path)

        // Then it plans items 5 screens ahead, past the fixed window's 2.5
        #expect(planned.contains { isAhead($0) && distance($0) > 4.5 * 844 })
        #expect(!planned.contains { isAhead($0) && distance($0) > 5.6 * 844 })
        var fixed = AdaptivePrefetchPolicy(gestureReach: nil)
        let fixedWindow = restingWindow(&fixed, layout: layout)
        let fixedPlanned = fixed.deadlines.map(\.path)
        #expect(!fixedPlanned.contains { isAhead($0) && distance($0) > 2.6 * 844 })
        // and 2.2 screens behind, past the fixed window's 1.5, no farther than the table's share allows
        #expect(planned.contains { !isAhead($0) && distance($0) > 1.6 * 844 })
        #expect(!planned.contains { !isAhead($0) && distance($0) > 2.35 * 844 })
        // Everything the fixed window holds it holds too
        #expect(Set(fixedWindow).isSubset(of: Set(window)))

        // And in motion the model is not used: a fling's window is the fixed policy's
        var moving = AdaptivePrefetchPolicy(gestureReach: learned)
        var plain = AdaptivePrefetchPolicy(gestureReach: nil)
        for frame in 0...30 {
            let frameContext = context(
                layout, offset: 70_000 + Double(frame) * 60, velocity: 3_600, at: .milliseconds(frame * 16))
            #expect(moving.window(for: frameContext, layout: layout) == plain.window(for: frameContext, layout: layout))
        }
    }
}
