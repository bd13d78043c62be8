#if Tools
public import ArgumentParser
import Foundation
import Logging
import Lookahead
import LookaheadServer
import UnixSignals

/// `lookahead serve`: the feed server, until Ctrl-C.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a Hacker-News-style feed API with latency and fault injection.",
        discussion: """
            Routes: GET /v0/topstories.json[?offset=O&limit=L[&bytes=B]], /v0/item/{id}.json[?bytes=B], \
            /v0/image/{id}?size=S. Any of them takes latency_ms=N and fault=500|truncate|stall|malformed. \
            Prints the base URL, then serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one.")
    var port = 0

    @Option(help: "The number of items (ids 1...N), at most 1000000.")
    var items = 10_000

    @Option(help: "The seed of the data set and of random latencies and faults.")
    var seed: UInt64 = 1

    @OptionGroup var latency: LatencyOptions

    @Option(help: "A bandwidth cap shared by all responses, in kilobytes (1,000 bytes) per second (0.001...10000000).")
    var bandwidth: Double?

    @Option(help: "The most requests waiting out a latency at once; more are answered 503 (1...100000).")
    var maxWaitingRequests = 1_000

    @Option(help: "The fraction of requests answered 500.")
    var errorRate: Double = 0

    @Option(help: "The fraction of responses cut short.")
    var truncateRate: Double = 0

    @Option(help: "The fraction of requests never answered.")
    var stallRate: Double = 0

    @Option(help: "The fraction of responses with a body that is not valid JSON.")
    var malformedRate: Double = 0

    @Option(help: "The log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// The largest `--bandwidth`, in kilobytes per second.
    static let maximumBandwidthKilobytes = Double(FaultInjection.maximumBandwidthBytesPerSecond) / 1_000

    /// Checks every option against its range (see ``OptionRange``), then the
    /// configuration built from them as the server itself will.
    func validate() throws {
        try OptionRange.check(port, "--port", in: 0...65_535, "")
        try OptionRange.check(items, "--items", in: 0...FeedServerConfiguration.maximumItemCount, "items")
        if let bandwidth {
            try OptionRange.check(
                bandwidth, "--bandwidth", in: 0.001...Self.maximumBandwidthKilobytes, "kilobytes per second")
        }
        try OptionRange.check(
            maxWaitingRequests, "--max-waiting-requests", in: 1...FeedServerConfiguration.maximumWaitingRequestsLimit,
            "requests")
        let rates = [
            ("--error-rate", errorRate), ("--truncate-rate", truncateRate), ("--stall-rate", stallRate),
            ("--malformed-rate", malformedRate),
        ]
        for (name, rate) in rates where !(0...1).contains(rate) {
            throw ValidationError("\(name) must be between 0 and 1, got \(rate)")
        }
        let total = rates.reduce(0) { $0 + $1.1 }
        if total > 1 { throw ValidationError("the fault rates add up to \(total), more than 1") }
        do {
            try makeConfiguration().validate()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func makeConfiguration() -> FeedServerConfiguration {
        let latencies = latency.milliseconds(defaults: (0, 0))
        let faults = FaultInjection(
            latencyMedian: .microseconds(Int64(latencies.median * 1_000)),
            latencyP99: .microseconds(Int64(latencies.p99 * 1_000)),
            bandwidthBytesPerSecond: bandwidth.map { max(1, Int(($0 * 1_000).rounded())) },
            serverErrorFraction: errorRate,
            truncatedBodyFraction: truncateRate,
            stallFraction: stallRate,
            malformedJSONFraction: malformedRate
        )
        var configuration = FeedServerConfiguration(itemCount: items, seed: seed, faults: faults)
        configuration.host = host
        configuration.port = port
        configuration.maximumWaitingRequests = maxWaitingRequests
        return configuration
    }

    func run() async throws {
        var logger = Logger(label: "lookahead.serve") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = logLevel
        let server = FeedServer(configuration: makeConfiguration(), logger: logger)
        let url: URL
        do {
            url = try await server.start()
        } catch {
            throw CommandError("\(error)")
        }
        StandardStreams.write("\(url.absoluteString)\n")
        // SIGINT or SIGTERM, whichever comes first, through ServiceLifecycle's signal sequence.
        for await signal in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
            logger.info("received \(signal); stopping")
            break
        }
        await server.stop()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
#endif
