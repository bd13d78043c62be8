/// What a demo run measured, printed when it ends.
#if Tools
public struct DemoSummary: Hashable, Sendable {
    /// The strategy shown.
    public var strategy: DemoStrategy
    /// Frames rendered (or computed, without the UI).
    public var frames: Int
    /// Visible cell-frames.
    public var visibleCellFrames: Int
    /// Blank cell-frames: visible cell-frames whose data was missing.
    public var blankCellFrames: Int
    /// Loads started, retries included.
    public var loadsStarted: Int
    /// Loads cancelled because nobody wanted them any more.
    public var loadsCancelled: Int
    /// Loads that produced a value.
    public var loadsCompleted: Int
    /// Loads that failed for good.
    public var loadsFailed: Int
    /// Response bytes of the completed loads.
    public var bytes: Int
    /// Whether the run ended on Ctrl-C (or SIGTERM) rather than on its own or on `q`.
    public var wasInterrupted: Bool

    /// Creates a summary.
    public init(
        strategy: DemoStrategy, counter: BlankCellFrameCounter, loadsStarted: Int, loadsCancelled: Int,
        loadsCompleted: Int, loadsFailed: Int, bytes: Int, wasInterrupted: Bool
    ) {
        self.strategy = strategy
        self.frames = counter.frames
        self.visibleCellFrames = counter.visibleCellFrames
        self.blankCellFrames = counter.blankCellFrames
        self.loadsStarted = loadsStarted
        self.loadsCancelled = loadsCancelled
        self.loadsCompleted = loadsCompleted
        self.loadsFailed = loadsFailed
        self.bytes = bytes
        self.wasInterrupted = wasInterrupted
    }

    /// Blank cell-frames per visible cell-frame; 0 before any visible cell.
    public var blankRatio: Double {
        visibleCellFrames == 0 ? 0 : Double(blankCellFrames) / Double(visibleCellFrames)
    }

    /// The summary line.
    public var text: String {
        let percent = (blankRatio * 10_000).rounded() / 100
        return "demo \(wasInterrupted ? "interrupted" : "finished"): strategy \(strategy.rawValue), \(frames) frames, "
            + "\(blankCellFrames) blank cell-frames of \(visibleCellFrames) visible (blank ratio \(percent)%), "
            + "loads \(loadsStarted) started / \(loadsCancelled) cancelled / \(loadsCompleted) completed / "
            + "\(loadsFailed) failed, \(bytes) bytes"
    }
}
#endif
