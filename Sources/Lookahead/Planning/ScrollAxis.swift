// The direction a view scrolls. Planning happens along one axis: a view
// that scrolls sideways is planned as its transpose, x for y, so that every
// policy, the landing zone and paging work the same on either.

/// The direction a scroll view's content moves.
public enum ScrollAxis: Sendable, Hashable {
    /// Up and down: a list, a vertical grid.
    case vertical
    /// Left and right: a photo pager, a horizontal grid.
    case horizontal

    /// `point` with the scroll axis as `y`: itself for a vertical view, its
    /// transpose for a horizontal one. Its own inverse.
    package func alongScroll(_ point: Point) -> Point {
        self == .vertical ? point : Point(x: point.y, y: point.x)
    }

    /// `size` with the scroll axis as its height.
    package func alongScroll(_ size: Size) -> Size {
        self == .vertical ? size : Size(width: size.height, height: size.width)
    }

    /// `rect` with the scroll axis as `y`.
    package func alongScroll(_ rect: Rect) -> Rect {
        self == .vertical ? rect : Rect(x: rect.minY, y: rect.minX, width: rect.height, height: rect.width)
    }
}
