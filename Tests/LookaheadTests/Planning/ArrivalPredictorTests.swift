import Testing

@testable import Lookahead

// The adaptive core: its predictions in points and in items agree, and the
// SwiftUI window and the paging trigger ask for exactly what it predicts.

@Suite(.timeLimit(.minutes(1)))
struct ArrivalPredictorTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func reachInPointsAndInItemsAgree(seed: UInt64) {
        // Given two predictors fed the same scroll, one in points (items of
        // 88 pt), one in items, and the same load durations
        var random = SeededRandom(seed: seed)
        let extent = 88.0
        var points = ArrivalPredictor(margin: .milliseconds(100), velocityTimeConstant: .milliseconds(150))
        var items = points
        var position = 500.0
        var time = Duration.zero
        for _ in 0..<200 {
            time += .milliseconds(8 + random.next(below: 30))
            position += Double(random.next(below: 40)) - 10
            points.record(position: position * extent, at: time)
            items.record(position: position, at: time)
            if random.chance(0.2) {
                let duration = Duration.milliseconds(50 + random.next(below: 900))
                points.observeLoadDuration(duration)
                items.observeLoadDuration(duration)
            }
            // Then, at every step and any queue, the reach in points is the
            // reach in items times the item's extent
            let queued = Double(random.next(below: 4))
            let inItems = points.reachInItems(queuedLoadsPerSlot: queued, itemExtent: extent)
            let expected = items.reach(queuedLoadsPerSlot: queued)
            #expect(
                abs(inItems - expected) <= 1e-9 * max(1, expected),
                "seed \(seed): \(inItems) items from points, \(expected) from items")
        }
    }

    @Test func aFlingDeceleratesAndADragKeepsItsSpeed() {
        // Given a predictor with 300 ms loads, no margin, and flings from 1,200 pt/s
        let predictor = ArrivalPredictor(flingSpeed: 1_200)
        // Then a drag at 1,000 pt/s covers 300 pt in 300 ms
        #expect(abs(predictor.reach(speed: 1_000, loadTime: .milliseconds(300)) - 300) < 1e-9)
        // And a fling at 3,000 pt/s covers what UIScrollView's deceleration does, less than 900 pt
        let fling = predictor.reach(speed: -3_000, loadTime: .milliseconds(300))
        #expect(abs(fling - ScrollPhysics.distance(after: 0.3, velocity: 3_000)) < 1e-9)
        #expect(fling < 900)
        // And the load time is the quantile asked for, plus the queue's wait
        #expect(predictor.expectedLoadTime(queuedLoadsPerSlot: 2) == .milliseconds(900))
        #expect(predictor.expectedLoadTime(queuedLoadsPerSlot: -1) == .milliseconds(300))
    }

    @Test func theMedianAndTheEstimateComeFromTheSameObservations() {
        // Given a predictor planning for the 99th percentile
        var predictor = ArrivalPredictor(loadTimeQuantile: 0.99)
        for milliseconds in 1...100 { predictor.observeLoadDuration(.milliseconds(milliseconds)) }
        // Then the estimate is the slow end and the typical load the middle
        #expect(predictor.loadTime == .milliseconds(99))
        #expect(predictor.loadTime(atQuantile: 0.5) == .milliseconds(50))
        #expect(predictor.observedLoadCount == 100)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theWindowAsksForWhatTheCorePredicts(seed: UInt64) {
        // Given the adaptive window and an independent core with its settings,
        // fed the same visible rows, times and load durations
        var random = SeededRandom(seed: seed)
        let settings = AdaptiveWindowSettings()
        var machine = ScrollViewPrefetcherStateMachine(itemCount: 100_000, sizing: .adaptive(settings))
        var core = ArrivalPredictor(
            loadTimeQuantile: 0.9, initialLoadDuration: settings.initialLoadDuration, sampleCapacity: 32,
            margin: settings.margin, velocityTimeConstant: settings.speedTimeConstant)
        var top = 50_000
        var time = Duration.zero
        for index in top..<(top + 10) { machine.appeared(index) }
        for step in 0..<300 {
            let rows = random.next(below: 14) - 2
            let newTop = top + rows
            for index in top..<(top + 10) where !(newTop..<(newTop + 10)).contains(index) {
                machine.disappeared(index)
            }
            for index in newTop..<(newTop + 10) { machine.appeared(index) }
            top = newTop
            time += .milliseconds(16 + random.next(below: 40))
            if random.chance(0.3) {
                let duration = Duration.milliseconds(100 + random.next(below: 700))
                machine.observeLoadDuration(duration)
                core.observeLoadDuration(duration)
            }
            let queued = Double(random.next(below: 3))
            _ = machine.settle(at: time, queuedLoadsPerSlot: queued)
            core.record(position: Double(2 * top + 9) / 2, at: time)

            // Then, while it moves forward, the window reaches as far ahead as
            // the core's reach in items, between the resting and maximum counts
            guard machine.direction == .forward, abs(core.velocity) >= 1 else { continue }
            let reach = core.reach(queuedLoadsPerSlot: queued).rounded(.up)
            let expected = max(settings.restingCount, Int(min(reach, Double(settings.maximumCount))))
            let ahead = machine.adaptiveCounts(queuedLoadsPerSlot: queued).ahead
            #expect(ahead == expected, "seed \(seed), step \(step): window \(ahead) ahead, core \(expected)")
            #expect(machine.itemsPerSecond == core.velocity, "seed \(seed), step \(step)")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func thePagingTriggerAsksWhenTheCorePredictsArrival(seed: UInt64) {
        // Given 30 loaded items, pages of 10, a margin of 250 ms
        var random = SeededRandom(seed: seed)
        let configuration = PagingConfiguration(pageSize: 10, prefetchDistance: 1)
        let server = FakePageServer(count: 1_000)
        let core = ArrivalPredictor(margin: configuration.adaptiveMargin)
        for _ in 0..<200 {
            var machine = PagingStateMachine<Row>(configuration: configuration)
            let request = machine.start()[0].loadedRequest!
            _ = machine.pageLoaded(request: request, page: server.page(for: request))
            let index = random.next(below: 29)
            let speed = Double(random.next(below: 400)) - 50
            let latency = Duration.milliseconds(random.next(below: 2_000))

            // When the user reaches `index` at `speed` items per second
            let actions = machine.accessed(index: index, velocity: speed, observedPageLatency: latency)

            // Then the next page is asked for exactly when the core predicts
            // the user past the last loaded item before it could load
            let itemsAhead = 29 - index
            let predicted =
                itemsAhead < 1 || (speed > 0 && Double(itemsAhead) <= core.reach(speed: speed, loadTime: latency))
            #expect(
                actions.contains(.load(.offset(30, limit: 10))) == predicted,
                "seed \(seed): index \(index), \(speed) items/s, \(latency): \(actions)")
        }
    }

    @Test func aFiniteDifferenceFollowsAtOnceAndAReportedVelocityWins() {
        // Given the estimator as a plain finite difference
        var estimator = VelocityEstimator(timeConstant: .zero)
        estimator.record(position: 0, at: .zero)
        #expect(estimator.velocity == 0)
        // When the position moves 10 in 100 ms, it reads 100 per second at once
        estimator.record(position: 10, at: .milliseconds(100))
        #expect(estimator.velocity == 100)
        // And a sample at the same time changes nothing until the next one
        estimator.record(position: 30, at: .milliseconds(100))
        #expect(estimator.velocity == 100)
        // And a reported velocity replaces the estimate
        estimator.record(velocity: -500, position: 30, at: .milliseconds(150))
        #expect(estimator.velocity == -500)
        estimator.record(position: 40, at: .milliseconds(250))
        #expect(estimator.velocity == 100)
        // And a clock that went back starts again at rest
        estimator.record(position: 0, at: .milliseconds(10))
        #expect(estimator.velocity == 0)
    }
}
