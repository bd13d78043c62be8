#if Tools
import Foundation
import Lookahead
import LookaheadServer
import LookaheadSimulation
import Testing

@testable import LookaheadLive

/// Real replays of tiny scenarios against the embedded feed server. The
/// assertions are about geometry, counts and identities; the few whose
/// outcome depends on what lands within the trace's real time are
/// `.timingBound` (not run under ThreadSanitizer).
@Suite("Real replay", .realTime, .timeLimit(.minutes(1)))
struct ReplayTests {
    @Test(
        "Every visible cell-frame is counted: the same number as the simulator's for the trace",
        arguments: [SimulationStrategy.none, .batch, .paged, .nuke, .adaptive, .swiftui])
    func visibleCellFramesMatchTheSimulator(strategy: SimulationStrategy) async throws {
        // Given a tiny scenario
        let scenario = ReplayTestScenario.make()
        // When it is replayed for real and simulated
        let real = try await RealReplay(scenario: scenario).run(strategy)
        let simulated = Simulator(scenario: scenario).run(strategy)
        // Then the geometry agrees frame for frame, whatever the runtime did
        #expect(real.result.visibleCellFrames == simulated.visibleCellFrames)
        #expect(real.frames == Int((scenario.trace.duration / (.seconds(1) / 60)).rounded(.down)) + 1)
        #expect(real.result.blankCellFramesPerSecond.reduce(0, +) == real.result.blankCellFrames)
        #expect(real.result.blankCellFrames <= real.result.visibleCellFrames)
        #expect(real.result.name == strategy.rawValue)
    }

    @Test("`adaptive` replays with the fetcher hedging as the simulator's does; `system` without")
    func adaptiveHedgesLikeTheSimulator() async throws {
        // Given a list at rest whose every response takes 400 ms, far past the first screen's
        // hedging prior, and a slot for every row: the first screen's cells stay on screen, and
        // their hedges wait for no slot. (Scrolling over 4 slots, a hedge started only if one of
        // the first loads landed while another's cell was still on screen: on a busy machine the
        // first loads landed together, and none did.)
        let scenario = ReplayTestScenario.make(
            trace: ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .milliseconds(1_000), offset: 0)]),
            latency: .milliseconds(400), concurrency: ReplayTestScenario.rowCount)
        // When `adaptive` and `system` are replayed
        let adaptive = try await RealReplay(scenario: scenario).run(.adaptive)
        let system = try await RealReplay(scenario: scenario).run(.system)
        // Then the first screen's slow display loads were hedged under `adaptive` only, as simulated
        let simulated = Simulator(scenario: scenario).run(.adaptive)
        #expect(simulated.requests > simulated.completedLoads, "the simulator hedges here")
        #expect(adaptive.fetchStatistics.hedgesStarted > 0)
        // (at most one per load; not necessarily the simulator's count: under ThreadSanitizer, on one
        // core beside three busy loops, frames seconds late, a run hedged 5 loads against the simulator's 4)
        let fetched = adaptive.fetchStatistics
        #expect(fetched.hedgesStarted <= fetched.loadsStarted - fetched.hedgesStarted)
        #expect(system.fetchStatistics.hedgesStarted == 0)
    }

    @Test(
        "A hedge asks the server for the next attempt's latency, as the simulator draws it, and can win", .timingBound)
    func aHedgeDrawsTheNextAttempt() async throws {
        // Given a network whose first item is slow on its first attempt and fast on its second,
        // and a list at rest, so that item 0's cell stays on screen and wants its load at `.high`
        // (a scroll carries it off within three frames, and the policy lowers a passing cell's
        // request, and with it the hedge waiting for a slot), with a slot for every row, so that
        // the hedge starts at the prior, waiting for no other load to land (over 4 slots, on one
        // core beside three busy loops, the hedge lost once in 8 runs)
        var scenario = ReplayTestScenario.make(
            trace: ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .milliseconds(1_000), offset: 0)]),
            concurrency: ReplayTestScenario.rowCount)
        scenario.network.latency = .logNormal(median: .milliseconds(120), p99: .milliseconds(800))
        let seed = try #require(
            (1...10_000 as ClosedRange<UInt64>).first { seed in
                var network = scenario.network
                network.seed = seed
                return network.latency(forItem: 0, attempt: 0) > .milliseconds(700)
                    && network.latency(forItem: 0, attempt: 1) < .milliseconds(100)
            })
        scenario.network.seed = seed
        // When `adaptive` is replayed: item 0 is on the first screen, hedged after the prior
        let outcome = try await RealReplay(scenario: scenario).run(.adaptive)
        // Then a hedge landed first
        #expect(outcome.fetchStatistics.hedgesWon > 0, "seed \(seed)")
    }

    @Test("A page whose first attempt fails is loaded again when the paging machine's retry is due", .timingBound)
    func failedPagesAreRetriedByThePagingMachine() async throws {
        // Given a network whose first attempt at the first page (the first screen's rows)
        // fails and the second does not, and whose first attempt at the rest does not fail
        var scenario = ReplayTestScenario.make(trace: ReplayTestScenario.downwardThenRest(until: .milliseconds(1_500)))
        scenario.network.failureRate = 0.5
        let rest = LoadKeys(strategy: .pagedFixed, scenario: scenario).firstPageSize
        let seed = try #require(
            (1...1_000 as ClosedRange<UInt64>).first { seed in
                var network = scenario.network
                network.seed = seed
                return network.fails(item: 0, attempt: 0) && !network.fails(item: 0, attempt: 1)
                    && !network.fails(item: rest, attempt: 0)
            })
        scenario.network.seed = seed
        // When `paged-fixed` is replayed
        let real = try await RealReplay(scenario: scenario).run(.pagedFixed)
        // Then the page was asked for again, after the machine's delay, and arrived
        #expect(real.result.requests > real.result.completedLoads, "seed \(seed)")
        #expect(real.result.completedLoads >= 1, "seed \(seed)")
        #expect(real.result.blankCellFrames < real.result.visibleCellFrames, "seed \(seed)")
    }

    @Test(
        "With instant-ish latency, `all` loads every item once, with the right ids, and the server counts every GET",
        .timingBound)
    func allLoadsEveryItem() async throws {
        // Given 40 items at 2 ms each, and a rest after the scroll for the loads to finish
        let scenario = ReplayTestScenario.make(
            trace: ReplayTestScenario.downwardThenRest(until: .seconds(4)), latency: .milliseconds(2))
        // When `all` is replayed
        let outcome = try await RealReplay(scenario: scenario).run(.all)
        let result = outcome.result
        // Then every item was loaded once and arrived (a body for another id fails the load)
        #expect(result.completedLoads == ReplayTestScenario.rowCount)
        #expect(outcome.fetchStatistics.loadsFailed == 0)
        #expect(result.requests == ReplayTestScenario.rowCount)
        #expect(result.cancellations == 0)
        // and the server saw exactly the replay's requests
        let server = try #require(outcome.serverStatistics)
        #expect(server.requests == result.requests)
        #expect(server.completed == result.requests)
        // and the bytes are the simulator's payload sizes (the server pads to them)
        let expectedBytes = (0..<ReplayTestScenario.rowCount).reduce(0) {
            $0 + scenario.network.payloadBytes(forItem: $1)
        }
        #expect(result.bytes == expectedBytes)
        #expect(result.peakCacheBytes == expectedBytes)
        // and few cells were blank: everything lands early in the run
        #expect(result.blankCellFrames * 2 < result.visibleCellFrames)
    }

    @Test("A reversal makes `system` cancel prefetches in flight, and the server sees them end", .timingBound)
    func cancellationsReachTheServer() async throws {
        // Given loads slow enough to be in flight when the scroll reverses,
        // and a rest at the end for the others to finish
        let scenario = ReplayTestScenario.make(
            trace: ReplayTestScenario.reversal(restUntil: .milliseconds(2_500)), latency: .milliseconds(250))
        // When `system` is replayed
        let outcome = try await RealReplay(scenario: scenario).run(.system)
        // Then prefetches were cancelled, and requests ended by the client reached the server:
        // no more than the loads cancelled during the run, and those the run's teardown cancelled,
        // still running when the trace ended (none on an idle machine; on a busy one, whose frames
        // ran up to a second late, 4 of 20)
        #expect(outcome.result.cancellations > 0)
        let server = try #require(outcome.serverStatistics)
        let fetched = outcome.fetchStatistics
        let runningAtTheEnd =
            fetched.loadsStarted - fetched.loadsCompleted - fetched.loadsFailed - fetched.loadsCancelled
        #expect(server.endedByClient > 0)
        #expect(
            server.endedByClient <= outcome.result.cancellations + runningAtTheEnd,
            "\(runningAtTheEnd) loads running at the end, \(outcome.lateFrames) late frames")
        // (a load cancelled while its connection opens may never reach the server)
        #expect(server.requests <= outcome.result.requests)
        #expect(server.requests > 0)
    }

    @Test("The real report's JSON has the simulator's shape")
    func jsonHasTheSimulatorsShape() async throws {
        // Given a real and a simulated run of the same scenario
        let scenario = ReplayTestScenario.make()
        let real = try await RealReplay(scenario: scenario).run(.system)
        let simulated = SimulationSuite(seed: 7, scenarios: [scenario], strategies: [.system]).run()
        let realReport = SimulationReport(
            seed: 7, scenarios: [SimulationReport.Scenario(scenario: scenario, strategies: [real.result])])
        // When both are encoded
        let realJSON = try jsonObject(realReport)
        let simulatedJSON = try jsonObject(simulated)
        // Then they have the same keys, at every level
        #expect(Set(realJSON.keys) == Set(simulatedJSON.keys))
        let realScenario = try #require((realJSON["scenarios"] as? [[String: Any]])?.first)
        let simulatedScenario = try #require((simulatedJSON["scenarios"] as? [[String: Any]])?.first)
        #expect(Set(realScenario.keys) == Set(simulatedScenario.keys))
        let realStrategy = try #require((realScenario["strategies"] as? [[String: Any]])?.first)
        let simulatedStrategy = try #require((simulatedScenario["strategies"] as? [[String: Any]])?.first)
        #expect(Set(realStrategy.keys) == Set(simulatedStrategy.keys))
        #expect(realStrategy["visibleCellFrames"] as? Int == simulatedStrategy["visibleCellFrames"] as? Int)
    }

    @Test("The oracle is not replayable")
    func oracleIsRejected() async throws {
        await #expect(throws: RealReplayError.notReplayable(.oracle)) {
            _ = try await RealReplay(scenario: ReplayTestScenario.make()).run(.oracle)
        }
    }

    func jsonObject(_ report: SimulationReport) throws -> [String: Any] {
        let data = try JSONEncoder().encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
#endif
