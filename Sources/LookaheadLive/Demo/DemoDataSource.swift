import Lookahead

/// The data source and prefetch data source of the demo's grid: the
/// `CustomDataSource` of Apple's sample, as ``ExampleFeedDataSource`` is, with
/// one difference a fling makes visible.
///
/// The sample's display requests (`fetchAsync` with a completion) live until
/// their data lands, even after the cell has scrolled off and been reused: a
/// fling past 500 items leaves 500 high-priority loads ahead of everything
/// the prefetcher asks for, and the screen stays blank until they drain. Here
/// the cell owns its request (`value(for:)` in a task) and cancels it in
/// `prepareForReuse()`, as Nuke's image views do; the fetcher's
/// reference-counted cancellation then stops the load only if no prefetch
/// still wants it.
///
/// - `prefetchItemsAt` starts loads at normal priority (`fetchAsync(id)`);
/// - `cancelPrefetchingForItemsAt` withdraws them (`cancelFetch`);
/// - `cellForItemAt` configures the cell at once from `fetchedData(for:)`,
///   or blank and then from a `.high`-priority request whose result is
///   applied only if the cell still represents that item.
@MainActor
final class DemoDataSource {
    static let reuseIdentifier = "DemoGridCell"

    let identifiers: [Int]
    let fetcher: AsyncFetcher<Int, DemoItem>
    /// Prefetched and neither shown nor cancelled: a cancel for anything else is ignored.
    private var prefetched: Set<Int> = []

    init(identifiers: [Int], fetcher: AsyncFetcher<Int, DemoItem>) {
        self.identifiers = identifiers
        self.fetcher = fetcher
    }

    func register(in collectionView: CollectionView) {
        collectionView.register(DemoGridCell.self, forCellWithReuseIdentifier: Self.reuseIdentifier)
    }

    /// Withdraws every prefetch, when the demo ends.
    func cancelAllPrefetches() {
        for identifier in prefetched { fetcher.cancelFetch(identifier) }
        prefetched.removeAll()
    }

    private func identifier(at path: ItemPath) -> Int? {
        guard path.section == 0, identifiers.indices.contains(path.item) else { return nil }
        return identifiers[path.item]
    }
}

extension DemoDataSource: CollectionViewDataSource, CollectionViewDataSourcePrefetching {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        identifiers.count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        let dequeued = collectionView.dequeueReusableCell(withReuseIdentifier: Self.reuseIdentifier, for: indexPath)
        guard let cell = dequeued as? DemoGridCell, let identifier = identifier(at: indexPath) else {
            preconditionFailure("DemoDataSource: expected a DemoGridCell for an item in range, at \(indexPath)")
        }
        cell.representedIdentifier = identifier
        // Shown: the view will never cancel it, so stop tracking it.
        prefetched.remove(identifier)
        if let item = fetcher.fetchedData(for: identifier) {
            cell.configure(with: item)
            return cell
        }
        cell.configure(with: nil)
        let fetcher = self.fetcher
        cell.loadTask = Task { [weak cell] in
            guard let item = try? await fetcher.value(for: identifier, priority: .high) else { return }
            // The cell may show another item by now: only its own value may reach it.
            guard let cell, cell.representedIdentifier == AnyHashable(identifier) else { return }
            cell.configure(with: item)
        }
        return cell
    }

    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [ItemPath]) {
        for path in indexPaths {
            guard let identifier = identifier(at: path), prefetched.insert(identifier).inserted else { continue }
            fetcher.fetchAsync(identifier)
        }
    }

    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [ItemPath]) {
        for path in indexPaths {
            guard let identifier = identifier(at: path), prefetched.remove(identifier) != nil else { continue }
            fetcher.cancelFetch(identifier)
        }
    }
}
