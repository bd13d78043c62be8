import Lookahead
import Testing

@testable import LookaheadSimulation

/// Tail hedging in the simulator: the loader's second attempt on the shared
/// link, at the fetcher's moments, and runs that stay a function of the seed.
@Suite(.timeLimit(.minutes(2)))
struct SimulatedHedgingTests {
    /// A loader of `feed` (seed 1) hedging after `threshold`, as
    /// `AsyncFetcher(hedging: .after(threshold), hedgesDueSoonAtOnce: dueSoonAtOnce)`,
    /// with item 0 loading since time zero: for display at `priority`, or
    /// prefetched when `nil`.
    func loaderWithALoadRunning(
        bandwidth: NetworkModel.Bandwidth, threshold: Duration = .milliseconds(50),
        priority: FetchPriority? = .high, dueSoonAtOnce: Bool = true
    ) -> SimulatedLoader {
        var scenario = SimulationScenario.builtIn(named: "feed", seed: 1)!
        scenario.network.bandwidth = bandwidth
        var loader = SimulatedLoader(
            scenario: scenario, strategy: .adaptive, keys: LoadKeys(strategy: .adaptive, itemCount: 100))
        loader.hedge(like: .after(threshold), dueSoonAtOnce: dueSoonAtOnce)
        if let priority { loader.requestForDisplay(0, priority: priority) } else { loader.prefetch(0) }
        loader.drain(at: .zero)
        return loader
    }

    /// Fires the loader's first timer, as the simulator does, and performs what follows.
    func fireFirstTimer(_ loader: inout SimulatedLoader) -> Duration? {
        guard let first = loader.timers.first else { return nil }
        loader.timers.removeFirst()
        guard case .hedge(let id) = first.timer else { return nil }
        loader.hedgeTimerFired(id, at: first.time)
        loader.drain(at: first.time)
        return first.time
    }

    @Test func aSlowVisibleLoadIsHedgedAtItsThresholdDrawingTheNextAttempt() {
        // Given item 0 loading for display on an unlimited link, hedged after 34 ms (between two frames at 60 fps)
        var loader = loaderWithALoadRunning(bandwidth: .unlimited, threshold: .milliseconds(34))

        // When its threshold's timer fires
        let fired = fireFirstTimer(&loader)

        // Then it fired at the threshold itself, not at a frame, and two transfers run, the second
        // due at its own draw: attempt 1's latency after 34 ms
        #expect(fired == .milliseconds(34))
        #expect(loader.scheduler.isHedged(0))
        #expect(loader.transfers.inFlightCount == 2)
        let first = loader.network.latency(forItem: 0, attempt: 0)
        let second = .milliseconds(34) + loader.network.latency(forItem: 0, attempt: 1)
        #expect(loader.transfers.nextCompletion()?.time == min(first, second))
    }

    @Test func aPrefetchPastItsThresholdIsHedgedWhenItIsRaisedForDisplay() {
        // Given item 0 prefetched, its threshold passed while nobody showed it
        var loader = loaderWithALoadRunning(bandwidth: .unlimited, priority: nil)
        _ = fireFirstTimer(&loader)
        #expect(!loader.scheduler.isHedged(0))

        // When its cell appears
        loader.requestForDisplay(0, priority: .high)
        loader.drain(at: .milliseconds(70))

        // Then it is hedged then
        #expect(loader.scheduler.isHedged(0))
    }

    @Test func aLoadIsNotHedgedBeforeItsThreshold() {
        // Given item 0 loading for display, with no timer fired yet
        let early = loaderWithALoadRunning(bandwidth: .unlimited)

        // Then it runs alone, its timer set at the threshold
        #expect(!early.scheduler.isHedged(0))
        #expect(early.timers.first?.time == .milliseconds(50))
    }

    @Test func afterP90TimesTheLoadsThatStartedWithoutAThresholdOnceThereIsOne() throws {
        // Given `feed` seed 1 hedged after the p90, item 3 loading for display (401 ms) beside
        // prefetches of items 5, 2 and 0 (16, 45 and 92 ms), none with a threshold to be timed against
        var loader = SimulatedLoader(
            scenario: SimulationScenario.builtIn(named: "feed", seed: 1)!, strategy: .adaptive,
            keys: LoadKeys(strategy: .adaptive, itemCount: 100))
        loader.hedge(like: .afterP90, dueSoonAtOnce: true)
        loader.requestForDisplay(3, priority: .high)
        for item in [5, 2, 0] { loader.prefetch(item) }
        loader.drain(at: .zero)
        #expect(loader.timers.isEmpty)

        // When the three prefetches land
        var landed: Duration = .zero
        for _ in 0..<FetchHedging.minimumSamples {
            let completion = try #require(loader.transfers.nextCompletion())
            _ = loader.complete(completion.id, at: completion.time)
            loader.drain(at: completion.time)
            landed = completion.time
        }

        // Then item 3's load is timed from the third landing, with the p90 of the three
        #expect(!loader.scheduler.isIdle && loader.transfers.inFlightCount == 1)
        let threshold = try #require(loader.hedging?.threshold)
        #expect(loader.timers.count == 1)
        #expect(loader.timers.first?.time == landed + threshold)
    }

    @Test(arguments: [true, false])
    func aPrefetchReDatedDueSoonIsHedgedAtOnceOnlyWhenTheFetcherSaysSo(dueSoonAtOnce: Bool) {
        // Given item 0 prefetched 1 ms ago, with a threshold of a second
        var loader = loaderWithALoadRunning(
            bandwidth: .unlimited, threshold: .seconds(1), priority: nil, dueSoonAtOnce: dueSoonAtOnce)

        // When it is re-dated to be due in 100 ms
        loader.datePrefetch(0, by: .milliseconds(101), at: .milliseconds(1))
        loader.drain(at: .milliseconds(1))

        // Then it is hedged at once if, and only if, due-soon prefetches are
        #expect(loader.scheduler.isHedged(0) == dueSoonAtOnce)
        #expect(loader.transfers.inFlightCount == (dueSoonAtOnce ? 2 : 1))
    }

    /// `adaptive` on the first `seconds` of built-in `name`, seed `seed`,
    /// with `change` given `false`, then `true`.
    func runs(
        _ name: String, seed: UInt64, seconds: Int, _ change: (inout AdaptiveSettings, Bool) -> Void
    ) -> (without: StrategyResult, with: StrategyResult, again: StrategyResult) {
        let scenario = SimulationScenario.builtIn(named: name, seed: seed, duration: .seconds(seconds))!
        let simulator = Simulator(scenario: scenario)
        var settings = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
        change(&settings, false)
        let without = simulator.run(adaptive: settings)
        change(&settings, true)
        return (without, simulator.run(adaptive: settings), simulator.run(adaptive: settings))
    }

    @Test(arguments: [UInt64(1), 3])
    func hedgingRunsRepeatAndHedge(seed: UInt64) {
        // Given fling, adaptive with and without hedging
        let (without, with, again) = runs("fling", seed: seed, seconds: 20) { $0.hedgesSlowLoads = $1 }

        // Then hedges were sent, and the run is the same every time
        #expect(with.requests > without.requests, "seed \(seed)")
        #expect(again == with, "seed \(seed)")
    }

    @Test(arguments: [UInt64(1), 4])
    func aPriorHedgesTheFirstScreenBeforeAnyLoadLands(seed: UInt64) {
        // Given feed's first seconds, adaptive hedging with no prior, then with a prior of zero
        let (without, with, _) = runs("feed", seed: seed, seconds: 5) { $0.hedgePriorMilliseconds = $1 ? 0 : nil }

        // Then the first screen's loads were hedged before three had landed, and it filled sooner
        #expect(with.requests > without.requests, "seed \(seed)")
        #expect(with.blankCellFrames < without.blankCellFrames, "seed \(seed)")
    }
}
