/// Told when a ``CollectionView``'s cells are shown and leave the screen:
/// `UICollectionViewDelegate`'s display calls.
///
/// With cell prefetching on (``ItemScrollView/isCellPrefetchingEnabled``), a
/// cell can be shown without a `cellForItemAt` for this appearance — made
/// ahead, or kept since it left — so these calls, not the data source's, say
/// what is on screen. Both do nothing unless implemented.

public import Lookahead

@MainActor
public protocol CollectionViewDelegate: AnyObject {
    /// `cell` is about to be shown at `indexPath`.
    func collectionView(_ collectionView: CollectionView, willDisplay cell: Cell, forItemAt indexPath: ItemPath)

    /// `cell` left the screen at `indexPath` (scrolled off, reloaded or deleted).
    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: Cell, forItemAt indexPath: ItemPath)
}

extension CollectionViewDelegate {
    /// Does nothing.
    public func collectionView(_ collectionView: CollectionView, willDisplay cell: Cell, forItemAt indexPath: ItemPath)
    {
    }

    /// Does nothing.
    public func collectionView(
        _ collectionView: CollectionView, didEndDisplaying cell: Cell, forItemAt indexPath: ItemPath
    ) {}
}

/// Told when a ``TableView``'s cells are shown and leave the screen:
/// `UITableViewDelegate`'s display calls. Both do nothing unless implemented.
@MainActor
public protocol TableViewDelegate: AnyObject {
    /// `cell` is about to be shown at `indexPath`.
    func tableView(_ tableView: TableView, willDisplay cell: Cell, forRowAt indexPath: ItemPath)

    /// `cell` left the screen at `indexPath` (scrolled off, reloaded or deleted).
    func tableView(_ tableView: TableView, didEndDisplaying cell: Cell, forRowAt indexPath: ItemPath)
}

extension TableViewDelegate {
    /// Does nothing.
    public func tableView(_ tableView: TableView, willDisplay cell: Cell, forRowAt indexPath: ItemPath) {}

    /// Does nothing.
    public func tableView(_ tableView: TableView, didEndDisplaying cell: Cell, forRowAt indexPath: ItemPath) {}
}
