// One item's frame as a layout source reports it: what a coordinator
// samples around the viewport.

/// One item's frame, as a layout reports it.
public struct ItemFrame: Hashable, Sendable {
    /// The item.
    public var path: ItemPath
    /// Where it is, in content coordinates.
    public var frame: Rect

    /// Creates an item frame.
    @inlinable
    public init(path: ItemPath, frame: Rect) {
        self.path = path
        self.frame = frame
    }
}
