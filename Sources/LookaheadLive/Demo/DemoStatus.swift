/// The figures on the demo's status line.
///
/// Made by the demo's lanes (and tests) with the memberwise initializer,
/// every count zero unless given.
#if Tools
public struct DemoStatus: Hashable, Sendable {
    /// Items intersecting the viewport.
    public var visible = 0
    /// Loads running or queued.
    public var inFlight = 0
    /// Values in the memory cache.
    public var cached = 0
    /// Blank cell-frames so far: visible cells without their data, summed over frames.
    public var blankCellFrames = 0
    /// Loads cancelled so far.
    public var cancellations = 0
    /// The strategy being shown.
    public var strategy: DemoStrategy

    /// The status line's text, without escapes; the strategy and the blank
    /// count first, so that a narrow terminal (or half of one, comparing)
    /// cuts the least telling figures.
    public var text: String {
        "[\(strategy.rawValue)] blank cell-frames \(blankCellFrames) · visible \(visible) · in flight \(inFlight)"
            + " · cached \(cached) · cancellations \(cancellations)"
    }
}
#endif
