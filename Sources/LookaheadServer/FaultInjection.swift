#if Tools
import Foundation
package import Lookahead

/// The latency and the faults a ``FeedServer`` adds to its answers.
///
/// Random draws come from a generator seeded by the server's seed and the
/// request's sequence number, so a run with the same requests in the same
/// order injects the same faults. A request can also force its own latency
/// (`latency_ms=`) or fault (`fault=`) through its query: see ``FeedServer``.
public struct FaultInjection: Sendable, Hashable {
    /// The median added time to first byte; `.zero` adds none.
    public var latencyMedian: Duration
    /// The 99th percentile of the added time to first byte.
    ///
    /// Latencies are log-normal with median `latencyMedian` and this p99, as in
    /// the simulator's network model: `ln L ~ N(ln median, σ²)` with
    /// σ = (ln p99 − ln median) / 2.3263478740408408 (the normal's 0.99 quantile).
    public var latencyP99: Duration
    /// A cap, in bytes per second, shared by all responses being sent (one
    /// link), or `nil` for none.
    public var bandwidthBytesPerSecond: Int?
    /// The fraction of requests answered `500 Internal Server Error`.
    public var serverErrorFraction: Double
    /// The fraction of responses whose `Content-Length` promises more than is
    /// sent before the connection closes.
    public var truncatedBodyFraction: Double
    /// The fraction of requests never answered (until the client gives up).
    public var stallFraction: Double
    /// The fraction of responses that are `200 OK` with a body that is not valid JSON.
    public var malformedJSONFraction: Double

    /// Creates a fault configuration; by default no latency and no faults.
    public init(
        latencyMedian: Duration = .zero,
        latencyP99: Duration? = nil,
        bandwidthBytesPerSecond: Int? = nil,
        serverErrorFraction: Double = 0,
        truncatedBodyFraction: Double = 0,
        stallFraction: Double = 0,
        malformedJSONFraction: Double = 0
    ) {
        self.latencyMedian = latencyMedian
        self.latencyP99 = latencyP99 ?? latencyMedian
        self.bandwidthBytesPerSecond = bandwidthBytesPerSecond
        self.serverErrorFraction = serverErrorFraction
        self.truncatedBodyFraction = truncatedBodyFraction
        self.stallFraction = stallFraction
        self.malformedJSONFraction = malformedJSONFraction
    }

    /// No added latency and no faults.
    public static let none = FaultInjection()

    /// The longest latency configured or drawn (10 minutes, as `latency_ms`
    /// allows): draws from the log-normal's tail are clamped to it.
    public static let maximumLatency = Duration.seconds(600)

    /// The largest p99 / median ratio: a wider spread makes draws from the
    /// tail meaningless (and, unclamped, overflow).
    public static let maximumLatencyRatio = 1_000.0

    /// The widest bandwidth cap, in bytes per second (10 GB/s).
    public static let maximumBandwidthBytesPerSecond = 10_000_000_000

    /// The added latencies a server takes: a median in 0...``maximumLatency``
    /// (0 adds none), a 99th percentile from the median to ``maximumLatency``,
    /// at most ``maximumLatencyRatio`` times a median above 0. The one rule
    /// for ``validate()``, `lookahead serve` and the demo.
    package static let latencyLimits: LatencyLimits = (true, maximumLatency, maximumLatencyRatio)

    /// Checks that the configuration makes sense.
    ///
    /// - Throws: ``FeedServerError/invalidConfiguration(_:)`` saying what is wrong.
    public func validate() throws(FeedServerError) {
        let problem = latencyProblem(
            medianMilliseconds: latencyMedian / .milliseconds(1), p99Milliseconds: latencyP99 / .milliseconds(1),
            names: ("latencyMedian", "latencyP99"), within: Self.latencyLimits)
        if let problem { throw .invalidConfiguration(problem) }
        if let bandwidthBytesPerSecond {
            try checkRange(
                "bandwidthBytesPerSecond", bandwidthBytesPerSecond, in: 1...Self.maximumBandwidthBytesPerSecond,
                else: FeedServerError.invalidConfiguration)
        }
        let fractions = [
            ("serverErrorFraction", serverErrorFraction), ("truncatedBodyFraction", truncatedBodyFraction),
            ("stallFraction", stallFraction), ("malformedJSONFraction", malformedJSONFraction),
        ]
        for (name, value) in fractions where !(0...1).contains(value) {
            throw .invalidConfiguration("\(name) must be between 0 and 1, got \(value)")
        }
        let total = fractions.reduce(0) { $0 + $1.1 }
        if total > 1 { throw .invalidConfiguration("the fault fractions add up to \(total), more than 1") }
    }
}

/// A fault a request suffers, drawn or forced with `fault=`.
enum InjectedFault: String, Sendable, CaseIterable {
    /// `500 Internal Server Error`.
    case serverError = "500"
    /// `Content-Length` promises more than is sent, then the connection closes.
    case truncate
    /// Never answers.
    case stall
    /// `200 OK` with a body that is not valid JSON.
    case malformed
    /// `429 Too Many Requests` with `Retry-After: 1`. Only ever forced
    /// (`fault=429`), never drawn at random.
    case tooManyRequests = "429"
}

extension FaultInjection {
    /// The fault, if any, of request number `request` in the run of `seed`.
    ///
    /// - Complexity: O(1).
    func drawFault(seed: UInt64, request: Int) -> InjectedFault? {
        let u = SeededRandom.unitInterval(SeededRandom.bits(seed: seed, stream: .fault, key: UInt64(request)))
        var threshold = serverErrorFraction
        if u < threshold { return .serverError }
        threshold += truncatedBodyFraction
        if u < threshold { return .truncate }
        threshold += stallFraction
        if u < threshold { return .stall }
        threshold += malformedJSONFraction
        if u < threshold { return .malformed }
        return nil
    }

    /// The added latency of request number `request` in the run of `seed`,
    /// at most ``maximumLatency``.
    ///
    /// - Complexity: O(1).
    func drawLatency(seed: UInt64, request: Int) -> Duration {
        guard latencyMedian > .zero else { return .zero }
        let median = latencyMedian / .seconds(1)
        let p99 = latencyP99 / .seconds(1)
        let sigma = (Foundation.log(p99) - Foundation.log(median)) / 2.326_347_874_040_840_8
        guard sigma > 0 else { return latencyMedian }
        let z = SeededRandom.standardNormal(
            SeededRandom.bits(seed: seed, stream: .latency, key: UInt64(request), index: 0),
            SeededRandom.bits(seed: seed, stream: .latency, key: UInt64(request), index: 1))
        // Clamped before the conversion: a draw far in the tail must not overflow Int64.
        let microseconds = min(median * Foundation.exp(sigma * z), Self.maximumLatency / .seconds(1)) * 1_000_000
        return .microseconds(Int64(microseconds.rounded()))
    }
}
#endif
