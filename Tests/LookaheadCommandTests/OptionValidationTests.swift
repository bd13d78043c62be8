#if Tools
import ArgumentParser
import Foundation
import LookaheadLive
import LookaheadSimulation
import Testing

@testable import lookahead

/// Every numeric option is range-checked by its command's parser, with a
/// message naming it: the reproductions that trapped (exit 132) are refused.
@Suite(.timeLimit(.minutes(1)))
struct OptionValidationTests {
    /// The message `command` gives for `arguments`, or `nil` if they parse.
    func refusal<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> String? {
        do {
            _ = try command.parseAsRoot(arguments)
            return nil
        } catch {
            return command.message(for: error)
        }
    }

    @Test(arguments: [
        (["--duration", "inf"], "--duration must be above 0 and at most 86400 seconds"),
        (["--duration", "1e7"], "--duration must be above 0 and at most 86400 seconds"),
        (["--duration", "nan"], "--duration must be above 0"),
        (["--frame-rate", "inf"], "--frame-rate must be in 1...1000 frames per second, got inf"),
        (["--frame-rate", "1e9"], "--frame-rate must be in 1...1000"),
        (["--frame-rate", "0.5"], "--frame-rate must be in 1...1000"),
        (["--duration", "86400", "--frame-rate", "1000"], "86400000 frames, more than the 5184000 accepted"),
        (
            ["--latency-median", "inf", "--latency-p99", "inf"],
            "--latency-median must be above 0 and at most 600000 ms"
        ),
        (["--latency-median", "100", "--latency-p99", "inf"], "--latency-p99 must be at least --latency-median"),
        (
            ["--latency-median", "1", "--latency-p99", "5000"],
            "--latency-p99 must be at most 1000 times --latency-median"
        ),
        (["--latency-median", "100", "--latency-p99", "50"], "--latency-p99 must be at least --latency-median"),
        (["--concurrency", "0"], "--concurrency must be in 1...100000"),
        (["--concurrency", "1000000"], "--concurrency must be in 1...100000"),
        (["--viewport", "infx844"], "--viewport takes WIDTHxHEIGHT"),
        (["--viewport", "390x1e9"], "--viewport takes WIDTHxHEIGHT"),
        (["--bandwidth", "0"], "--bandwidth must be in 1...10000000 kbit/s, got 0"),
        (["--bandwidth", "nan"], "--bandwidth must be in 1...10000000 kbit/s"),
    ])
    func simulateRefusesOutOfRange(arguments: [String], expected: String) {
        let message = refusal(SimulateCommand.self, arguments)
        #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "accepted")")
    }

    @Test func simulateAcceptsTheLimits() {
        #expect(refusal(SimulateCommand.self, ["--duration", "86400"]) == nil)
        #expect(refusal(SimulateCommand.self, ["--frame-rate", "1000", "--duration", "5"]) == nil)
        #expect(refusal(SimulateCommand.self, ["--latency-median", "1", "--latency-p99", "1000"]) == nil)
        #expect(refusal(SimulateCommand.self, ["--bandwidth", "1"]) == nil)
    }

    @Test func simulateCapsEveryScenariosLinkAtTheBandwidthGiven() throws {
        let command = try #require(
            try SimulateCommand.parseAsRoot(["--bandwidth", "5000", "--scenario", "feed", "--scenario", "photos"])
                as? SimulateCommand)
        let bandwidths = try command.makeScenarios().map(\.network.bandwidth)
        #expect(bandwidths == [.bitsPerSecond(5_000_000), .bitsPerSecond(5_000_000)])
    }

    @Test func aTraceFromAFileHasNoGestureModelForTheCausalReference() throws {
        // Given a recorded trace replacing the built-in scenarios' own
        let path = "/tmp/lookahead-trace-\(UInt64.random(in: 0...UInt64.max)).csv"
        try "time_ms,offset\n0,0\n1000,500\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try #require(
            try SimulateCommand.parseAsRoot(["--trace", path, "--scenario", "photos", "--causal", "4"])
                as? SimulateCommand)

        // When its scenarios are made
        let scenarios = try command.makeScenarios()

        // Then none claims the gestures that drew it: the generator's model did not
        #expect(scenarios.map(\.gestures) == [nil])
        let builtIn = try #require(try SimulateCommand.parseAsRoot(["--scenario", "photos"]) as? SimulateCommand)
        #expect(try builtIn.makeScenarios().map(\.gestures) == [.photos])
    }

    @Test func aTooLongTraceForItsFrameRateIsRefusedBeforeTheRun() throws {
        // Given a 24 h trace at 1000 Hz (each in range, too many frames together)
        let path = "/tmp/lookahead-trace-\(UInt64.random(in: 0...UInt64.max)).csv"
        try "time_ms,offset\n0,0\n86400000,0\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try SimulateCommand.parseAsRoot(["--trace", path, "--frame-rate", "1000"]) as? SimulateCommand

        // When its scenarios are made
        // Then they are refused, naming the trace
        #expect(throws: ValidationError.self) { try command?.makeValidatedScenarios() }
    }

    @Test(arguments: [
        (["--latency-median", "inf"], "--latency-median must be in 0...600000 ms, got inf"),
        (["--latency-median", "10", "--latency-p99", "1e300"], "--latency-p99 must be at least --latency-median"),
        (["--latency-median", "1", "--latency-p99", "2000"], "at most 1000 times --latency-median"),
        (["--items", "300000000000000000"], "--items must be in 0...1000000 items"),
        (["--items=-1"], "--items must be in 0...1000000"),
        (["--bandwidth", "inf"], "--bandwidth must be in 0.001...10000000 kilobytes per second"),
        (["--bandwidth", "0"], "--bandwidth must be in"),
        (["--port", "70000"], "--port must be in 0...65535, got 70000"),
        (["--error-rate", "nan"], "--error-rate must be between 0 and 1"),
        (["--max-waiting-requests", "0"], "--max-waiting-requests must be in 1...100000"),
        (["--latency-p99", "10"], "--latency-p99 needs --latency-median"),
    ])
    func serveRefusesOutOfRange(arguments: [String], expected: String) {
        let message = refusal(ServeCommand.self, arguments)
        #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "accepted")")
    }

    @Test func serveAcceptsTheLimitsAndBracketsIPv6() throws {
        #expect(refusal(ServeCommand.self, ["--items", "1000000", "--latency-median", "600000"]) == nil)
        #expect(refusal(ServeCommand.self, ["--host", "::1"]) == nil)
    }

    @Test(arguments: [
        (["--latency-median", "inf"], "--latency-median must be in 0...600000 ms, got inf"),
        (["--latency-median", "1e300", "--latency-p99", "1e301"], "--latency-median must be in 0...600000 ms"),
        (["--latency-median", "1", "--latency-p99", "5000"], "at most 1000 times --latency-median"),
        (["--latency-p99", "900"], "--latency-p99 needs --latency-median"),
        (["--duration", "inf"], "--duration: expected seconds above 0 and at most 3600"),
        (["--frame-rate", "inf"], "--frame-rate: expected 1 to 120"),
        (["--items", "0"], "--items: expected 1 to 100000"),
        (["--concurrency", "1000"], "--concurrency: expected 1 to 64"),
        (["--simulate", "--server", "http://127.0.0.1:8080"], "--simulate: simulates the scripted scroll"),
    ])
    func demoRefusesOutOfRange(arguments: [String], expected: String) {
        let message = refusal(DemoCommand.self, arguments + ["--no-ui"])
        #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "accepted")")
    }

    @Test func theDemoTakesAZeroLatencyAsItsHelpAndServeDo() throws {
        // `--latency-median` is "0...600000" in the help, and `serve` takes 0:
        // the demo's server then adds no latency
        #expect(refusal(DemoCommand.self, ["--no-ui", "--latency-median", "0"]) == nil)
        #expect(refusal(ServeCommand.self, ["--latency-median", "0"]) == nil)
        let instant = try DemoCommand.parse(["--no-ui", "--latency-median", "0"]).makeConfiguration()
        #expect(instant.latencyMedian == .zero && instant.latencyP99 == .zero)
    }

    @Test func theDemoTakesServeLatenciesWithItsOwnDefault() throws {
        // Without --latency-median: a feed's latency, the demo's default
        let plain = try DemoCommand.parse(["--no-ui"]).makeConfiguration()
        #expect(plain.latencyMedian == DemoConfiguration.defaults.latencyMedian)
        #expect(plain.latencyP99 == DemoConfiguration.defaults.latencyP99)
        #expect(plain.latencyMedian == .milliseconds(120) && plain.latencyP99 == .milliseconds(800))

        // With a median alone, as `serve` reads it: the 99th percentile is the median
        let steady = try DemoCommand.parse(["--no-ui", "--latency-median", "50"]).makeConfiguration()
        #expect(steady.latencyMedian == .milliseconds(50) && steady.latencyP99 == .milliseconds(50))
        let spread = try DemoCommand.parse(["--no-ui", "--latency-median", "50", "--latency-p99", "400"])
            .makeConfiguration()
        #expect(spread.latencyMedian == .milliseconds(50) && spread.latencyP99 == .milliseconds(400))
    }

    @Test func ablateRefusesOutOfRange() {
        #expect(refusal(AblateCommand.self, ["--bandwidth", "0"])?.contains("--bandwidth must be in") == true)
        #expect(refusal(AblateCommand.self, ["--seeds", "0"])?.contains("--seeds must be in 1...100") == true)
        #expect(refusal(AblateCommand.self, ["--seeds", "2"]) == nil)
    }

    @Test func benchRefusesOutOfRange() {
        #expect(
            refusal(BenchPlannerCommand.self, ["--frames", "1000000000000"])?.contains("--frames must be in 100...")
                == true)
        #expect(
            refusal(BenchEngineCommand.self, ["--step-time-limit", "inf"])?.contains("--step-time-limit must be in")
                == true)
        #expect(
            refusal(BenchEngineCommand.self, ["--repetitions", "0"])?.contains("--repetitions must be in 1...1000")
                == true)
    }
}
#endif
