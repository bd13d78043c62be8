// An app's collection view code over a PrefetchCoordinator, headless: what
// the README's view controller does, for the tests and the coordinator soak.

public import Lookahead

/// A collection view data source and delegate as an app writes them over a
/// ``PrefetchCoordinator``: each cell shows its item's value from the cache
/// at once, or asks for it with a display request that belongs to the cell
/// (its completion shows what it gets, unchecked: the soak checks it was the
/// cell's item's); the display calls go to the coordinator as
/// `LookaheadUIKit`'s delegate proxy sends them.
@MainActor
package final class CoordinatedDataSource<Value: Sendable>: CollectionViewDataSource, CollectionViewDelegate {
    package static var reuseIdentifier: String { "item" }
    /// The key of each item, in order.
    package var keys: [Int]
    package let fetcher: AsyncFetcher<Int, Value>
    package var coordinator: PrefetchCoordinator<Int, Value>?

    package init(keys: [Int], fetcher: AsyncFetcher<Int, Value>) {
        self.keys = keys
        self.fetcher = fetcher
    }

    /// Registers the cell class the data source configures on `view`.
    package func register(on view: CollectionView) {
        view.register(ContentCell<Value>.self, forCellWithReuseIdentifier: Self.reuseIdentifier)
    }

    package func numberOfSections(in collectionView: CollectionView) -> Int { 1 }

    package func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        keys.count
    }

    package func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: Self.reuseIdentifier, for: indexPath)
        guard let cell = cell as? ContentCell<Value> else { preconditionFailure("registered ContentCell<Value>") }
        let key = keys[indexPath.item]
        cell.representedIdentifier = key
        cell.configure(with: fetcher.fetchedData(for: key))
        // As the README's cell: no check of which item the cell shows when
        // the value lands — the request is the cell's, for this key.
        coordinator?.requestDisplay(at: indexPath, for: cell) { [weak cell] result in
            if case .success(let value) = result { cell?.configure(with: value) }
        }
        return cell
    }

    package func collectionView(
        _ collectionView: CollectionView, willDisplay cell: Cell, forItemAt indexPath: ItemPath
    ) {
        coordinator?.willDisplay(cell, at: indexPath)
    }

    package func collectionView(
        _ collectionView: CollectionView, didEndDisplaying cell: Cell, forItemAt indexPath: ItemPath
    ) {
        coordinator?.didEndDisplaying(cell)
    }

    /// The visible cells that are blank and have no display request waiting
    /// to fill them: each one a cell the user would see blank until reused.
    /// The visible cells that are blank.
    package func blankCells(in view: CollectionView) -> [ItemPath] {
        view.indexPathsForVisibleItems.filter { (view.cellForItem(at: $0) as? ContentCell<Value>)?.value == nil }
    }

    /// The visible cells that are blank though their item's value is in the
    /// fetcher's cache: a landed load not delivered to its cell yet.
    package func blankCellsWithData(in view: CollectionView) -> [ItemPath] {
        view.indexPathsForVisibleItems.filter { path in
            (view.cellForItem(at: path) as? ContentCell<Value>)?.value == nil && keys.indices.contains(path.item)
                && fetcher.fetchedData(for: keys[path.item]) != nil
        }
    }

    package func blankCellsWithoutRequest(in view: CollectionView) -> [ItemPath] {
        guard let coordinator else { return [] }
        let pending = coordinator.pendingDisplayPaths
        return view.indexPathsForVisibleItems.filter { path in
            (view.cellForItem(at: path) as? ContentCell<Value>)?.value == nil && !pending.contains(path)
        }
    }
}
