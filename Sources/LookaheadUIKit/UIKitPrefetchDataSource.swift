// For apps that keep UIKit's own prefetch window: a prefetch data source
// that sends UIKit's prefetchItemsAt / cancelPrefetchingForItemsAt to a
// coordinator's fetcher. Compiled only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
public import UIKit

/// A `UICollectionViewDataSourcePrefetching` and
/// `UITableViewDataSourcePrefetching` that prefetches through a
/// `PrefetchCoordinator` the items UIKit's own window asks for.
///
/// For apps that keep UIKit's fixed window: build the coordinator with
/// `PrefetchPolicy.system`, and set this as
/// the view's `prefetchDataSource` (which holds it weakly: keep it).
@MainActor
public final class UIKitPrefetchDataSource: NSObject, UICollectionViewDataSourcePrefetching,
    UITableViewDataSourcePrefetching
{
    private weak var coordinator: (any UIKitForwarding)?

    /// Creates a prefetch data source for `coordinator`, held weakly.
    public init<Key, Value>(coordinator: PrefetchCoordinator<Key, Value>) {
        self.coordinator = coordinator
        super.init()
    }

    /// Prefetches the items UIKit expects to show.
    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        coordinator?.prefetchItems(at: indexPaths.map(ItemPath.init))
    }

    /// Withdraws the prefetches UIKit no longer expects to need.
    public func collectionView(
        _ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
    ) {
        coordinator?.cancelPrefetchingForItems(at: indexPaths.map(ItemPath.init))
    }

    /// Prefetches the rows UIKit expects to show.
    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        coordinator?.prefetchItems(at: indexPaths.map(ItemPath.init))
    }

    /// Withdraws the prefetches UIKit no longer expects to need.
    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        coordinator?.cancelPrefetchingForItems(at: indexPaths.map(ItemPath.init))
    }
}
#endif
