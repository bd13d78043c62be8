import Foundation
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

@Suite(.queuedOnTheHeavyTestThread)
struct SimulatorTests {
    let viewport = Size(width: 390, height: 844)

    /// A steady scroll from 0 to `distance` over `seconds`, sampled at 60 Hz.
    func linearTrace(distance: Double, seconds: Int) -> ScrollTrace {
        let frames = seconds * 60
        return ScrollTrace(
            samples: (0...frames).map { frame in
                ScrollTrace.Sample(
                    time: .seconds(1) / 60.0 * frame, offset: distance * Double(frame) / Double(frames))
            })
    }

    func scenario(
        rows: Int = 300, rowHeight: Double = 100, latency: NetworkModel.LatencyDistribution,
        bandwidth: NetworkModel.Bandwidth = .unlimited, concurrency: Int, trace: ScrollTrace, seed: UInt64 = 7
    ) -> SimulationScenario {
        SimulationScenario(
            name: "test", layout: .list(rowHeights: Array(repeating: rowHeight, count: rows)), viewport: viewport,
            network: NetworkModel(seed: seed, latency: latency, payload: .fixed(bytes: 2_000), bandwidth: bandwidth),
            maxConcurrentLoads: concurrency, trace: trace)
    }

    /// Blank cell-frames no strategy can avoid with unlimited concurrency and
    /// bandwidth: an item is blank while it is visible before its latency has
    /// elapsed since time zero (with `hedging`, the faster of its first two
    /// attempts' latencies). Computed from the layout and the trace alone.
    func analyticLowerBound(_ scenario: SimulationScenario, hedging: Bool = false) -> Int {
        let layout = scenario.makeLayout()
        let maxOffset = max(0, layout.contentSize.height - scenario.viewport.height)
        let frameDuration = Duration.seconds(1) / scenario.frameRate
        let frames = Int((scenario.trace.duration / frameDuration).rounded(.down)) + 1
        var blank = 0
        for frame in 0..<frames {
            let time = frameDuration * frame
            let offset = min(max(scenario.trace.offset(at: time), 0), maxOffset)
            for path in layout.itemPaths(in: Rect(origin: Point(x: 0, y: offset), size: scenario.viewport)) {
                let item = layout.flatIndex(of: path)
                var latency = scenario.network.latency(forItem: item)
                if hedging { latency = min(latency, scenario.network.latency(forItem: item, attempt: 1)) }
                if time < latency { blank += 1 }
            }
        }
        return blank
    }

    @Test func withoutLimitsTheOracleReachesTheAnalyticBoundAndNothingBeatsIt() async {
        await onHeavyTestThread {
            // Given unlimited concurrency and bandwidth, seeded log-normal latencies
            let seed: UInt64 = 11
            let subject = scenario(
                latency: .logNormal(median: .milliseconds(300), p99: .seconds(2)), concurrency: 100_000,
                trace: linearTrace(distance: 12_000, seconds: 10), seed: seed)
            let bound = analyticLowerBound(subject)
            let hedgedBound = analyticLowerBound(subject, hedging: true)
            #expect(hedgedBound > 0)

            // When every strategy runs
            let simulator = Simulator(scenario: subject)
            let results = SimulationStrategy.allCases.map { simulator.run($0) }

            // Then the oracle, hedging where attempt 1 lands first, meets the hedged
            // bound exactly and no strategy that loads items goes below it, nor below
            // the one-attempt bound if it does not hedge (a page is one request for
            // many items, with one latency: the bound, per item, does not apply to it)
            let oracle = results.first { $0.name == "oracle" }!
            #expect(oracle.blankCellFrames == hedgedBound, "seed \(seed)")
            for result in results where !SimulationStrategy(rawValue: result.name)!.loadsPages {
                let hedges = result.name == "oracle" || result.name == "adaptive"
                #expect(result.blankCellFrames >= (hedges ? hedgedBound : bound), "\(result.name), seed \(seed)")
            }
        }
    }

    @Test func everyStrategySeesTheSameVisibleCellFrames() async {
        await onHeavyTestThread {
            let subject = scenario(
                latency: .logNormal(median: .milliseconds(120), p99: .milliseconds(800)),
                bandwidth: .bitsPerSecond(2_000_000), concurrency: 3,
                trace: ScrollTraceGenerator(
                    seed: 5, style: .flinging, duration: .seconds(20), contentHeight: 30_000, viewportHeight: 844
                ).makeTrace())
            let simulator = Simulator(scenario: subject)
            let visible = Set(SimulationStrategy.allCases.map { simulator.run($0).visibleCellFrames })
            #expect(visible.count == 1)
            #expect(visible.first! > 0)
        }
    }

    @Test func loadingEverythingInstantlyLeavesNoBlank() async {
        await onHeavyTestThread {
            let subject = scenario(
                latency: .fixed(.zero), concurrency: 100_000, trace: linearTrace(distance: 20_000, seconds: 5))
            let result = Simulator(scenario: subject).run(.all)
            #expect(result.blankCellFrames == 0)
            #expect(result.visibleCellFrames > 0)
            #expect(result.ttcMaxMs == 0)
        }
    }

    /// Six rows of 400 pt seen through a 400 pt viewport at 10 frames per
    /// second: row 0 for 300 ms, then row 1 until 1,100 ms. Row 0 takes
    /// 250 ms to load, row 1 150 ms, the others 1 s.
    func tinyScenario() -> SimulationScenario {
        let trace = ScrollTrace(samples: [
            .init(time: .zero, offset: 0), .init(time: .milliseconds(299), offset: 0),
            .init(time: .milliseconds(300), offset: 400), .init(time: .milliseconds(1_100), offset: 400),
        ])
        let latencies: [Duration] = [.milliseconds(250), .milliseconds(150)] + Array(repeating: .seconds(1), count: 4)
        return SimulationScenario(
            name: "tiny", layout: .list(rowHeights: Array(repeating: 400, count: 6)),
            viewport: Size(width: 390, height: 400), frameRate: 10,
            network: NetworkModel(seed: 1, latency: .perItem(latencies), payload: .fixed(bytes: 1_000)),
            maxConcurrentLoads: 6, trace: trace)
    }

    @Test func aHandComputedScenarioGivesExactlyTheExpectedNumbers() async {
        await onHeavyTestThread {
            // Loading on display: row 0 is blank at 0, 100, 200 ms (ready at 250);
            // row 1, asked for at 300 ms, is blank at 300 and 400 (ready at 450).
            let none = Simulator(scenario: tinyScenario()).run(.none)
            #expect(none.visibleCellFrames == 12)
            #expect(none.blankCellFrames == 5)
            #expect(none.ttcP50Ms == 150)
            #expect(none.ttcMaxMs == 250)
            #expect(none.requests == 2)
            #expect(none.completedLoads == 2)
            #expect(none.wastedLoads == 0)
            #expect(none.bytes == 2_000)

            // The oracle knows row 0 cannot arrive (250 ms) before it leaves the
            // screen (last shown at 200 ms), so it asks only for row 1, which is
            // ready at 150 ms, before it shows. Row 0's appearance ends blank
            // after the 300 ms it was on screen.
            let oracle = Simulator(scenario: tinyScenario()).run(.oracle)
            #expect(oracle.blankCellFrames == 3)
            #expect(oracle.ttcMaxMs == 300)
            #expect(oracle.requests == 1)

            // Loading everything wastes the four rows never shown (loaded at 1 s).
            let all = Simulator(scenario: tinyScenario()).run(.all)
            #expect(all.blankCellFrames == 3)
            #expect(all.completedLoads == 6)
            #expect(all.wastedLoads == 4)
            #expect(abs(all.wasteRatio - 4.0 / 6.0) < 1e-12)
        }
    }

    @Test func aStrategyBeatingTheOracleIsReported() async {
        await onHeavyTestThread {
            func result(_ name: String, blank: Int) -> StrategyResult {
                var result = Simulator(scenario: tinyScenario()).run(.none)
                result.name = name
                result.blankCellFrames = blank
                return result
            }
            let findings = SimulationReport.Scenario.findings(for: [
                result("oracle", blank: 100), result("system", blank: 120), result("texture", blank: 90),
            ])
            #expect(findings.count == 1)
            #expect(findings.first?.contains("texture beats the oracle") == true)
            #expect(findings.first?.contains("10 fewer") == true)
        }
    }

    @Test func theSameSeedGivesByteIdenticalJSON() throws {
        func json(seed: UInt64) throws -> Data {
            let scenario = SimulationScenario.builtIn(named: "fling", seed: seed, duration: .seconds(5))!
            let report = SimulationSuite(seed: seed, scenarios: [scenario], strategies: SimulationStrategy.allCases)
                .run()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(report)
        }
        let first = try json(seed: 42)
        #expect(try json(seed: 42) == first)
        #expect(try json(seed: 43) != first)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theAdaptivePolicyLeavesFewerBlanksThanUIKitsWindowInFlings(seed: UInt64) async {
        await onHeavyTestThread {
            // Given 20 s of long flings with reversals over the feed's table
            let scenario = SimulationScenario.builtIn(named: "fling", seed: seed, duration: .seconds(20))!
            let simulator = Simulator(scenario: scenario)

            // When UIKit's window and the adaptive policy both run
            let system = simulator.run(.system)
            let adaptive = simulator.run(.adaptive)

            // Then the adaptive policy leaves fewer blank cell-frames
            #expect(adaptive.blankCellFrames < system.blankCellFrames, "seed \(seed)")
        }
    }

    @Test func pagesAskedForAPageAheadSpareTheWaitAtTheBottom() async {
        await onHeavyTestThread {
            // Given a steady scroll through 300 rows at 30 rows a second, pages of
            // 15 that take 200 ms whatever their size
            let subject = scenario(
                rows: 300, latency: .fixed(.milliseconds(200)), concurrency: 6,
                trace: linearTrace(distance: 300 * 100 - 844, seconds: 9))
            let simulator = Simulator(scenario: subject)

            // When the tutorial's trigger (the last row is shown) and a page of prefetch distance both run
            let batch = simulator.run(.batch)
            let paged = simulator.run(.pagedFixed)

            // Then the tutorial waits at the bottom of every page; a page ahead
            // waits only for the first page, like everyone
            #expect(batch.bottomWaitMs > 1_000)
            #expect(paged.bottomWaitMs < batch.bottomWaitMs / 2)
            #expect(paged.blankCellFrames < batch.blankCellFrames / 2)
            // and both load pages, not rows: 20 pages, and the request that finds the end
            #expect(batch.requests <= 21)
            #expect(paged.requests <= 21)
            // while the other strategies have no bottom to wait at
            #expect(simulator.run(.system).bottomWaitMs == 0)
        }
    }

    @Test func everyBuiltInScenarioExists() async {
        await onHeavyTestThread {
            for name in SimulationScenario.builtInNames {
                let scenario = SimulationScenario.builtIn(named: name, seed: 1, duration: .seconds(2))
                #expect(scenario != nil, "\(name)")
            }
            #expect(SimulationScenario.builtIn(named: "nope", seed: 1) == nil)
        }
    }
}
