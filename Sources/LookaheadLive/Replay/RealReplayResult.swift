#if Tools
public import Lookahead
public import LookaheadServer
public import LookaheadSimulation

/// What one strategy did in a real replay (made by ``RealReplay`` with the
/// memberwise initializer).
public struct RealReplayResult: Sendable {
    /// The metrics, defined as the simulator's (see ``StrategyResult``), with
    /// these differences in what is measured:
    /// - `requests` counts the GETs sent (retries included); a load the
    ///   fetcher cancelled before a worker ran it sends none;
    /// - `bytes` counts the response bodies received in full (a cancelled
    ///   response's partial body is not seen);
    /// - `peakCacheBytes` is the simulator's figure for the same loads: the
    ///   model's payload sizes of every item whose data arrived (nothing is
    ///   evicted, so the peak is the end);
    /// - time-to-content ends when the response ended, as the loader saw it.
    public var result: StrategyResult
    /// Frames played (every frame of the trace, late or not).
    public var frames: Int
    /// Frames that started more than half a frame after their deadline (the
    /// machine could not keep up); they are counted at their scheduled time.
    public var lateFrames: Int
    /// How late the latest frame started.
    public var maxFrameLateness: Duration
    /// The fetcher's counters at the end of the last frame.
    public var fetchStatistics: FetchStatistics
    /// The embedded server's counters after the run (`nil` with an external server).
    public var serverStatistics: FeedServerStatistics?

}

/// How far a real replay has got.
public struct RealReplayProgress: Sendable, Hashable {
    /// The strategy being replayed.
    public var strategy: SimulationStrategy
    /// Frames played so far.
    public var framesPlayed: Int
    /// Frames in the run.
    public var frameCount: Int

    /// The fraction played, in `0...1`.
    public var fraction: Double { frameCount == 0 ? 1 : Double(framesPlayed) / Double(frameCount) }
}

/// Why a real replay could not run.
public enum RealReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The strategy cannot be replayed for real (the oracle knows the future).
    case notReplayable(SimulationStrategy)
    /// The embedded feed server did not start.
    case serverDidNotStart(String)

    public var description: String {
        switch self {
        case .notReplayable(let strategy):
            "the '\(strategy.rawValue)' strategy cannot be replayed for real: it needs the future trace"
        case .serverDidNotStart(let reason):
            "the embedded feed server did not start: \(reason)"
        }
    }
}
#endif
