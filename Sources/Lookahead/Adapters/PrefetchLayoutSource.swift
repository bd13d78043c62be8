// Where a real or headless scroll view's items are: the small protocol a
// ``PrefetchCoordinator`` reads item frames through, so that any layout —
// not only lists and grids — can be planned for.

/// What a ``PrefetchCoordinator`` asks of the view it plans for: the item
/// counts, the content size and the frames of the items in a rectangle.
///
/// `LookaheadUIKit` implements it over `UICollectionViewLayout`
/// (`layoutAttributesForElements(in:)`, cells only) and `UITableView`
/// (`indexPathsForRows(in:)`, `rectForRow(at:)`); the headless
/// `CollectionView` and `TableView` implement it over their layouts, and
/// ``FixedLayoutSource`` over any ``CollectionLayout`` (a SwiftUI grid whose
/// cells have a known size). The coordinator asks for frames only around the
/// viewport and a fling's landing, and only when the viewport nears the edge
/// of what it asked for last.
@MainActor
public protocol PrefetchLayoutSource: AnyObject {
    /// The size of everything laid out.
    var contentSize: Size { get }
    /// The number of sections.
    var numberOfSections: Int { get }
    /// The number of items in `section`, for `0 <= section < numberOfSections`.
    func numberOfItems(inSection section: Int) -> Int
    /// The items whose frames intersect `rect`, in any order.
    func itemFrames(in rect: Rect) -> [ItemFrame]
    /// The direction the view scrolls; `.vertical` unless the source says
    /// otherwise. A coordinator reads it once, when it is made.
    var scrollAxis: ScrollAxis { get }
}

extension PrefetchLayoutSource {
    /// Vertical: lists and grids that scroll up and down.
    public var scrollAxis: ScrollAxis { .vertical }
}
