/// What a key press asks the interactive demo to do.
#if Tools
public enum DemoAction: Hashable, Sendable {
    /// Scroll by whole rows of cells: positive down, negative up.
    case scroll(rows: Int)
    /// Fling in the direction of the last scroll.
    case fling
    /// Jump to the top of the content.
    case top
    /// Jump to the bottom of the content.
    case bottom
    /// End the demo.
    case quit
}
#endif
