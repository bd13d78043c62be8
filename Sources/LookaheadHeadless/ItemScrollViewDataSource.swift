// What a data source of one list does to serve a CollectionView and a
// TableView alike: the two views' data source and prefetching callbacks,
// written once, forwarding to the same five members.

import Lookahead

/// A data source and prefetch data source that answers a ``CollectionView``
/// and a ``TableView`` the same way, under each view's UIKit names.
///
/// UIKit gives the two views separate protocols with the same meaning
/// (`numberOfItemsInSection` / `numberOfRowsInSection`, `prefetchItemsAt` /
/// `prefetchRowsAt`, …). A type that serves both adopts this protocol and the
/// four public ones it refines, and implements only what the views' callbacks
/// forward to; the callbacks themselves, the public witnesses, are this
/// extension's (more specific than the public protocols' defaults, so a
/// cancel reaches ``cancelPrefetching(_:)``, not their empty default).
/// Internal: apps see the public conformances, not this protocol.
@MainActor
protocol ItemScrollViewDataSource: CollectionViewDataSource, CollectionViewDataSourcePrefetching, TableViewDataSource,
    TableViewDataSourcePrefetching
{
    /// The reuse identifier the data source's cells are registered under.
    nonisolated static var reuseIdentifier: String { get }

    /// The number of items (rows) in `section`.
    func numberOfItems(inSection section: Int) -> Int

    /// `dequeued`, configured for the item at `path`, which has just become visible.
    func configuredCell(_ dequeued: Cell, at path: ItemPath) -> Cell

    /// The view will soon show the items at `paths`, nearest first.
    func prefetch(_ paths: [ItemPath])

    /// The view no longer expects to show the items at `paths` soon.
    func cancelPrefetching(_ paths: [ItemPath])
}

extension ItemScrollViewDataSource {
    /// The number of items in `section`.
    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        numberOfItems(inSection: section)
    }

    /// A cell dequeued for the data source's reuse identifier, configured for the item.
    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        configuredCell(
            collectionView.dequeueReusableCell(withReuseIdentifier: Self.reuseIdentifier, for: indexPath),
            at: indexPath)
    }

    /// Prefetches the items.
    public func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [ItemPath]) {
        prefetch(indexPaths)
    }

    /// Withdraws the items' prefetches.
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [ItemPath]) {
        cancelPrefetching(indexPaths)
    }

    /// The number of rows in `section`.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        numberOfItems(inSection: section)
    }

    /// A cell dequeued for the data source's reuse identifier, configured for the row.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: ItemPath) -> Cell {
        configuredCell(
            tableView.dequeueReusableCell(withIdentifier: Self.reuseIdentifier, for: indexPath), at: indexPath)
    }

    /// Prefetches the rows.
    public func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [ItemPath]) {
        prefetch(indexPaths)
    }

    /// Withdraws the rows' prefetches.
    public func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [ItemPath]) {
        cancelPrefetching(indexPaths)
    }
}
