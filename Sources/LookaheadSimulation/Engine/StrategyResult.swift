/// What one strategy did on one scenario, with the metrics defined in SPEC.md.
///
/// - A visible cell-frame is one item intersecting the viewport during one frame.
/// - A blank cell-frame is a visible cell-frame whose data is not ready.
/// - Time-to-content is measured per appearance of an item, from entering the
///   viewport to its data being ready (0 if it was ready); an appearance that
///   ends before its data arrives counts the time it was on screen, and one
///   still blank when the run ends counts until then.
/// - A wasted load is a completed load for an item never visible during the
///   run (for `batch`, a page none of whose items was visible). Those for items
///   within three screens of the last frame are counted again in
///   `wastedLoadsAtEnd`: the window held when the trace stops, which a longer
///   trace might have shown; the rest were passed by or turned away from.
///
/// Everything here is a pure function of the inputs, so the same seed gives
/// byte-identical JSON; wall-clock figures live in ``SimulationTiming``.
public struct StrategyResult: Sendable, Codable, Hashable {
    public var name: String
    public var blankRatio: Double
    public var blankCellFrames: Int
    public var visibleCellFrames: Int
    public var ttcP50Ms: Double
    public var ttcP95Ms: Double
    public var ttcP99Ms: Double
    public var ttcMaxMs: Double
    /// Loads started, retries included.
    public var requests: Int
    /// Loads cancelled (running or waiting to retry) because nobody wanted them.
    public var cancellations: Int
    public var completedLoads: Int
    public var wastedLoads: Int
    /// Of `wastedLoads`, those for items within three screens of the last
    /// frame's viewport: cut off by the trace's end rather than passed by.
    public var wastedLoadsAtEnd: Int
    /// wastedLoads / completedLoads.
    public var wasteRatio: Double
    public var wastedBytes: Int
    /// wastedBytes / bytes of completed loads.
    public var byteWasteRatio: Double
    /// Bytes received, cancelled loads' partial transfers included.
    public var bytes: Int
    /// The most bytes of loaded data held at once (the cache keeps everything loaded).
    public var peakCacheBytes: Int
    /// Blank cell-frames in each second of the run, for the chart.
    public var blankCellFramesPerSecond: [Int]
    /// For strategies that load pages: how long the user looked at the end of
    /// the loaded list, waiting for the next page (0 for the others).
    public var bottomWaitMs: Double
    /// For scenarios with a decode stage: how the decodes went (absent otherwise).
    public var decoding: DecodingStatistics? = nil
}

/// Wall-clock cost of running a strategy's decisions (not part of the JSON).
public struct SimulationTiming: Sendable {
    /// Engine time (planner, scheduler, bookkeeping) per simulated frame.
    public var engineTimePerFrame: Duration
}

extension StrategyResult {
    /// A result from a run's raw measurements, the ratios and the
    /// time-to-content percentiles derived as defined above: what the
    /// simulator and the real replay both report.
    ///
    /// - Parameters:
    ///   - timesToContent: one duration per appearance (any order).
    ///   - completedBytes: bytes of the completed loads, for `byteWasteRatio`.
    package init(
        name: String, blankCellFrames: Int, visibleCellFrames: Int, timesToContent: [Duration],
        requests: Int, cancellations: Int, completedLoads: Int, wastedLoads: Int, wastedLoadsAtEnd: Int,
        wastedBytes: Int, completedBytes: Int, bytes: Int, peakCacheBytes: Int, blankCellFramesPerSecond: [Int],
        bottomWait: Duration
    ) {
        let sorted = timesToContent.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return Self.milliseconds(sorted[min(max(rank, 0), sorted.count - 1)])
        }
        self.init(
            name: name,
            blankRatio: visibleCellFrames == 0 ? 0 : Double(blankCellFrames) / Double(visibleCellFrames),
            blankCellFrames: blankCellFrames,
            visibleCellFrames: visibleCellFrames,
            ttcP50Ms: percentile(0.5),
            ttcP95Ms: percentile(0.95),
            ttcP99Ms: percentile(0.99),
            ttcMaxMs: sorted.last.map(Self.milliseconds) ?? 0,
            requests: requests,
            cancellations: cancellations,
            completedLoads: completedLoads,
            wastedLoads: wastedLoads,
            wastedLoadsAtEnd: wastedLoadsAtEnd,
            wasteRatio: completedLoads == 0 ? 0 : Double(wastedLoads) / Double(completedLoads),
            wastedBytes: wastedBytes,
            byteWasteRatio: completedBytes == 0 ? 0 : Double(wastedBytes) / Double(completedBytes),
            bytes: bytes,
            peakCacheBytes: peakCacheBytes,
            blankCellFramesPerSecond: blankCellFramesPerSecond,
            bottomWaitMs: Self.milliseconds(bottomWait))
    }

    /// `duration` in milliseconds, exactly as far as a `Double` goes.
    package static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
