/// One frame of scrolling, as a planner sees it.
public struct ScrollFrame: Hashable, Sendable {
    /// The visible part of the content, in content coordinates.
    public var visibleRect: Rect
    /// The vertical scroll velocity in points per second; positive when the
    /// content offset grows (the user moves down the list).
    public var velocity: Double
    /// When the frame is shown, measured from any fixed origin.
    public var time: Duration

    @inlinable
    public init(visibleRect: Rect, velocity: Double = 0, time: Duration = .zero) {
        self.visibleRect = visibleRect
        self.velocity = velocity
        self.time = time
    }
}

/// The direction the user is moving through the content.
public enum ScrollDirection: Hashable, Sendable {
    /// Towards larger offsets: down a list.
    case forward
    /// Towards smaller offsets: up a list.
    case backward
}
