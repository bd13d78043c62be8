package import Lookahead

/// The ranges a simulated run accepts, checked before anything is allocated:
/// a run's memory and time grow with its frames and items, so absurd values
/// are refused with a message rather than left to trap or run for days.
extension SimulationScenario {
    /// The longest trace: a day.
    public static let maximumDuration = Duration.seconds(86_400)
    /// Frame rates accepted, in frames per second.
    public static let frameRates: ClosedRange<Double> = 1...1_000
    /// The most frames one run may show: a day at 60 Hz.
    public static let maximumFrameCount = 5_184_000
    /// The most items a layout may have (each costs a few bytes per run).
    public static let maximumItemCount = 10_000_000
    /// The most loads at once (100,000 stands for "unlimited" in tests).
    public static let concurrencyLimits = 1...100_000
    /// The longest latency, median or p99, of a modelled request: 10 minutes.
    public static let maximumLatency = Duration.seconds(600)
    /// The largest p99 / median latency ratio.
    public static let maximumLatencyRatio = 1_000.0
    /// The longest start lead: the first screen's loads may start 10 s before it shows.
    public static let maximumStartLead = Duration.seconds(10)
    /// The largest viewport side, in points.
    public static let maximumViewportSide = 100_000.0

    /// Checks every setting against its range.
    ///
    /// ``Simulator`` runs only scenarios that pass: a programmatic caller
    /// gets this message instead of an allocation of billions of counters.
    ///
    /// - Throws: ``SimulationConfigurationError`` naming the first setting
    ///   out of range, its value and the accepted range.
    /// - Complexity: O(rows) for a list or carousel layout, O(1) otherwise.
    public func validate() throws(SimulationConfigurationError) {
        func fail(_ message: String) -> SimulationConfigurationError {
            SimulationConfigurationError("scenario \(name): \(message)")
        }
        guard Self.frameRates.contains(frameRate) else {
            throw fail("frame rate must be in 1...1000 frames per second, got \(frameRate)")
        }
        guard trace.duration <= Self.maximumDuration else {
            throw fail("the trace lasts \(trace.duration), more than the 24 h accepted")
        }
        let frames = (trace.duration / .seconds(1)) * frameRate
        guard frames <= Double(Self.maximumFrameCount) else {
            throw fail(
                "\(trace.duration) at \(frameRate) Hz is \(Int(frames)) frames, more than the "
                    + "\(Self.maximumFrameCount) accepted (a day at 60 Hz)")
        }
        guard Self.concurrencyLimits.contains(maxConcurrentLoads) else {
            throw fail("maxConcurrentLoads must be in 1...100000, got \(maxConcurrentLoads)")
        }
        for (side, value) in [("width", viewport.width), ("height", viewport.height)]
        where !(value > 0 && value <= Self.maximumViewportSide) {
            throw fail("the viewport's \(side) must be in (0, 100000] points, got \(value)")
        }
        if let problem = layoutProblem() { throw fail(problem) }
        if let decoding {
            guard (1...1_000).contains(decoding.slots) else {
                throw fail("decoding slots must be in 1...1000, got \(decoding.slots)")
            }
            guard decoding.serviceTime > .zero && decoding.serviceTime <= .seconds(10) else {
                throw fail("the decode service time must be in (0, 10] s, got \(decoding.serviceTime)")
            }
        }
        guard startLead >= .zero && startLead <= Self.maximumStartLead else {
            throw fail("the start lead must be in [0, 10] s, got \(startLead)")
        }
        do {
            try Self.validate(network.latency)
        } catch {
            throw fail(error.message)
        }
    }

    /// What is out of range in the layout, if anything.
    private func layoutProblem() -> String? {
        switch layout {
        case .list(let heights):
            if heights.count > Self.maximumItemCount {
                return ("a list of \(heights.count) rows is more than the \(Self.maximumItemCount) accepted")
            }
            if let index = heights.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
                return ("row \(index)'s height must be finite and not negative, got \(heights[index])")
            }
        case .grid(let columns, let itemCount, let spacing, let aspectRatio):
            if !(1...1_000).contains(columns) { return ("grid columns must be in 1...1000, got \(columns)") }
            if !(0...Self.maximumItemCount).contains(itemCount) {
                return ("grid item count must be in 0...\(Self.maximumItemCount), got \(itemCount)")
            }
            if !(spacing.isFinite && spacing >= 0) {
                return ("grid spacing must be finite and not negative, got \(spacing)")
            }
            if !(aspectRatio.isFinite && aspectRatio > 0) {
                return ("grid aspect ratio must be finite and positive, got \(aspectRatio)")
            }
        case .carousels(let rows):
            return carouselsProblem(rows)
        }
        return nil
    }

    /// What is out of range in a carousel feed's rows, if anything: what
    /// ``CarouselFeedLayout`` would trap on, and more items than accepted.
    private func carouselsProblem(_ rows: [CarouselFeedLayout.Row]) -> String? {
        if rows.count > Self.maximumItemCount {
            return "a feed of \(rows.count) rows is more than the \(Self.maximumItemCount) accepted"
        }
        var items = 0
        for (index, row) in rows.enumerated() {
            if !(row.height.isFinite && row.height >= 0) {
                return "row \(index)'s height must be finite and not negative, got \(row.height)"
            }
            guard case .carousel(_, let itemWidth, let itemCount, let spacing) = row else {
                items += 1
                continue
            }
            if !(itemWidth.isFinite && itemWidth > 0) {
                return "row \(index)'s carousel item width must be finite and positive, got \(itemWidth)"
            }
            if !(spacing.isFinite && spacing >= 0) {
                return "row \(index)'s carousel spacing must be finite and not negative, got \(spacing)"
            }
            if !(0...Self.maximumItemCount).contains(itemCount) {
                return "row \(index)'s carousel item count must be in 0...\(Self.maximumItemCount), got \(itemCount)"
            }
            items += itemCount
            if items > Self.maximumItemCount {
                return "the feed's rows hold more than the \(Self.maximumItemCount) items accepted (at row \(index))"
            }
        }
        return nil
    }

    /// The log-normal latencies the simulator takes: `0 < median <= p99 <=
    /// maximumLatency` with p99 / median at most ``maximumLatencyRatio``. The
    /// one rule for the scenarios, `simulate`'s and `tune`'s options and a
    /// recorded latency profile.
    package static let latencyLimits: LatencyLimits = (false, maximumLatency, maximumLatencyRatio)

    /// Checks a latency distribution: finite, within ``maximumLatency``, and
    /// for a log-normal `0 < median <= p99 <= maximumLatency` with p99 / median
    /// at most ``maximumLatencyRatio``.
    ///
    /// - Throws: ``SimulationConfigurationError`` naming the median or the p99.
    public static func validate(_ latency: NetworkModel.LatencyDistribution) throws(SimulationConfigurationError) {
        let range = Duration.zero...maximumLatency
        switch latency {
        case .fixed(let duration):
            if !range.contains(duration) {
                throw SimulationConfigurationError("the latency must be in 0...600 s, got \(duration)")
            }
        case .perItem(let durations):
            if durations.isEmpty { throw SimulationConfigurationError("per-item latencies must not be empty") }
            if let bad = durations.first(where: { !range.contains($0) }) {
                throw SimulationConfigurationError("per-item latencies must be in 0...600 s, got \(bad)")
            }
        case .logNormal(let median, let p99):
            let problem = latencyProblem(
                medianMilliseconds: median / .milliseconds(1), p99Milliseconds: p99 / .milliseconds(1),
                names: ("the median latency", "the p99 latency"), within: latencyLimits)
            if let problem { throw SimulationConfigurationError(problem) }
        }
    }
}
