import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// The causal reference: futures drawn from what an app observes, on a
/// stream of their own, planned against — never under the bound, at least
/// as good as adaptive on its own gesture model, the same run for the same
/// seed, and futures that go on from the observed state.
@Suite(.queuedOnTheHeavyTestThread)
struct CausalReferenceTests {
    @Test(arguments: [("photos", UInt64(1_004)), ("fling", 1_006), ("feed", 1_002)])
    func theReferenceNeverGoesUnderTheBound(scenario name: String, seed: UInt64) async throws {
        try await onHeavyTestThread {
            // Given a built-in scenario, 6 s of it, a seed not tuned on
            let scenario = try #require(SimulationScenario.builtIn(named: name, seed: seed, duration: .seconds(6)))

            // When the causal reference runs
            let causal = try #require(Simulator(scenario: scenario).runCausalReference(samples: 8))

            // Then it leaves at least the bound's blank cell-frames, and asked for something ahead
            #expect(causal.blankCellFrames >= LowerBound(scenario: scenario, allowsHedging: true).blankCellFrames)
            #expect(causal.requests > 0)
            #expect(causal.name == "causal")
        }
    }

    @Test(arguments: ["fling", "photos"])
    func onTracesFromItsOwnGestureModelItDoesAtLeastAsWellAsAdaptive(scenario name: String) async throws {
        try await onHeavyTestThread {
            // Given a few seeds not tuned on, 20 s of each scenario's gestures
            var causal = 0
            var adaptive = 0
            for seed in UInt64(1_010)...1_013 {
                let scenario = try #require(
                    SimulationScenario.builtIn(named: name, seed: seed, duration: .seconds(20)))
                let simulator = Simulator(scenario: scenario)

                // When the causal reference and adaptive run each
                causal += try #require(simulator.runCausalReference(samples: 16)).blankCellFrames
                adaptive += simulator.run(.adaptive).blankCellFrames
            }

            // Then, summed over the seeds, it leaves no more blank cell-frames:
            // it holds adaptive's window and adds, at rest, what the futures want
            #expect(causal <= adaptive, "\(name): causal \(causal), adaptive \(adaptive)")
        }
    }

    @Test func theSameSeedGivesTheSameRunAndARecordedTraceHasNoReference() async throws {
        try await onHeavyTestThread {
            let scenario = try #require(SimulationScenario.builtIn(named: "fling", seed: 1_001, duration: .seconds(4)))
            let simulator = Simulator(scenario: scenario)
            #expect(simulator.runCausalReference(samples: 4) == simulator.runCausalReference(samples: 4))

            // A trace with no gesture model behind it (a recorded one) has no causal reference
            var recorded = scenario
            recorded.gestures = nil
            #expect(Simulator(scenario: recorded).runCausalReference(samples: 4) == nil)
        }
    }

    @Test func aFutureGoesOnFromTheObservedFlingAsTheGeneratorsFlingDoes() {
        // Given a fling released at 3,000 pt/s, as the generator steps it
        let fling = ScrollTraceGenerator.flingSamples(v0: 3_000)

        // When a future starts from a list at rest at 0 moving at 3,000 pt/s
        var random = TraceRandom(seed: 9)
        var future = TraceScroller(
            parameters: ScrollTraceGenerator.Style.flinging.parameters, maxOffset: 1_000_000, frameRate: 60,
            offset: 0, velocity: 3_000, heading: 1, using: &random)
        var offsets: [Double] = []
        for _ in 1..<fling.count {
            future.advance(using: &random)
            offsets.append(future.offset)
        }

        // Then it travels the fling's path frame by frame
        #expect(offsets == fling.dropFirst().map(\.offset))

        // And told where the fling lands, it lands there
        var told = TraceScroller(
            parameters: ScrollTraceGenerator.Style.flinging.parameters, maxOffset: 1_000_000, frameRate: 60,
            offset: 500, velocity: 100, target: 2_000, heading: 1, using: &random)
        while !told.isIdle { told.advance(using: &random) }
        #expect(abs(told.offset - 2_000) < 15)
    }
}
