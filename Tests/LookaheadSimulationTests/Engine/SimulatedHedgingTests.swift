import Lookahead
import Testing

@testable import LookaheadSimulation

/// Tail hedging in the simulator: the loader's second attempt on the shared
/// link, refused on a starved one, and runs that stay a function of the seed.
@Suite(.timeLimit(.minutes(2)))
struct SimulatedHedgingTests {
    /// A loader of `feed` (seed 1) with item 0's display request running since time zero.
    func loaderWithALoadRunning(bandwidth: NetworkModel.Bandwidth) -> SimulatedLoader {
        var scenario = SimulationScenario.builtIn(named: "feed", seed: 1)!
        scenario.network.bandwidth = bandwidth
        var loader = SimulatedLoader(scenario: scenario, strategy: .adaptive, itemCount: 100)
        loader.requestForDisplay(0, priority: .high)
        loader.drain(at: .zero)
        return loader
    }

    @Test func aSlowVisibleLoadGetsASecondTransferDrawingTheNextAttempt() {
        // Given item 0 loading on an unlimited link
        var loader = loaderWithALoadRunning(bandwidth: .unlimited)

        // When it has run past the threshold and is hedged
        loader.hedge(
            0, ifRunningLongerThan: .milliseconds(50), starvationWindow: .milliseconds(50), at: .milliseconds(60))
        loader.drain(at: .milliseconds(60))

        // Then two transfers run, the second due at its own draw: attempt 1's latency after 60 ms
        #expect(loader.scheduler.isHedged(0))
        #expect(loader.transfers.inFlightCount == 2)
        let first = loader.network.latency(forItem: 0, attempt: 0)
        let second = .milliseconds(60) + loader.network.latency(forItem: 0, attempt: 1)
        #expect(loader.transfers.nextCompletion()?.time == min(first, second))
    }

    @Test func aLoadIsNotHedgedBeforeItsThresholdNorOnAStarvedLink() {
        var early = loaderWithALoadRunning(bandwidth: .unlimited)
        early.hedge(
            0, ifRunningLongerThan: .milliseconds(50), starvationWindow: .milliseconds(50), at: .milliseconds(40))
        #expect(!early.scheduler.isHedged(0))

        // 1 kB/s: item 0's payload alone takes longer than the threshold to cross
        var starved = loaderWithALoadRunning(bandwidth: .bitsPerSecond(8_000))
        starved.hedge(
            0, ifRunningLongerThan: .milliseconds(50), starvationWindow: .milliseconds(50), at: .milliseconds(60))
        #expect(!starved.scheduler.isHedged(0))
    }

    @Test func aHedgeAtOnceIsRefusedWhileAnythingIsInFlightOnACappedLink() {
        // Given item 0 loading for 1 ms, on an unlimited link and on a fast but capped one
        var unlimited = loaderWithALoadRunning(bandwidth: .unlimited)
        var capped = loaderWithALoadRunning(bandwidth: .bitsPerSecond(1_000_000_000))

        // When each is asked for a hedge at once (as a prefetch due soon is)
        unlimited.hedge(0, ifRunningLongerThan: .zero, starvationWindow: .zero, at: .milliseconds(1))
        capped.hedge(0, ifRunningLongerThan: .zero, starvationWindow: .zero, at: .milliseconds(1))

        unlimited.drain(at: .milliseconds(1))
        capped.drain(at: .milliseconds(1))

        // Then only the unlimited link takes a second transfer now
        #expect(unlimited.scheduler.isHedged(0))
        #expect(unlimited.transfers.inFlightCount == 2)
        #expect(!capped.scheduler.isHedged(0))
        #expect(capped.transfers.inFlightCount == 1)
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
