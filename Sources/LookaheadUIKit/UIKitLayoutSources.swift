// A UICollectionView's or UITableView's item frames, as a coordinator reads
// them: any collection view layout (layoutAttributesForElements(in:), cells
// only), or the table's rows. Compiled only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
public import UIKit

/// A `UICollectionView`'s counts and cell frames, from its layout —
/// any layout: flow, compositional, or your own.
@MainActor
public final class CollectionViewLayoutSource: PrefetchLayoutSource {
    /// The collection view; held weakly, as its delegate would be.
    public private(set) weak var collectionView: UICollectionView?

    /// Creates a source reading `collectionView`.
    public init(_ collectionView: UICollectionView) {
        self.collectionView = collectionView
    }

    /// The layout's content size.
    public var contentSize: Size {
        collectionView.map { Size($0.collectionViewLayout.collectionViewContentSize) } ?? .zero
    }

    /// The collection view's number of sections.
    public var numberOfSections: Int { collectionView?.numberOfSections ?? 0 }

    /// The collection view's number of items in `section`.
    public func numberOfItems(inSection section: Int) -> Int {
        collectionView?.numberOfItems(inSection: section) ?? 0
    }

    /// Horizontal for a flow layout or a compositional layout that scrolls
    /// horizontally; vertical otherwise (a custom layout: vertical unless
    /// its content is wider than tall and no taller than the view). A
    /// compositional layout's orthogonal sections scroll inside it without
    /// reporting to the collection view's delegate: they are not followed
    /// (a feed of carousels is a `NestedPrefetchCoordinator`'s).
    public var scrollAxis: ScrollAxis {
        guard let collectionView else { return .vertical }
        let layout = collectionView.collectionViewLayout
        if let flow = layout as? UICollectionViewFlowLayout {
            return flow.scrollDirection == .horizontal ? .horizontal : .vertical
        }
        if let compositional = layout as? UICollectionViewCompositionalLayout {
            return compositional.configuration.scrollDirection == .horizontal ? .horizontal : .vertical
        }
        let content = layout.collectionViewContentSize
        let isSideways = content.width > content.height && content.height <= collectionView.bounds.height
        return isSideways ? .horizontal : .vertical
    }

    /// The cells' frames in `rect`: `layoutAttributesForElements(in:)`,
    /// without supplementary and decoration views.
    public func itemFrames(in rect: Rect) -> [ItemFrame] {
        let attributes = collectionView?.collectionViewLayout.layoutAttributesForElements(in: CGRect(rect)) ?? []
        return attributes.compactMap { attributes in
            guard attributes.representedElementCategory == .cell else { return nil }
            return ItemFrame(path: ItemPath(attributes.indexPath), frame: Rect(attributes.frame))
        }
    }
}

/// A `UITableView`'s counts and row frames.
@MainActor
public final class TableViewLayoutSource: PrefetchLayoutSource {
    /// The table view; held weakly, as its delegate would be.
    public private(set) weak var tableView: UITableView?

    /// Creates a source reading `tableView`.
    public init(_ tableView: UITableView) {
        self.tableView = tableView
    }

    /// The table's content size.
    public var contentSize: Size { tableView.map { Size($0.contentSize) } ?? .zero }

    /// The table's number of sections.
    public var numberOfSections: Int { tableView?.numberOfSections ?? 0 }

    /// The table's number of rows in `section`.
    public func numberOfItems(inSection section: Int) -> Int {
        tableView?.numberOfRows(inSection: section) ?? 0
    }

    /// The rows' frames in `rect`: `indexPathsForRows(in:)`, `rectForRow(at:)`.
    public func itemFrames(in rect: Rect) -> [ItemFrame] {
        guard let tableView else { return [] }
        return (tableView.indexPathsForRows(in: CGRect(rect)) ?? []).map { indexPath in
            ItemFrame(path: ItemPath(indexPath), frame: Rect(tableView.rectForRow(at: indexPath)))
        }
    }
}
#endif
