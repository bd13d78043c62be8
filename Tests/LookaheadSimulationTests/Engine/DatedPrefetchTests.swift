import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadSimulation

/// Prefetches dated by the adaptive policy's predictions: the loader
/// re-dates each queued prefetch every frame, so the scheduler starts them
/// earliest-due first, and on long flings that leaves fewer blank cells than
/// starting them in the order they were asked for.
@Suite(.queuedOnTheHeavyTestThread)
struct DatedPrefetchTests {
    @Test func aDatedPrefetchStartsAheadOfOnesAskedForEarlier() {
        // Given one slot taken by item 0, and prefetches of 1, 2 and 3 queued in that order
        var scenario = SimulationScenario.builtIn(named: "feed", seed: 1)!
        scenario.network.failureRate = 0
        scenario.maxConcurrentLoads = 1
        var loader = SimulatedLoader(
            scenario: scenario, strategy: .adaptive, keys: LoadKeys(strategy: .adaptive, itemCount: 100))
        for key in 0...3 { loader.prefetch(key) }
        loader.drain(at: .zero)
        #expect(loader.scheduler.phase(of: 0) == .running(.normal))

        // When 3 is found to be needed first, then 2, and 1 not soon
        loader.datePrefetch(3, by: .milliseconds(200), at: .milliseconds(10))
        loader.datePrefetch(2, by: .milliseconds(300), at: .milliseconds(10))
        loader.datePrefetch(1, by: .seconds(5), at: .milliseconds(10))

        // Then as the slot frees, 3 starts, then 2, then 1
        var started: [Int] = []
        while let next = loader.transfers.nextCompletion() {
            started.append(loader.loads[next.id]!.key)
            _ = loader.complete(next.id, at: next.time)
            loader.drain(at: next.time)
        }
        #expect(started == [0, 3, 2, 1])
    }

    @Test func everyFrameReDatesThePrefetchesThePolicyPredictsDifferently() async {
        await onHeavyTestThread {
            // Given `adaptive` on a fling scenario, dating its prefetches
            var run = SimulationRun.adaptiveFling(seed: 2, duration: .seconds(8))
            #expect(run.driver.datesPrefetches)
            var checked = 0
            run.showFrames { run, frame, time in
                // Then each queued prefetch the planner dated is due when the planner predicts,
                // give or take the tolerance below which a prediction that moved is not re-dated
                guard let planner = run.driver.planner else { return }
                for (path, deadline) in planner.deadlines {
                    let item = run.driver.layout.flatIndex(of: path)
                    guard case .pending(.normal) = run.driver.loader.scheduler.phase(of: item),
                        let queued = run.driver.loader.scheduler.deadline(of: item)
                    else { continue }
                    let moved = CoordinatorCore<ItemPath>.movedEnough(
                        from: queued, to: deadline, at: time, tolerance: CoordinatorCore<ItemPath>.defaultDateTolerance)
                    #expect(!moved, "item \(item), frame \(frame)")
                    checked += 1
                }
            }
            // And the fling queued enough for that to be seen
            #expect(checked > 100)
        }
    }

    @Test func aConsumedPrefetchLeavesItsLoadsRankToTheCell() async {
        await onHeavyTestThread {
            // Given `adaptive` on the opening flick of `fling` seed 12, whose
            // display requests ask `.low` for the cells the fling carries away
            var run = SimulationRun.adaptiveFling(seed: 12, duration: .seconds(3))
            var lowered = 0
            run.showFrames { run, frame, _ in
                // Then a visible item's queued load waits at its cell's priority:
                // the prefetch that brought it in (`.normal`, its deadline now past) no longer ranks it
                let displays = run.driver.coordinator?.requests.displays ?? [:]
                // (not those of cells that left, or that UIKit made ahead and has not shown)
                let offscreen = (run.driver.coordinator?.requests.departed ?? [])
                    .union(run.driver.coordinator?.requests.prepared ?? [])
                for item in run.driver.displayRequests.keys where !offscreen.contains(DisplayRequestID(item)) {
                    guard let priority = displays[DisplayRequestID(item)]?.priority else { continue }
                    guard case .pending(let queued) = run.driver.loader.scheduler.phase(of: item) else { continue }
                    #expect(queued == priority, "item \(item), frame \(frame)")
                    if priority == .low { lowered += 1 }
                }
            }
            // And the flick queued cells it carries away
            #expect(lowered > 20)
        }
    }

    @Test func aPrefetchDueSoonIsHedgedWithoutWaitingForItsThreshold() async {
        await onHeavyTestThread {
            // Given `adaptive` on a fling of the feed (a link without a bandwidth cap)
            var run = SimulationRun.adaptiveFling(seed: 2, duration: .seconds(8))
            var checked = 0
            run.showFrames { run, frame, time in
                guard let planner = run.driver.planner, let threshold = run.driver.loader.hedging?.threshold else {
                    return
                }
                let scheduler = run.driver.loader.scheduler
                for (path, deadline) in planner.deadlines where deadline <= time + FetchHedging.dueWithin {
                    let item = run.driver.layout.flatIndex(of: path)
                    guard case .running = scheduler.phase(of: item), let slot = scheduler.loadSlots[item],
                        let load = run.driver.loader.loads.values.first(where: { $0.key == item }),
                        load.start < time, time - load.start < threshold
                    else { continue }
                    // Then a prefetch about to appear, running for less than the threshold, has its hedge
                    #expect(scheduler.loads[slot]!.hasHedged, "item \(item), frame \(frame)")
                    checked += 1
                }
            }
            // And the fling had such prefetches
            #expect(checked > 20, "\(checked) checked")
        }
    }

    /// The shipped `adaptive` on `fling` seeds `seeds` (held out from the
    /// policy's tuning), then with `mechanism` switched off: each seed's two runs.
    func flingRuns(
        seeds: [UInt64], without mechanism: WritableKeyPath<AdaptiveSettings, Bool>
    ) -> [(seed: UInt64, shipped: StrategyResult, without: StrategyResult)] {
        seeds.map { seed in
            let scenario = SimulationScenario.builtIn(named: "fling", seed: seed)!
            let simulator = Simulator(scenario: scenario)
            var settings = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
            #expect(settings[keyPath: mechanism], "the mechanism ships on")
            let shipped = simulator.run(adaptive: settings)
            settings[keyPath: mechanism] = false
            return (seed, shipped, simulator.run(adaptive: settings))
        }
    }

    @Test func datedPrefetchesLeaveFewerBlankCellsOnLongFlings() async {
        await onHeavyTestThread {
            // Given `fling` seeds 2, 6 and 9, with prefetches dated and first in first out
            let runs = flingRuns(seeds: [2, 6, 9], without: \.datesPrefetches)
            // Then dating never costs blank cells, and saves some in all
            for (seed, dated, undated) in runs {
                #expect(
                    dated.blankCellFrames <= undated.blankCellFrames,
                    "seed \(seed): \(dated.blankCellFrames) dated against \(undated.blankCellFrames)")
            }
            let dated = runs.reduce(0) { $0 + $1.shipped.blankCellFrames }
            let undated = runs.reduce(0) { $0 + $1.without.blankCellFrames }
            #expect(dated < undated, "\(dated) dated against \(undated) first in first out")
        }
    }

    @Test func hedgingPrefetchesDueSoonLeavesFewerBlankCellsOnLongFlings() async {
        await onHeavyTestThread {
            // Given `fling` seeds 3, 4 and 7, hedging what is due soon and not
            let runs = flingRuns(seeds: [3, 4, 7], without: \.hedgesDuePrefetches)
            // Then each run leaves fewer blank cells, for more requests
            for (seed, hedged, unhedged) in runs {
                #expect(
                    hedged.blankCellFrames < unhedged.blankCellFrames,
                    "seed \(seed): \(hedged.blankCellFrames) hedged against \(unhedged.blankCellFrames)")
                #expect(hedged.requests > unhedged.requests, "seed \(seed)")
            }
        }
    }
}

extension SimulationRun {
    /// The shipped `adaptive` on the first `duration` of `fling` seed `seed`.
    static func adaptiveFling(seed: UInt64, duration: Duration) -> SimulationRun {
        SimulationRun(
            scenario: SimulationScenario.builtIn(named: "fling", seed: seed, duration: duration)!, strategy: .adaptive)
    }

    /// Shows every frame as ``Simulator`` does, the network's events before
    /// each, and calls `check` with the run after each frame is shown.
    mutating func showFrames(_ check: (_ run: SimulationRun, _ frame: Int, _ time: Duration) -> Void) {
        for frame in 0..<frameCount {
            let time = driver.time(ofFrame: frame)
            processEvents(until: time)
            showFrame(frame, at: time)
            check(self, frame, time)
        }
    }
}

extension SimulatedLoader {
    /// Re-dates the prefetch of `key` as a coordinator frame does: its
    /// deadline placed, and its due-soon hedge checked at `time`.
    mutating func datePrefetch(_ key: Int, by deadline: Duration, at time: Duration) {
        var actions = CoordinatorCore<Int>.Actions()
        actions.date = [(key, deadline)]
        actions.predicted = [key]
        perform(actions, at: time)
    }
}
