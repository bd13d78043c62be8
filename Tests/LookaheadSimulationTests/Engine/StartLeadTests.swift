import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// A start lead: the app starts the first screen's loads before the view
/// shows it (`AsyncFetcher.prefetchFirstScreen(_:)`), every strategy alike,
/// and the lower bound lets the first screen's loads start that early.
@Suite(.queuedOnTheHeavyTestThread)
struct StartLeadTests {
    /// Rows of 100 pt, still for `rest` seconds and then scrolled steadily
    /// 12,000 pt over 6 s, a fixed latency, no limit on the link or the loads.
    func scenario(latency: Duration, lead: Duration, rest: Int = 1) -> SimulationScenario {
        let (still, moving) = (rest * 60, 6 * 60)
        let trace = ScrollTrace(
            samples: (0...(still + moving)).map { frame in
                ScrollTrace.Sample(
                    time: .seconds(1) / 60.0 * frame, offset: 12_000 * Double(max(0, frame - still)) / Double(moving))
            })
        var scenario = SimulationScenario(
            name: "lead", layout: .list(rowHeights: Array(repeating: 100, count: 400)),
            network: NetworkModel(
                seed: 5, latency: .fixed(latency), payload: .fixed(bytes: 2_000), bandwidth: .unlimited),
            maxConcurrentLoads: 100_000, trace: trace)
        scenario.startLead = lead
        return scenario
    }

    @Test func aLeadAsLongAsTheLatencyShowsTheFirstScreenAtOnce() async {
        await onHeavyTestThread {
            // Given a 200 ms latency, and the first screen (9 rows) asked for 200 ms
            // before it shows, or with the view
            let latency = Duration.milliseconds(200)
            let withLead = scenario(latency: latency, lead: latency)
            let without = scenario(latency: latency, lead: .zero)

            for strategy in [SimulationStrategy.none, .texture, .adaptive] {
                // When the strategy runs on each
                let led = Simulator(scenario: withLead).run(strategy)
                let plain = Simulator(scenario: without).run(strategy)

                // Then without the lead the first screen is blank for the latency's
                // 12 frames; with it, the first second shows no blank cell
                #expect(plain.blankCellFramesPerSecond.first ?? 0 >= 9 * 12, "\(strategy)")
                #expect(led.blankCellFramesPerSecond.first == 0, "\(strategy)")
                #expect(led.blankCellFrames <= plain.blankCellFrames - 9 * 12, "\(strategy)")
            }
        }
    }

    @Test func theBoundLetsTheFirstScreenStartAtTheLeadAndStaysUnderEveryStrategy() async {
        await onHeavyTestThread {
            // Given a latency longer than the lead, and a scroll that starts at once
            let latency = Duration.milliseconds(300)
            let led = scenario(latency: latency, lead: .milliseconds(100), rest: 0)
            let plain = scenario(latency: latency, lead: .zero, rest: 0)

            // When the bound is computed with the lead, and without
            let bound = LowerBound(scenario: led).blankCellFrames
            let plainBound = LowerBound(scenario: plain).blankCellFrames

            // Then it is lower with the lead (the first screen waits 100 ms less), but
            // not by more than the first screen's 6 frames (the rest start with the
            // view), and no strategy given the lead goes under it
            #expect(bound < plainBound)
            #expect(bound >= plainBound - 10 * 6)
            for strategy in [SimulationStrategy.none, .system, .texture, .adaptive, .oracle] {
                #expect(bound <= Simulator(scenario: led).run(strategy).blankCellFrames, "\(strategy)")
            }
        }
    }

    @Test func aBuiltInScenarioWithALeadStaysAboveItsBound() async throws {
        try await onHeavyTestThread {
            // Given photos (a limited link, decoding, flings), 4 s, with a 300 ms lead
            var photos = try #require(SimulationScenario.builtIn(named: "photos", seed: 1_003, duration: .seconds(4)))
            photos.startLead = .milliseconds(300)
            let bound = LowerBound(scenario: photos).blankCellFrames

            // When every per-item strategy runs, Then none goes under the bound
            for strategy in SimulationStrategy.allCases where !strategy.loadsPages {
                #expect(bound <= Simulator(scenario: photos).run(strategy).blankCellFrames, "\(strategy)")
            }
        }
    }

    @Test func aLeadOutOfRangeIsRejectedWithTheReason() {
        var bad = scenario(latency: .milliseconds(10), lead: .seconds(11))
        do {
            try bad.validate()
            Issue.record("an 11 s lead accepted")
        } catch {
            #expect(error.message.contains("the start lead must be in [0, 10] s"))
        }
        bad.startLead = .milliseconds(-1)
        #expect(throws: SimulationConfigurationError.self) { try bad.validate() }
    }
}
