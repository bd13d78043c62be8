import Foundation
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// A scenario's decode stage: each load's data is ready to show its service
/// time after it is in, decodes wait for one of the slots (the most urgent
/// first), the run says how often they waited, and the bound counts it.
@Suite(.queuedOnTheHeavyTestThread)
struct DecodingStageTests {
    /// Rows of 100 pt under a steady scroll of `distance` over `seconds`, a
    /// fixed latency, no limit on the link.
    func scenario(
        latency: Duration, concurrency: Int = 100_000, decoding: SimulationScenario.DecodeModel?,
        distance: Double = 12_000, seconds: Int = 6
    ) -> SimulationScenario {
        let frames = seconds * 60
        let trace = ScrollTrace(
            samples: (0...frames).map { frame in
                ScrollTrace.Sample(
                    time: .seconds(1) / 60.0 * frame, offset: distance * Double(frame) / Double(frames))
            })
        var scenario = SimulationScenario(
            name: "decoding", layout: .list(rowHeights: Array(repeating: 100, count: 400)),
            network: NetworkModel(
                seed: 3, latency: .fixed(latency), payload: .fixed(bytes: 2_000), bandwidth: .unlimited),
            maxConcurrentLoads: concurrency, trace: trace)
        scenario.decoding = decoding
        return scenario
    }

    @Test func aDecodeDelaysTheDataByItsServiceTimeAsTheBoundSays() async {
        await onHeavyTestThread {
            // Given a fixed 100 ms latency, and decodes of 50 ms with a slot for every load
            let plain = scenario(latency: .milliseconds(100), decoding: nil)
            let decoding = scenario(
                latency: .milliseconds(100), decoding: .init(serviceTime: .milliseconds(50), slots: 1_000))
            let later = scenario(latency: .milliseconds(150), decoding: nil)

            // When the oracle runs on each
            let oracle = Simulator(scenario: decoding).run(.oracle)

            // Then decoding costs what 50 ms more of latency costs, no decode waited, and
            // the bound says so too
            #expect(oracle.blankCellFrames == Simulator(scenario: later).run(.oracle).blankCellFrames)
            #expect(oracle.blankCellFrames > Simulator(scenario: plain).run(.oracle).blankCellFrames)
            #expect(oracle.decoding?.waited == 0)
            #expect(oracle.decoding?.decodes == oracle.completedLoads)
            #expect(LowerBound(scenario: decoding).blankCellFrames == LowerBound(scenario: later).blankCellFrames)
        }
    }

    @Test func tooFewSlotsMakeDecodesWaitAndCellsBlank() async {
        await onHeavyTestThread {
            // Given 50 new rows a second, each decoded for 40 ms (a slot decodes 25 a second)
            let service = Duration.milliseconds(40)
            let one = scenario(
                latency: .milliseconds(50), decoding: .init(serviceTime: service, slots: 1), distance: 30_000)
            let four = scenario(
                latency: .milliseconds(50), decoding: .init(serviceTime: service, slots: 4), distance: 30_000)

            // When the adaptive strategy runs with one decode slot, and with four
            let narrow = Simulator(scenario: one).run(.adaptive)
            let wide = Simulator(scenario: four).run(.adaptive)

            // Then with one slot decodes wait (at least a decode's time at worst) and
            // more cells are blank; the bound, which leaves waits out, stays below both
            let narrowStats = try! #require(narrow.decoding)
            let wideStats = try! #require(wide.decoding)
            #expect(narrowStats.waited > 0)
            #expect(narrowStats.waitMaxMs >= 40)
            #expect(narrowStats.waited > wideStats.waited)
            #expect(narrow.blankCellFrames > wide.blankCellFrames)
            let bound = LowerBound(scenario: one).blankCellFrames
            #expect(bound <= wide.blankCellFrames)
        }
    }

    @Test func onlyScenariosThatDecodeReportDecodes() throws {
        // Given the built-in photo grid (it decodes) and feed (it does not)
        let photos = try #require(SimulationScenario.builtIn(named: "photos", seed: 1, duration: .seconds(2)))
        let feed = try #require(SimulationScenario.builtIn(named: "feed", seed: 1, duration: .seconds(2)))
        #expect(photos.decoding == .photoThumbnails)
        #expect(feed.decoding == nil)

        // When each runs, Then only the grid reports decodes, and the feed's JSON has no trace of them
        #expect(Simulator(scenario: photos).run(.adaptive).decoding != nil)
        let result = Simulator(scenario: feed).run(.adaptive)
        #expect(result.decoding == nil)
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(!json.contains("decoding"))
    }

    @Test func aDecodeModelOutOfRangeIsRejectedWithTheReason() {
        var bad = scenario(latency: .milliseconds(10), decoding: .init(serviceTime: .zero, slots: 2))
        #expect(throws: SimulationConfigurationError.self) { try bad.validate() }
        bad.decoding = .init(serviceTime: .milliseconds(5), slots: 0)
        do {
            try bad.validate()
            Issue.record("slots 0 accepted")
        } catch {
            #expect(error.message.contains("decoding slots must be in 1...1000, got 0"))
        }
    }
}
