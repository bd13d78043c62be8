// The demo's run as the simulator sees it: the grid, the script and the
// network the live grids have, and the simulator's verdict on them, which
// docs/real-network.md sets beside what `--compare` shows live.

#if Tools
import Lookahead
import LookaheadSimulation
import Testing

@testable import LookaheadLive

@Suite("The demo, simulated", .computeBound, .timeLimit(.minutes(1)))
struct DemoSimulationTests {
    @Test("the simulated run has the live run's grid, viewport, items, script and network")
    func theScenarioIsTheLiveRun() throws {
        // Given the demo's defaults with --compare, on the headless terminal
        let configuration = try DemoConfiguration.parse(compare: true)
        let geometry = DemoSession.geometry(
            terminalWidth: DemoConfiguration.headlessTerminal.width,
            terminalHeight: DemoConfiguration.headlessTerminal.height, lanes: 2)

        // When it is made a scenario
        let scenario = configuration.simulatedScenario()

        // Then it is the grid each lane shows, scrolled as the lanes are
        #expect(scenario.viewport == Size(width: geometry.contentWidth, height: geometry.viewportHeight))
        guard case .grid(let columns, let itemCount, let spacing, let aspectRatio) = scenario.layout else {
            Issue.record("not a grid: \(scenario.layout)")
            return
        }
        #expect(columns == geometry.columns && itemCount == configuration.itemCount)
        #expect(spacing == 0 && aspectRatio == 1)
        #expect(scenario.frameRate == configuration.frameRate)
        #expect(scenario.maxConcurrentLoads == configuration.maxConcurrentLoads)
        #expect(scenario.network.latency == .logNormal(median: .milliseconds(120), p99: .milliseconds(800)))
        #expect(scenario.network.bandwidth == .unlimited)
        #expect(scenario.trace.duration <= configuration.duration)
        #expect(throws: Never.self) { try scenario.validate() }
        // And without latency it loads at once
        let instant = try DemoConfiguration.parse(latencyMedianMilliseconds: 0, latencyP99Milliseconds: 0)
        #expect(instant.simulatedScenario().network.latency == .fixed(.zero))
    }

    @Test(
        "on a scripted fling the simulator has adaptive leave at most 0.6 times UIKit's blank cells",
        arguments: [
            UInt64(1), 2, 3,
        ])
    func flingingFavoursAdaptive(seed: UInt64) throws {
        // Given the demo's --compare run of a scripted fling (seed reported in the name)
        let configuration = try DemoConfiguration.parse(seed: seed, compare: true, script: "flinging")

        // When the simulator runs both grids' strategies on it
        let simulator = Simulator(scenario: configuration.simulatedScenario())
        let system = simulator.run(.system)
        let adaptive = simulator.run(.adaptive)

        // Then adaptive leaves at most 0.6 times system's blank cell-frames
        #expect(
            Double(adaptive.blankCellFrames) <= 0.6 * Double(system.blankCellFrames),
            "seed \(seed): adaptive \(adaptive.blankCellFrames), system \(system.blankCellFrames)")
    }
}
#endif
