/// What one strategy did on one scenario, with the metrics defined in SPEC.md.
///
/// - A visible cell-frame is one item intersecting the viewport during one frame.
/// - A blank cell-frame is a visible cell-frame whose data is not ready.
/// - Time-to-content is measured per appearance of an item, from entering the
///   viewport to its data being ready (0 if it was ready); an appearance that
///   ends before its data arrives counts the time it was on screen, and one
///   still blank when the run ends counts until then.
/// - A wasted load is a completed load for an item never visible during the
///   run (for `batch`, a page none of whose items was visible).
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
}

/// Wall-clock cost of running a strategy's decisions (not part of the JSON).
public struct SimulationTiming: Sendable {
    /// Engine time (planner, scheduler, bookkeeping) per simulated frame.
    public var engineTimePerFrame: Duration
}
