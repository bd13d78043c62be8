/// One frame of scrolling, as a planner sees it.
package struct ScrollFrame: Hashable, Sendable {
    /// The visible part of the content, in content coordinates.
    public var visibleRect: Rect
    /// The vertical scroll velocity in points per second; positive when the
    /// content offset grows (the user moves down the list).
    public var velocity: Double
    /// When the frame is shown, measured from any fixed origin.
    public var time: Duration
    /// Where the scroll view will come to rest, when the app knows it: the
    /// `targetContentOffset` of `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`
    /// when a drag ends in a fling, kept on the frames of that deceleration.
    ///
    /// A policy that plans for the landing (``PrefetchPolicy/adaptive``)
    /// asks for it on the very frame it is announced; without it, the policy
    /// infers the landing from two frames of coasting. `nil` by default.
    public var targetOffset: Point?

    public init(visibleRect: Rect, velocity: Double = 0, time: Duration = .zero, targetOffset: Point? = nil) {
        self.visibleRect = visibleRect
        self.velocity = velocity
        self.time = time
        self.targetOffset = targetOffset
    }
}

/// The direction the user is moving through the content.
package enum ScrollDirection: Hashable, Sendable {
    /// Towards larger offsets: down a list.
    case forward
    /// Towards smaller offsets: up a list.
    case backward
}
