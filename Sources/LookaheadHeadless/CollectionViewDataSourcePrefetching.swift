/// Learns ahead of time which items a ``CollectionView`` is about to show:
/// `UICollectionViewDataSourcePrefetching`.
///
/// The view holds its prefetch data source weakly, as UIKit does. Neither
/// method is ever called with an empty array, and within one frame cancels
/// come before prefetches.

public import Lookahead

@MainActor
public protocol CollectionViewDataSourcePrefetching: AnyObject {
    /// Start loading the data of the items at `indexPaths`, which are ordered
    /// by their distance from the visible area, nearest first.
    ///
    /// Never called for an item that is visible; not necessarily called for
    /// every item before it is shown (a jump skips the window).
    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [ItemPath])

    /// Stop loading the data of items that were asked for and will not be shown
    /// soon (the user turned back, jumped, or prefetching was turned off).
    ///
    /// Items that became visible are never cancelled, and neither are deleted
    /// items: their index paths no longer exist, so a data source that removes
    /// items withdraws their prefetches itself. Empty unless implemented.
    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [ItemPath])
}

extension CollectionViewDataSourcePrefetching {
    /// Does nothing.
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [ItemPath]) {}
}
