/// Learns ahead of time which rows a ``TableView`` is about to show:
/// `UITableViewDataSourcePrefetching`.
///
/// The view holds its prefetch data source weakly, as UIKit does. Neither
/// method is ever called with an empty array, and within one frame cancels
/// come before prefetches.

public import Lookahead

@MainActor
public protocol TableViewDataSourcePrefetching: AnyObject {
    /// Start loading the data of the rows at `indexPaths`, which are ordered by
    /// their distance from the visible area, nearest first.
    ///
    /// Never called for a visible row; not necessarily called for every row
    /// before it is shown, so `cellForRowAt` must cope with data that is
    /// loaded, in flight, or never requested.
    func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [ItemPath])

    /// Stop loading the data of rows that were asked for and will not be shown
    /// soon (the user turned back, jumped, or prefetching was turned off).
    ///
    /// Rows that became visible are never cancelled, and neither are deleted
    /// rows: their index paths no longer exist, so a data source that removes
    /// rows withdraws their prefetches itself. Empty unless implemented.
    func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [ItemPath])
}

extension TableViewDataSourcePrefetching {
    /// Does nothing.
    public func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [ItemPath]) {}
}
