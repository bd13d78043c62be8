import Lookahead
import Testing

@testable import LookaheadSimulation

/// Scenario settings out of range are refused with a message before a run
/// allocates anything.
@Suite(.timeLimit(.minutes(1)))
struct SimulationScenarioValidationTests {
    func scenario(
        frameRate: Double = 60, concurrency: Int = 6, trace: ScrollTrace? = nil,
        latency: NetworkModel.LatencyDistribution = .fixed(.milliseconds(100)),
        layout: SimulationScenario.Layout = .list(rowHeights: Array(repeating: 100, count: 50)),
        viewport: Size = Size(width: 390, height: 844)
    ) -> SimulationScenario {
        SimulationScenario(
            name: "test", layout: layout, viewport: viewport, frameRate: frameRate,
            network: NetworkModel(seed: 1, latency: latency, payload: .fixed(bytes: 100)),
            maxConcurrentLoads: concurrency,
            trace: trace
                ?? ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .seconds(1), offset: 100)]))
    }

    func message(_ scenario: SimulationScenario) -> String? {
        do {
            try scenario.validate()
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aReasonableScenarioPasses() throws {
        try scenario().validate()
        for name in SimulationScenario.builtInNames {
            try #require(SimulationScenario.builtIn(named: name, seed: 1)).validate()
        }
    }

    @Test func aTraceOfTenToTheTwelveSecondsIsRefused() {
        // Given the trace 0,0 then 10¹⁵ ms, built in code (not through the CSV reader)
        let trace = ScrollTrace(samples: [
            .init(time: .zero, offset: 0), .init(time: .milliseconds(1_000_000_000_000_000), offset: 0),
        ])

        // When the scenario is checked
        // Then it is refused, naming the limit
        #expect(message(scenario(trace: trace))?.contains("more than the 24 h accepted") == true)
    }

    @Test(arguments: [Double.infinity, .nan, 0, 0.5, 1_001, -60])
    func frameRatesOutOfRangeAreRefused(frameRate: Double) {
        #expect(message(scenario(frameRate: frameRate))?.contains("frame rate must be in 1...1000") == true)
    }

    @Test func tooManyFramesAreRefused() {
        // Given a day at 1000 Hz: in range one by one, 86.4 million frames together
        let trace = ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .seconds(86_400), offset: 0)])

        // When checked
        // Then refused for its frame count; a day at 60 Hz passes
        #expect(message(scenario(frameRate: 1_000, trace: trace))?.contains("86400000 frames") == true)
        #expect(message(scenario(frameRate: 60, trace: trace)) == nil)
    }

    @Test func latenciesOutOfRangeAreRefused() {
        let cases: [(NetworkModel.LatencyDistribution, String)] = [
            (.logNormal(median: .seconds(601), p99: .seconds(700)), "median latency"),
            (.logNormal(median: .milliseconds(1), p99: .seconds(2)), "at most 1000 times"),
            (.logNormal(median: .milliseconds(10), p99: .seconds(601)), "p99 latency"),
            (.fixed(.seconds(601)), "latency must be in"),
            (.perItem([.seconds(1), .seconds(10_000)]), "per-item"),
        ]
        for (latency, expected) in cases {
            #expect(message(scenario(latency: latency))?.contains(expected) == true, "\(latency)")
        }
    }

    @Test func otherSettingsOutOfRangeAreRefused() {
        #expect(message(scenario(concurrency: 100_001))?.contains("maxConcurrentLoads") == true)
        #expect(
            message(scenario(layout: .grid(columns: 4, itemCount: 20_000_000, spacing: 2, aspectRatio: 1)))?
                .contains("grid item count") == true)
        #expect(
            message(scenario(layout: .grid(columns: 4, itemCount: 100, spacing: 2, aspectRatio: .infinity)))?
                .contains("aspect ratio") == true)
        #expect(
            message(scenario(viewport: Size(width: .infinity, height: 844)))?.contains("viewport's width") == true)
        #expect(message(scenario(layout: .list(rowHeights: [10, .nan])))?.contains("row 1") == true)
    }

    @Test func theSuiteChecksEveryScenario() {
        let suite = SimulationSuite(
            seed: 1, scenarios: [scenario(), scenario(frameRate: 5_000)], strategies: [.none])
        #expect(throws: SimulationConfigurationError.self) { try suite.validate() }
    }
}
