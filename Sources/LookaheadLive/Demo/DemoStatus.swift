/// The figures on the demo's status line.
public struct DemoStatus: Hashable, Sendable {
    /// Items intersecting the viewport.
    public var visible: Int
    /// Loads running or queued.
    public var inFlight: Int
    /// Values in the memory cache.
    public var cached: Int
    /// Blank cell-frames so far: visible cells without their data, summed over frames.
    public var blankCellFrames: Int
    /// Loads cancelled so far.
    public var cancellations: Int
    /// The strategy being shown.
    public var strategy: DemoStrategy

    /// Creates a status.
    public init(
        visible: Int = 0, inFlight: Int = 0, cached: Int = 0, blankCellFrames: Int = 0, cancellations: Int = 0,
        strategy: DemoStrategy
    ) {
        self.visible = visible
        self.inFlight = inFlight
        self.cached = cached
        self.blankCellFrames = blankCellFrames
        self.cancellations = cancellations
        self.strategy = strategy
    }

    /// The status line's text, without escapes; the strategy and the blank
    /// count first, so that a narrow terminal (or half of one, comparing)
    /// cuts the least telling figures.
    public var text: String {
        "[\(strategy.rawValue)] blank cell-frames \(blankCellFrames) · visible \(visible) · in flight \(inFlight)"
            + " · cached \(cached) · cancellations \(cancellations)"
    }
}
