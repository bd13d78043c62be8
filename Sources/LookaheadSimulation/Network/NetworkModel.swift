/// A seeded model of the network the simulator loads over: how long each
/// request waits for its first byte, how big each payload is, the link the
/// loads share, and which attempts fail.
///
/// Every value is a pure function of the seed, the item and the attempt —
/// never of the order in which they are asked for — so the oracle can read
/// every latency in advance and see exactly what the run will see. Values come
/// from a counter-based hash (``CounterBasedRandom``), not a sequential
/// generator, and from ``PortableMath`` rather than libm, so the same seed
/// gives the same bits on every platform and in every run (the network; for a
/// whole run's promise see `PortableMath`).
///
/// The link itself (sharing the bandwidth between loads in flight) is
/// ``TransferSimulator``'s job; this type only says what each load is.
public struct NetworkModel: Sendable, Hashable {
    /// The seed every per-item value is derived from.
    public var seed: UInt64

    /// Time to first byte, per request.
    public var latency: LatencyDistribution {
        didSet { latencySigma = Self.sigma(of: latency) }
    }

    /// Payload size, per item.
    public var payload: PayloadSizes {
        didSet { payloadSigma = Self.sigma(of: payload) }
    }

    /// The link the loads in flight share.
    public var bandwidth: Bandwidth {
        didSet { Self.validate(bandwidth) }
    }

    /// The probability that one attempt fails, independently per attempt.
    public var failureRate: Double {
        didSet { Self.validate(failureRate: failureRate) }
    }

    /// σ of a log-normal latency, derived once from `latency` (0 otherwise).
    private var latencySigma: Double
    /// σ of a log-normal payload, derived once from `payload` (0 otherwise).
    private var payloadSigma: Double

    /// Creates a network model.
    ///
    /// - Parameters:
    ///   - seed: Fixes every latency, payload size and failure.
    ///   - latency: Time to first byte; see ``LatencyDistribution``.
    ///   - payload: Bytes per item; see ``PayloadSizes``.
    ///   - bandwidth: The link shared by the loads in flight.
    ///   - failureRate: The probability that an attempt fails, in `0...1`.
    /// - Precondition: the distributions' own preconditions (positive medians,
    ///   p99 not below the median, nothing negative), a positive finite
    ///   bandwidth, `failureRate` in `0...1`. Setting a property later checks
    ///   the same.
    public init(
        seed: UInt64, latency: LatencyDistribution, payload: PayloadSizes, bandwidth: Bandwidth = .unlimited,
        failureRate: Double = 0
    ) {
        Self.validate(bandwidth)
        Self.validate(failureRate: failureRate)
        self.seed = seed
        self.latency = latency
        self.payload = payload
        self.bandwidth = bandwidth
        self.failureRate = failureRate
        latencySigma = Self.sigma(of: latency)
        payloadSigma = Self.sigma(of: payload)
    }

    // MARK: - Per-item values

    /// The time from sending attempt `attempt` for `item` to its first byte.
    ///
    /// A log-normal draw is `median · e^(σ z)` with `z = Φ⁻¹(u)` and `u` the
    /// key's uniform number, rounded to the nanosecond; see
    /// ``LatencyDistribution/logNormal(median:p99:)`` for σ.
    ///
    /// - Precondition: `item >= 0`, `attempt >= 0`.
    /// - Complexity: O(1).
    public func latency(forItem item: Int, attempt: Int = 0) -> Duration {
        precondition(item >= 0 && attempt >= 0, "NetworkModel: item \(item), attempt \(attempt) must not be negative")
        switch latency {
        case .fixed(let duration):
            return duration
        case .perItem(let durations):
            return durations[item % durations.count]
        case .logNormal(let median, _):
            let bits = CounterBasedRandom.bits(seed: seed, stream: .latency, item: item, attempt: attempt)
            let z = StandardNormal.quantile(CounterBasedRandom.unitInterval(bits))
            let nanoseconds = Double(Self.nanoseconds(median)) * PortableMath.exp(latencySigma * z)
            return .nanoseconds(Self.clampedInt64(nanoseconds.rounded()))
        }
    }

    /// The size of `item`'s payload, the same for every attempt.
    ///
    /// - Precondition: `item >= 0`.
    /// - Complexity: O(1).
    public func payloadBytes(forItem item: Int) -> Int {
        precondition(item >= 0, "NetworkModel: item \(item) must not be negative")
        switch payload {
        case .fixed(let bytes):
            return bytes
        case .uniform(let range):
            let bits = CounterBasedRandom.bits(seed: seed, stream: .payload, item: item, attempt: 0)
            return CounterBasedRandom.integer(in: range, bits)
        case .logNormal(let median, _):
            let bits = CounterBasedRandom.bits(seed: seed, stream: .payload, item: item, attempt: 0)
            let z = StandardNormal.quantile(CounterBasedRandom.unitInterval(bits))
            let bytes = (Double(median) * PortableMath.exp(payloadSigma * z)).rounded()
            return Int(Self.clampedInt64(bytes))
        }
    }

    /// Whether attempt `attempt` for `item` fails.
    ///
    /// Attempts are independent: each is its own draw, true with probability
    /// ``failureRate``. A failure rate of 0 never fails, 1 always does.
    ///
    /// - Precondition: `item >= 0`, `attempt >= 0`.
    /// - Complexity: O(1).
    public func fails(item: Int, attempt: Int) -> Bool {
        precondition(item >= 0 && attempt >= 0, "NetworkModel: item \(item), attempt \(attempt) must not be negative")
        guard failureRate > 0 else { return false }
        let bits = CounterBasedRandom.bits(seed: seed, stream: .failure, item: item, attempt: attempt)
        return CounterBasedRandom.unitInterval(bits) < failureRate
    }

    // MARK: - Support

    /// A duration in whole nanoseconds, finer parts truncated (the simulator's
    /// resolution).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `value` as an Int64, saturating: a draw 8 σ out must not trap.
    private static func clampedInt64(_ value: Double) -> Int64 {
        value >= 9.2e18 ? 9_200_000_000_000_000_000 : Int64(value)
    }

    private static func sigma(of latency: LatencyDistribution) -> Double {
        switch latency {
        case .fixed(let duration):
            precondition(duration >= .zero, "NetworkModel: a fixed latency must not be negative, got \(duration)")
            return 0
        case .perItem(let durations):
            precondition(!durations.isEmpty, "NetworkModel: perItem latencies must not be empty")
            precondition(durations.allSatisfy { $0 >= .zero }, "NetworkModel: perItem latencies must not be negative")
            return 0
        case .logNormal(let median, let p99):
            precondition(median > .zero, "NetworkModel: the median latency must be positive, got \(median)")
            precondition(p99 >= median, "NetworkModel: the p99 latency \(p99) is below the median \(median)")
            return logNormalSigma(median: Double(nanoseconds(median)), p99: Double(nanoseconds(p99)))
        }
    }

    private static func sigma(of payload: PayloadSizes) -> Double {
        switch payload {
        case .fixed(let bytes):
            precondition(bytes >= 0, "NetworkModel: payload sizes must not be negative, got \(bytes)")
            return 0
        case .uniform(let range):
            precondition(range.lowerBound >= 0, "NetworkModel: payload sizes must not be negative, got \(range)")
            return 0
        case .logNormal(let median, let p99):
            precondition(median > 0, "NetworkModel: the median payload must be positive, got \(median)")
            precondition(p99 >= median, "NetworkModel: the p99 payload \(p99) is below the median \(median)")
            return logNormalSigma(median: Double(median), p99: Double(p99))
        }
    }

    /// σ = (ln p99 − ln median) / z₀.₉₉, computed as ln(p99 / median) / z₀.₉₉.
    static func logNormalSigma(median: Double, p99: Double) -> Double {
        PortableMath.log(p99 / median) / StandardNormal.z99
    }

    private static func validate(_ bandwidth: Bandwidth) {
        if case .bitsPerSecond(let bits) = bandwidth {
            precondition(bits > 0 && bits.isFinite, "NetworkModel: bandwidth must be positive and finite, got \(bits)")
        }
    }

    private static func validate(failureRate: Double) {
        precondition((0...1).contains(failureRate), "NetworkModel: failureRate must be in 0...1, got \(failureRate)")
    }
}
