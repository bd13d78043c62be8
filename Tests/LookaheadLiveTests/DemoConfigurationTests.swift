#if Tools
import Foundation
import Lookahead
import LookaheadServer
import LookaheadSimulation
import Testing

@testable import LookaheadLive

@Suite("Demo arguments", .timeLimit(.minutes(1)))
struct DemoConfigurationTests {
    func message(_ body: () throws(DemoConfigurationError) -> DemoConfiguration) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the defaults: adaptive, 15 s, 120 ms median, 800 ms p99, scripted skimming, no comparison")
    func defaults() throws {
        let configuration = try DemoConfiguration.parse()
        #expect(configuration.strategy == .adaptive)
        #expect(configuration.duration == .seconds(15))
        #expect(configuration.latencyMedian == .milliseconds(120))
        #expect(configuration.latencyP99 == .milliseconds(800))
        #expect(configuration.script == .skimming)
        #expect(configuration.strategies == [.adaptive])
        #expect(!configuration.isInteractive)
        #expect(configuration.serverURL == nil)
        #expect("\(configuration.logLevel)" == "info")
    }

    @Test("every strategy name parses; texture is 2.5 screens ahead and 1.5 behind; none turns prefetching off")
    func strategies() throws {
        for strategy in DemoStrategy.allCases {
            #expect(try DemoConfiguration.parse(strategy: strategy.rawValue).strategy == strategy)
        }
        guard
            case .screens(leading: let leading, trailing: let trailing) = DemoStrategy.texture.prefetchPolicy.kind
        else {
            Issue.record("texture is not a screens policy")
            return
        }
        #expect(leading == 2.5 && trailing == 1.5)
        #expect(!DemoStrategy.none.isPrefetchingEnabled)
        #expect(DemoStrategy.adaptive.isPrefetchingEnabled)
    }

    @Test("bad values are rejected with the option, the value and what was expected")
    func rejections() {
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(strategy: "fast") }
                == "--strategy: unknown strategy 'fast'; expected one of adaptive, system, texture, none")
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(durationSeconds: 0) }
                == "--duration: expected seconds above 0 and at most 3600, got 0.0")
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(durationSeconds: .nan) }?.hasPrefix(
                "--duration:") == true)
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(latencyMedianMilliseconds: -1) }
                == "--latency-median must be in 0...600000 ms, got -1")
        #expect(
            message { () throws(DemoConfigurationError) in
                try .parse(latencyMedianMilliseconds: 500, latencyP99Milliseconds: 100)
            } == "--latency-p99 must be at least --latency-median (500 ms) and at most 600000 ms, got 100")
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(interactive: true, showsUI: false) }?
                .hasPrefix("--interactive: needs the grid on a terminal") == true)
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(server: "ftp://example.com") }
                == "--server: expected an http:// URL such as http://127.0.0.1:8080, got 'ftp://example.com'")
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(concurrency: 0) }
                == "--concurrency: expected 1 to 64 loads at once, got 0")
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(logLevel: "loud") }?.hasPrefix(
                "--log-level: unknown level 'loud'") == true)
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(frameRate: 0) }?.hasPrefix("--frame-rate:")
                == true)
        #expect(
            message { () throws(DemoConfigurationError) in try .parse(items: 0) }?.hasPrefix("--items:") == true)
    }

    @Test("a server URL and fractional milliseconds are kept")
    func serverAndLatencies() throws {
        let configuration = try DemoConfiguration.parse(
            latencyMedianMilliseconds: 12.5, latencyP99Milliseconds: 12.5, server: "http://127.0.0.1:8080")
        #expect(configuration.serverURL?.port == 8080)
        #expect(configuration.latencyMedian == .microseconds(12_500))
        #expect(configuration.latencyP99 == configuration.latencyMedian)
    }

    @Test("the demo takes exactly the latencies its feed server takes: one rule, zero included")
    func latenciesFollowTheServersRule() {
        // Given medians and 99th percentiles around every edge of the server's
        // rule (zero, the ratio of 1,000, the ten-minute cap), in milliseconds
        let medians = [-1, 0, 0.25, 1, 120, 599_999, 600_000, 600_001]
        let p99s = [-1, 0, 0.25, 1, 120, 250, 1_000, 1_001, 120_000, 600_000, 600_001]
        var disagreements: [String] = []
        for median in medians {
            for p99 in p99s {
                // When the demo parses them and the server checks them
                let demo = message { () throws(DemoConfigurationError) in
                    try .parse(latencyMedianMilliseconds: median, latencyP99Milliseconds: p99)
                }
                var faults = FaultInjection()
                faults.latencyMedian = .microseconds(Int64((median * 1_000).rounded()))
                faults.latencyP99 = .microseconds(Int64((p99 * 1_000).rounded()))
                let server: String?
                do {
                    try faults.validate()
                    server = nil
                } catch {
                    server = error.description
                }
                // Then both accept, or both refuse
                if (demo == nil) != (server == nil) {
                    disagreements.append("\(median)/\(p99): demo \(demo ?? "accepts"), server \(server ?? "accepts")")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "; "))")
    }

    @Test("each grid runs its strategy as it ships: adaptive through a coordinator, hedging as the simulator does")
    func gridsRunWhatShips() {
        // The adaptive grid plans as an app's coordinator does and hedges as
        // the simulator's adaptive does; the others are a view's own window
        // without hedging, as UIKit's and Texture's are
        #expect(DemoStrategy.adaptive.plansWithCoordinator)
        #expect(DemoStrategy.adaptive.fetcherHedging == AdaptiveSettings.shipped().fetcherHedging)
        #expect(DemoStrategy.adaptive.fetcherHedging != .off)
        guard case .adaptive = DemoStrategy.adaptive.prefetchPolicy.kind else {
            Issue.record("the adaptive grid's policy is not the shipped .adaptive")
            return
        }
        for strategy in [DemoStrategy.system, .texture, .none] {
            #expect(!strategy.plansWithCoordinator)
            #expect(strategy.fetcherHedging == .off)
            #expect(strategy.fetcherHedging == strategy.simulationStrategy.fetcherHedging)
        }
    }

    @Test("with --compare each grid has its own connections and the grids take turns to go first")
    func gridsDoNotQueueForEachOther() throws {
        // Each grid's fetcher runs up to --concurrency loads: the loader keeps
        // that many connections for each grid
        let single = try DemoConfiguration.parse(concurrency: 6)
        let compared = try DemoConfiguration.parse(concurrency: 6, compare: true)
        #expect(DemoFeedSource.connections(for: single) == 6)
        #expect(DemoFeedSource.connections(for: compared) == 12)
        // And over any two frames in a row, each grid steps first once
        for frame in 0..<10 {
            let firsts = [frame, frame + 1].map { DemoSession.steppingOrder(lanes: 2, frame: $0).first }
            #expect(Set(firsts.compactMap { $0 }) == [0, 1])
            #expect(DemoSession.steppingOrder(lanes: 2, frame: frame).sorted() == [0, 1])
        }
        #expect(DemoSession.steppingOrder(lanes: 1, frame: 3) == [0])
    }
}
#endif
