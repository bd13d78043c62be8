/// Counts blank cell-frames as the simulator does: in every rendered frame,
/// each visible cell is a visible cell-frame, and a blank one if its data is
/// missing.
#if Tools
public struct BlankCellFrameCounter: Hashable, Sendable {
    /// Frames recorded.
    public private(set) var frames = 0
    /// Visible cell-frames recorded.
    public private(set) var visibleCellFrames = 0
    /// Blank cell-frames recorded.
    public private(set) var blankCellFrames = 0

    /// Creates a counter at zero.
    public init() {}

    /// Records one frame and the states of its visible cells.
    ///
    /// - Complexity: O(visible cells).
    public mutating func record(visible states: some Sequence<DemoCell.State>) {
        frames += 1
        for state in states {
            visibleCellFrames += 1
            if state == .missing { blankCellFrames += 1 }
        }
    }

    /// Blank cell-frames per visible cell-frame; 0 before any visible cell.
    public var blankRatio: Double {
        visibleCellFrames == 0 ? 0 : Double(blankCellFrames) / Double(visibleCellFrames)
    }
}
#endif
