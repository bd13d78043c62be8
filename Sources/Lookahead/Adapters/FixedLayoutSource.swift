// A layout source over a layout known in advance: the SwiftUI path, where
// a LazyVGrid of fixed cells is a UniformGridLayout.

/// A ``PrefetchLayoutSource`` over a ``CollectionLayout`` whose frames are
/// known in advance: a SwiftUI `LazyVGrid` with fixed cells is a
/// ``UniformGridLayout``, a `List` of fixed rows a ``ListLayout``.
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
