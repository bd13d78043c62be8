// The reader's pace, the load estimator's sorted copy, and the adaptive
// policy's window sized from them: slow readers hold little, fast ones the caps.
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct ReadingPaceTests {
    let viewport = Size(width: 390, height: 844)
    let frameTime = Duration.nanoseconds(16_666_667)

    // MARK: ReadingPace and LoadDurationEstimator against reference models

    @Test func thePaceIsTheDistanceOverTheSpanRestsIncluded() {
        // Given a reader who drags 844 pt in 0.5 s, then rests 4.5 s, twice
        var pace = ReadingPace(span: .seconds(10))
        var offset = 0.0
        var frame = 0
        for _ in 0..<2 {
            for _ in 0..<30 {
                offset += 844.0 / 30
                pace.record(offset: offset, at: frameTime * frame)
                frame += 1
            }
            for _ in 0..<270 {
                pace.record(offset: offset, at: frameTime * frame)
                frame += 1
            }
        }
        // Then the pace is the distance over the time shown: 1,688 pt in ~10 s
        let elapsed = (frameTime * (frame - 1)) / .seconds(1)
        #expect(abs(pace.pointsPerSecond - (1_688 - 844.0 / 30) / elapsed) < 1e-6)
        #expect(pace.pointsPerSecond < 200)
    }

    @Test func thePaceCoversItsSpanOnceItsFramesReachBackThatFarAgainAfterAClockReset() {
        var pace = ReadingPace(span: .seconds(2))
        #expect(!pace.coversSpan)
        pace.record(offset: 0, at: .seconds(10))
        pace.record(offset: 0, at: .milliseconds(11_999))
        #expect(!pace.coversSpan)
        pace.record(offset: 0, at: .seconds(12))
        #expect(pace.coversSpan)
        // Frames older than the last one (a clock reset) start the history again
        pace.record(offset: 0, at: .seconds(1))
        #expect(!pace.coversSpan)
    }

    @Test func thePaceMatchesAReferenceOverRandomFrames() {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            var pace = ReadingPace(span: .seconds(3), minimumSpan: .milliseconds(500))
            var frames: [(time: Duration, offset: Double)] = []
            var time = Duration.zero
            var offset = 5_000.0
            for _ in 0..<600 {
                time += .milliseconds(Int64(random.next(upperBound: 40 as UInt64)))
                offset += Double(random.next(upperBound: 201 as UInt64)) - 100
                frames.append((time, offset))
                pace.record(offset: offset, at: time)

                // The reference: every step since the last frame at or before the span's start.
                let startIndex = frames.lastIndex { time - $0.time >= .seconds(3) } ?? 0
                var travelled = 0.0
                for index in (startIndex + 1)..<frames.count where index > 0 {
                    travelled += abs(frames[index].offset - frames[index - 1].offset)
                }
                let elapsed = max(time - frames[startIndex].time, .milliseconds(500)) / .seconds(1)
                let expected = travelled / elapsed
                #expect(abs(pace.pointsPerSecond - expected) < 1e-6, "seed \(seed) at \(time)")
            }
        }
    }

    @Test func theEstimatorMatchesASortAfterEveryRecord() {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            let capacity = 1 + Int(random.next(upperBound: 40 as UInt64))
            let quantile = [0.5, 0.9, 0.99, 1][Int(random.next(upperBound: 4 as UInt64))]
            var estimator = LoadDurationEstimator(quantile: quantile, capacity: capacity)
            var recent: [Duration] = []
            for _ in 0..<300 {
                // Few distinct values, so that equal durations leave and arrive.
                let duration = Duration.milliseconds(Int64(random.next(upperBound: 12 as UInt64)) * 50)
                estimator.record(duration)
                recent.append(duration)
                if recent.count > capacity { recent.removeFirst() }
                let sorted = recent.sorted()
                let rank = Int((quantile * Double(sorted.count)).rounded(.up)) - 1
                #expect(estimator.estimate == sorted[min(max(rank, 0), sorted.count - 1)], "seed \(seed)")
            }
        }
    }

    // MARK: The window sized from the pace

    func list(rows: Int = 5_000) -> ListLayout {
        ListLayout(width: 390, rowHeight: 100, rowCount: rows)
    }

    func frame(offset: Double, velocity: Double, time: Duration) -> ScrollFrame {
        ScrollFrame(visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: velocity, time: time)
    }

    func context(_ layout: ListLayout, _ frame: ScrollFrame, direction: ScrollDirection = .forward) -> PrefetchContext {
        PrefetchContext(
            frame: frame, visibleItems: layout.itemPaths(in: frame.visibleRect),
            direction: frame.velocity < 0 ? .backward : frame.velocity > 0 ? .forward : direction,
            isFirstLayout: false)
    }

    /// A policy sized from the reader's pace (a floor of 1.5 screens) that has
    /// seen 120 ms loads, with a fling memory of 6 s, so that seconds of
    /// reading after the list opens are paced.
    func policy(restingFloorScreens: Double? = 1.5) -> AdaptivePrefetchPolicy {
        var policy = AdaptivePrefetchPolicy(restingFloorScreens: restingFloorScreens, flingMemory: .seconds(6))
        for _ in 0..<50 { policy.observeLoadDuration(.milliseconds(120)) }
        return policy
    }

    /// Drives `policy` through `seconds` of reading from `start`: a drag of
    /// `screens` screens over 0.5 s every `period` seconds, resting between.
    /// Returns the last offset and time, and every window it answered with.
    @discardableResult
    func read(
        _ policy: inout AdaptivePrefetchPolicy, layout: ListLayout, from start: Double, seconds: Double,
        screens: Double, period: Double
    ) -> (offset: Double, time: Duration, windows: [(PrefetchContext, [ItemPath])]) {
        var offset = start
        var windows: [(PrefetchContext, [ItemPath])] = []
        let frames = Int(seconds * 60)
        let framesPerPeriod = max(31, Int(period * 60))
        let speed = screens * viewport.height / 0.5
        for index in 0..<frames {
            let moving = index % framesPerPeriod < 30
            if moving { offset += speed / 60 }
            let context = context(layout, frame(offset: offset, velocity: moving ? speed : 0, time: frameTime * index))
            windows.append((context, policy.window(for: context, layout: layout)))
        }
        return (offset, frameTime * (frames - 1), windows)
    }

    func ahead(_ window: [ItemPath], of offset: Double, in layout: ListLayout) -> [ItemPath] {
        window.filter { layout.frame(at: $0).minY >= offset + viewport.height }
    }

    @Test func aSlowReadersWindowIsSmallerThanAFastOnes() {
        // Given a slow reader (a screen every 5 s) and a fast one (three
        // screens every 0.6 s), over the same loads
        let layout = list()
        var slow = policy()
        let slowEnd = read(&slow, layout: layout, from: 0, seconds: 20, screens: 1, period: 5)
        var fast = policy()
        let fastEnd = read(&fast, layout: layout, from: 0, seconds: 20, screens: 3, period: 0.6)

        // When each comes to rest where it is
        let slowWindow = slow.window(
            for: context(layout, frame(offset: slowEnd.offset, velocity: 0, time: slowEnd.time + frameTime)),
            layout: layout)
        let fastWindow = fast.window(
            for: context(layout, frame(offset: fastEnd.offset, velocity: 0, time: fastEnd.time + frameTime)),
            layout: layout)

        // Then the slow reader holds less, but at least the next screen ahead
        let slowAhead = ahead(slowWindow, of: slowEnd.offset, in: layout)
        let fastAhead = ahead(fastWindow, of: fastEnd.offset, in: layout)
        #expect(slowAhead.count < fastAhead.count)
        #expect(slowWindow.count < fastWindow.count)
        #expect(slowAhead.count >= 8, "the next screen (844 pt of 100 pt rows)")
        // And the fast one, ~4,200 pt/s over 0.42 s loads, reaches the cap, as the fixed window did
        let farthest = fastAhead.map { layout.frame(at: $0).minY - (fastEnd.offset + viewport.height) }.max() ?? 0
        #expect(farthest > fast.restingLeadingScreens * viewport.height - 100)
    }

    @Test func withoutAFloorTheWindowIsFixedWhateverThePace() {
        // Given a policy without a floor (the fixed window) and a slow reader
        let layout = list()
        var slow = policy(restingFloorScreens: nil)
        let slowEnd = read(&slow, layout: layout, from: 0, seconds: 20, screens: 1, period: 5)
        // When the slow one comes to rest
        let window = slow.window(
            for: context(layout, frame(offset: slowEnd.offset, velocity: 0, time: slowEnd.time + frameTime)),
            layout: layout)
        // Then it holds the full 2.5 screens ahead, as it always did
        let farthest =
            ahead(window, of: slowEnd.offset, in: layout).map {
                layout.frame(at: $0).minY - (slowEnd.offset + viewport.height)
            }.max() ?? 0
        #expect(farthest > slow.restingLeadingScreens * viewport.height - 100)
    }

    @Test func aPacedReadersSlowDragReachesThePacedWindowNotTheFingerGoingOnForALoadTime() {
        // Given loads of 5 s, and a reader at rest for 10 s (past the pace's
        // span and the memory of the list's opening), paced with a floor of
        // one screen — and the same reader with the fixed window
        let layout = list()
        func drag(restingFloorScreens: Double?, restingLeadingScreens: Double = 2.5) -> Double {
            var policy = AdaptivePrefetchPolicy(
                restingLeadingScreens: restingLeadingScreens, restingFloorScreens: restingFloorScreens,
                flingMemory: .seconds(6))
            for _ in 0..<50 { policy.observeLoadDuration(.seconds(5)) }
            var offset = 10_000.0
            var resting: [ItemPath] = []
            for index in 0..<600 {
                resting = policy.window(
                    for: context(layout, frame(offset: offset, velocity: 0, time: frameTime * index)), layout: layout)
            }
            // When it drags at 400 pt/s (under fling speed) for a quarter second
            var added: Set<ItemPath> = []
            for index in 600..<615 {
                offset += 400.0 / 60
                let window = policy.window(
                    for: context(layout, frame(offset: offset, velocity: 400, time: frameTime * index)), layout: layout)
                added.formUnion(Set(window).subtracting(resting))
            }
            // (what the drag adds; the rest is held from the opening's wider window)
            return added.map { layout.frame(at: $0).minY - (offset + viewport.height) }.max() ?? 0
        }

        // Then what the paced reader's drag asks for reaches the floor's screen
        // and a quarter (844 + 211 pt), not 400 pt/s over the 5.3 s horizon (2,120 pt)
        let paced = drag(restingFloorScreens: 1)
        #expect(paced <= 844 + 211)
        // And the fixed window's reader still projects the drag over the horizon
        #expect(drag(restingFloorScreens: nil) > 2_000)
        // And so does one whose floor is the cap (one screen each): nothing to pace, a fixed window
        #expect(drag(restingFloorScreens: 1, restingLeadingScreens: 1) > 2_000)
        #expect(!AdaptivePrefetchPolicy(restingLeadingScreens: 1, restingFloorScreens: 1).isPaceSized)
        #expect(AdaptivePrefetchPolicy().isPaceSized)
    }

    @Test func aFlickAfterALongRestStillGetsItsLandingZone() {
        // Given a slow reader at rest for 10 s
        let layout = list()
        var policy = policy()
        let start = 10_000.0
        for index in 0..<600 {
            _ = policy.window(
                for: context(layout, frame(offset: start, velocity: 0, time: frameTime * index)), layout: layout)
        }

        // When a flick at 4,000 pt/s is released and coasts for two frames
        let velocity = 4_000.0
        var window: [ItemPath] = []
        for index in 0..<2 {
            let seconds = Double(index) / 60
            let flick = frame(
                offset: start + ScrollPhysics.distance(after: seconds, velocity: velocity),
                velocity: ScrollPhysics.velocity(after: seconds, velocity: velocity), time: frameTime * (600 + index))
            window = policy.window(for: context(layout, flick), layout: layout)
        }

        // Then the items where it lands are asked for, first
        let landing = start + ScrollPhysics.projectedDistance(velocity: velocity)
        let landed = layout.itemPaths(in: Rect(x: 0, y: landing, width: 390, height: viewport.height))
        #expect(Set(landed).isSubset(of: Set(window)))
        #expect(window.first.map { landed.contains($0) || layout.frame(at: $0).maxY > landing - 211 } == true)
    }

    @Test func nothingVisibleIsPrefetchedAtAnyPace() {
        for seed in UInt64(1)...10 {
            var random = SeededRandom(seed: seed)
            let layout = list()
            var policy = policy()
            let screens = 0.2 + Double(random.next(upperBound: 30 as UInt64)) / 10
            let period = 0.6 + Double(random.next(upperBound: 60 as UInt64)) / 10
            let run = read(&policy, layout: layout, from: 1_000, seconds: 15, screens: screens, period: period)
            for (context, window) in run.windows {
                #expect(Set(window).isDisjoint(with: context.visibleItems), "seed \(seed)")
                #expect(Set(window).count == window.count, "seed \(seed)")
            }
        }
    }

    @Test func aSlowReadersWobbleCausesNoCancelAndRestartChurn() {
        // Given a planner whose policy has seen a slow reader
        let layout = list()
        var reader = policy()
        let run = read(&reader, layout: layout, from: 40_000, seconds: 12, screens: 0.5, period: 4)
        var planner = PrefetchPlanner(layout: layout, policy: .custom(reader))
        var offset = run.offset
        var time = run.time
        _ = planner.update(frame(offset: offset, velocity: 0, time: time))

        // When the direction wobbles for a few frames (up 2 pt, down 2 pt)
        var cancelled: [ItemPath] = []
        var asked: [ItemPath] = []
        for index in 0..<20 {
            offset += index.isMultiple(of: 2) ? -2 : 2
            time += frameTime
            let update = planner.update(
                frame(offset: offset, velocity: index.isMultiple(of: 2) ? -120 : 120, time: time))
            cancelled += update.cancel
            asked += update.prefetch
        }

        // Then nothing is cancelled and asked for again, nor anything ahead cancelled
        #expect(Set(cancelled).isDisjoint(with: Set(asked)))
        #expect(cancelled.filter { layout.frame(at: $0).minY >= offset + viewport.height }.isEmpty)
    }
}
