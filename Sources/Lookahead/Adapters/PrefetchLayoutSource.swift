// Where a real or headless scroll view's items are: the small protocol a
// ``PrefetchCoordinator`` reads item frames through, so that any layout —
// not only lists and grids — can be planned for.

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

/// What a ``PrefetchCoordinator`` asks of the view it plans for: the item
/// counts, the content size and the frames of the items in a rectangle.
///
/// `LookaheadUIKit` implements it over `UICollectionViewLayout`
/// (`layoutAttributesForElements(in:)`, cells only) and `UITableView`
/// (`indexPathsForRows(in:)`, `rectForRow(at:)`); the headless
/// ``CollectionView`` and ``TableView`` implement it over their layouts, and
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
}

/// A ``PrefetchLayoutSource`` over a ``CollectionLayout`` whose frames are
/// known in advance: a SwiftUI `LazyVGrid` with fixed cells is a
/// ``GridLayout``, a `List` of fixed rows a ``ListLayout``.
@MainActor
public final class FixedLayoutSource: PrefetchLayoutSource {
    /// The layout reported; replace it when the items or the width change,
    /// then call ``PrefetchCoordinator/reloadData()`` or
    /// ``PrefetchCoordinator/applyUpdates(newPath:)``.
    public var layout: any CollectionLayout

    /// Creates a source reporting `layout`.
    public init(layout: any CollectionLayout) {
        self.layout = layout
    }

    /// The layout's content size.
    public var contentSize: Size { layout.contentSize }
    /// The layout's number of sections.
    public var numberOfSections: Int { layout.numberOfSections }
    /// The layout's number of items in `section`.
    public func numberOfItems(inSection section: Int) -> Int { layout.numberOfItems(inSection: section) }

    /// The layout's items in `rect`.
    ///
    /// - Complexity: O(log n + k) for k items.
    public func itemFrames(in rect: Rect) -> [ItemFrame] {
        layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
    }
}
