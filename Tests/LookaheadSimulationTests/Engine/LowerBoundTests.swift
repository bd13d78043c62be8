import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// The lower bound holds for everything the simulator runs, meets the
/// analytic bound without limits, and sits under the true optimum of small
/// instances found by brute force.
@Suite(.queuedOnTheHeavyTestThread)
struct LowerBoundTests {
    let viewport = Size(width: 390, height: 300)

    func linearTrace(distance: Double, seconds: Double) -> ScrollTrace {
        let frames = Int(seconds * 60)
        return ScrollTrace(
            samples: (0...frames).map { frame in
                ScrollTrace.Sample(time: .seconds(1) / 60.0 * frame, offset: distance * Double(frame) / Double(frames))
            })
    }

    @Test func withoutLimitsTheBoundIsTheLatencyBoundAndTheOracleMeetsIt() async {
        await onHeavyTestThread {
            // Given unlimited concurrency and bandwidth
            let scenario = SimulationScenario(
                name: "unlimited", layout: .list(rowHeights: Array(repeating: 100, count: 200)), viewport: viewport,
                network: NetworkModel(
                    seed: 3, latency: .logNormal(median: .milliseconds(300), p99: .seconds(2)),
                    payload: .fixed(bytes: 1)),
                maxConcurrentLoads: 100_000, trace: linearTrace(distance: 8_000, seconds: 8))

            // When the bound is computed (with hedges allowed: the oracle hedges) and the oracle runs
            let bound = LowerBound(scenario: scenario, allowsHedging: true)
            let oracle = Simulator(scenario: scenario).run(.oracle)

            // Then only latency binds, and the clairvoyant plan reaches it, hedging where attempt 1 lands first
            #expect(bound.blankCellFrames == bound.latencyBoundCellFrames)
            #expect(bound.blankCellFrames > 0)
            #expect(oracle.blankCellFrames == bound.blankCellFrames)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func allowingHedgesLowersTheBoundToTheFasterOfTwoAttempts(seed: UInt64) async {
        await onHeavyTestThread {
            // Given log-normal latencies (each attempt draws its own) and no other limit
            let scenario = SimulationScenario(
                name: "hedged", layout: .list(rowHeights: Array(repeating: 100, count: 200)), viewport: viewport,
                network: NetworkModel(
                    seed: seed, latency: .logNormal(median: .milliseconds(300), p99: .seconds(2)),
                    payload: .fixed(bytes: 1)
                ),
                maxConcurrentLoads: 100_000, trace: linearTrace(distance: 8_000, seconds: 8))

            // When the bound is computed without and with hedges
            let plain = LowerBound(scenario: scenario)
            let hedged = LowerBound(scenario: scenario, allowsHedging: true)

            // Then with hedges it is the latency bound of the faster of each item's first two
            // attempts, counted here independently, and lower than without
            let visibility = ScenarioVisibility(scenario: scenario)
            var expected = 0
            for (item, frames) in visibility.frames {
                let fastest = min(
                    scenario.network.latency(forItem: item, attempt: 0),
                    scenario.network.latency(forItem: item, attempt: 1)
                )
                expected += frames.count { visibility.time(ofFrame: $0) < fastest }
            }
            #expect(hedged.blankCellFrames == expected, "seed \(seed): \(hedged.blankCellFrames) ≠ \(expected)")
            #expect(hedged.blankCellFrames < plain.blankCellFrames, "seed \(seed)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func noPerItemStrategyGoesUnderTheBound(seed: UInt64) async {
        await onHeavyTestThread {
            for name in SimulationScenario.builtInNames {
                // Given a short run of a built-in scenario
                let short = SimulationScenario.builtIn(named: name, seed: seed, duration: .seconds(6))!
                let scenario = short
                let plain = LowerBound(scenario: short)
                let hedged = LowerBound(scenario: short, allowsHedging: true)
                // Then no per-item strategy leaves fewer blank cell-frames (than the bound
                // with hedges for those that hedge)
                for strategy in SimulationStrategy.allCases where !strategy.loadsPages {
                    let hedges =
                        strategy == .oracle || strategy == .adaptive && AdaptiveSettings.hedgesSlowLoadsByDefault
                    let bound = hedges ? hedged : plain
                    let result = Simulator(scenario: short).run(strategy)
                    #expect(
                        result.blankCellFrames >= bound.blankCellFrames,
                        "seed \(seed), \(scenario.name), \(strategy): \(result.blankCellFrames) < bound \(bound.blankCellFrames)"
                    )
                }
            }
        }
    }

    /// With one slot a schedule is an order of loads run back to back (idling
    /// never helps, and a load alone has the whole link): enumerating every
    /// order of every subset gives the true optimum of a small instance.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func theBoundIsAtMostTheBruteForceOptimumWhichIsAtMostTheOracle(seed: UInt64) async {
        await onHeavyTestThread {
            // Given six rows scrolled past a two-row viewport, one slot, a slow link
            var random = TraceRandom(seed: seed)
            let heights = (0..<6).map { _ in Double(Int.random(in: 80...160, using: &random)) }
            let latencies = (0..<6).map { _ in Duration.milliseconds(Int.random(in: 30...300, using: &random)) }
            let scenario = SimulationScenario(
                name: "brute", layout: .list(rowHeights: heights), viewport: Size(width: 390, height: 200),
                network: NetworkModel(
                    seed: seed, latency: .perItem(latencies), payload: .uniform(5_000...40_000),
                    bandwidth: .bitsPerSecond(1_000_000)),
                maxConcurrentLoads: 1, trace: linearTrace(distance: heights.reduce(0, +) - 200, seconds: 1.5))

            // When the optimum is found by enumeration
            let visibility = ScenarioVisibility(scenario: scenario)
            let frameSeconds = visibility.frameDuration / .seconds(1)
            let items = visibility.itemsByFirstAppearance
            func blanks(order: [Int]) -> Int {
                var time = 0.0
                var total = visibility.visibleCellFrames
                for item in order {
                    time += scenario.network.latency(forItem: item) / .seconds(1)
                    time += Double(scenario.network.payloadBytes(forItem: item)) * 8 / 1_000_000
                    total -= visibility.frames[item]!.filter { Double($0) * frameSeconds >= time - 1e-9 }.count
                }
                return total
            }
            var optimum = visibility.visibleCellFrames
            func enumerate(_ order: [Int], _ rest: [Int]) {
                optimum = min(optimum, blanks(order: order))
                for (index, item) in rest.enumerated() {
                    var remaining = rest
                    remaining.remove(at: index)
                    enumerate(order + [item], remaining)
                }
            }
            enumerate([], items)

            // Then bound ≤ optimum ≤ oracle, and no strategy goes under the bound
            let bound = LowerBound(scenario: scenario)
            let oracle = Simulator(scenario: scenario).run(.oracle)
            #expect(
                bound.blankCellFrames <= optimum, "seed \(seed): bound \(bound.blankCellFrames), optimum \(optimum)")
            #expect(
                optimum <= oracle.blankCellFrames, "seed \(seed): optimum \(optimum), oracle \(oracle.blankCellFrames)")
            for strategy in SimulationStrategy.allCases where !strategy.loadsPages {
                let result = Simulator(scenario: scenario).run(strategy)
                #expect(
                    result.blankCellFrames >= optimum,
                    "seed \(seed), \(strategy): \(result.blankCellFrames) < \(optimum)")
            }
        }
    }
}
