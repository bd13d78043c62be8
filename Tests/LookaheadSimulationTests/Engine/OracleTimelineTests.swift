import Lookahead
import Testing

@testable import LookaheadSimulation

/// The oracle's just-in-time model: its slot choice, the filling of the
/// link's idle time, and its predictions against the simulator.
@Suite(.timeLimit(.minutes(1)))
struct OracleTimelineTests {
    /// Three rows on screen for a second, a 1 Mbit/s link (6,250 bytes: 50 ms).
    func staticScenario(latencies: [Int], slots: Int) -> SimulationScenario {
        SimulationScenario(
            name: "static", layout: .list(rowHeights: Array(repeating: 100, count: latencies.count)),
            viewport: Size(width: 390, height: Double(100 * latencies.count)),
            network: NetworkModel(
                seed: 1, latency: .perItem(latencies.map { .milliseconds($0) }), payload: .fixed(bytes: 6_250),
                bandwidth: .bitsPerSecond(1_000_000)),
            maxConcurrentLoads: slots,
            trace: ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .seconds(1), offset: 0)]))
    }

    func timeline(_ scenario: SimulationScenario) -> OracleTimeline {
        OracleTimeline(scenario: scenario, visibility: ScenarioVisibility(scenario: scenario))
    }

    @Test func aLoadTakesTheSlotFreedLastByTheTimeItIsWanted() {
        // Given slots freeing at 10 and 50, one at 90
        let model = timeline(staticScenario(latencies: [10], slots: 3))
        let ends = [10.0, 50, 90]

        // Then a load wanted at 60 takes the one freed at 50, leaving 10 for a
        // long latency released earlier; one wanted before any frees waits for the first
        #expect(model.bestSlot(in: ends, wantedAt: 60) == 1)
        #expect(model.bestSlot(in: ends, wantedAt: 100) == 2)
        #expect(model.bestSlot(in: ends, wantedAt: 5) == 0)
    }

    @Test func aLongLatencyLaterInTheOrderFindsTheSlotTheShortOnesLeftFree() {
        // Given three slots, three items of 10 ms latency then one of 201 ms
        let scenario = staticScenario(latencies: [10, 10, 10, 201], slots: 3)
        let model = timeline(scenario)

        // When the model releases them just in time
        let releases = model.releases(of: [0, 1, 2, 3])

        // Then item 2 (wanted at 100 ms) takes the slot item 0 freed at 60 ms,
        // not the one never used, so item 3 starts at once and its latency
        // overlaps the transfers before it (first free: released at 60 ms)
        let release = Dictionary(uniqueKeysWithValues: releases.map { ($0.item, $0.time) })
        #expect(release[2] == .milliseconds(100))
        #expect(release[3] == .zero)
        // and the simulator shows what the model predicts
        let run = Simulator(scenario: scenario).runTimed(.oracle, plan: .searched(releases)).result
        let search = OracleSearch(timeline: model, deadlineOrder: [0, 1, 2, 3], budget: 0)
        let predicted = ScenarioVisibility(scenario: scenario).visibleCellFrames - search.predictedShown([0, 1, 2, 3])
        #expect(run.blankCellFrames == predicted)
    }

    @Test func aShortLatencyFillsTheLinkWhileALongOneWaits() {
        // Given three slots and items of 100, 400 and 10 ms latency, in that order
        let scenario = staticScenario(latencies: [100, 400, 10], slots: 3)
        let model = timeline(scenario)

        // When the link's idle time is filled
        let filled = model.filled([0, 1, 2], lookahead: 8)

        // Then item 2 transfers while item 1 waits for its first byte, and it shows more
        #expect(filled == [0, 2, 1])
        let search = OracleSearch(timeline: model, deadlineOrder: [0, 1, 2], budget: 0)
        #expect(search.predictedShown(filled) > search.predictedShown([0, 1, 2]))
    }

    /// Forty random rows scrolled in four seconds over a shared link with
    /// three slots and long-tailed latencies (median 80 ms).
    func randomList(seed: UInt64, p99: Duration) -> SimulationScenario {
        var random = TraceRandom(seed: seed)
        let heights = (0..<40).map { _ in Double(Int.random(in: 60...140, using: &random)) }
        let distance = heights.reduce(0, +) - 400
        return SimulationScenario(
            name: "random", layout: .list(rowHeights: heights), viewport: Size(width: 390, height: 400),
            network: NetworkModel(
                seed: seed, latency: .logNormal(median: .milliseconds(80), p99: p99),
                payload: .uniform(20_000...60_000), bandwidth: .bitsPerSecond(4_000_000)),
            maxConcurrentLoads: 3,
            trace: ScrollTrace(
                samples: (0...240).map { .init(time: .seconds(1) / 60.0 * $0, offset: distance * Double($0) / 240) }))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func theModelPredictsWhatTheSimulatorShowsForFilledOrders(seed: UInt64) {
        // Given a random list scrolled over a shared link with three slots and long-tailed latencies
        let scenario = randomList(seed: seed, p99: .milliseconds(400))
        let visibility = ScenarioVisibility(scenario: scenario)
        let model = timeline(scenario)
        let search = OracleSearch(timeline: model, deadlineOrder: visibility.itemsByFirstAppearance, budget: 0)

        // When the deadline order, filled, runs just in time in the simulator
        let order = model.filled(visibility.itemsByFirstAppearance, lookahead: 32)
        let run = Simulator(scenario: scenario).runTimed(.oracle, plan: .searched(model.releases(of: order))).result

        // Then the simulator shows exactly what the model predicts
        #expect(
            run.blankCellFrames == visibility.visibleCellFrames - search.predictedShown(order),
            "seed \(seed): simulated \(run.blankCellFrames), predicted \(visibility.visibleCellFrames - search.predictedShown(order))"
        )
    }
}
