/// The `CustomDataSource` of Apple's "Prefetching collection view data"
/// sample, over an ``AsyncFetcher``: one section of items, each loaded by its
/// identifier, for a ``CollectionView`` or a ``TableView``.
///
/// It is both the data source and the prefetch data source:
/// - `prefetchItemsAt` starts loading the items' values (`fetchAsync(id)`);
/// - `cancelPrefetchingForItemsAt` withdraws those prefetches (`cancelFetch`),
///   which stops a load only if no cell is waiting for it;
/// - `cellForItemAt` copes with the three states a value can be in: loaded
///   (configured at once from `fetchedData(for:)`), in flight or never
///   requested (configured blank, then from a `.high`-priority request
///   delivered on the main actor, whose completion checks
///   `representedIdentifier`; a cell reused for another item cancels its
///   previous request, so a fling does not queue loads nobody will see).
///
/// ```swift
/// let dataSource = ExampleFeedDataSource(models: ids, fetcher: fetcher)
/// dataSource.register(in: tableView)
/// tableView.dataSource = dataSource
/// tableView.prefetchDataSource = dataSource
/// tableView.performBatchUpdates {
///     tableView.insertRows(at: dataSource.insert([newID], at: 0))
/// }
/// // When the screen goes away:
/// tableView.prefetchDataSource = nil
/// dataSource.cancelAllRequests()
/// ```
///
/// Identifiers must be unique, as in a diffable data source: prefetching is
/// keyed by them. The `lookahead demo` grid is this type over a
/// `CollectionView`, reading what it draws from its ``ContentCell``s.

public import Lookahead

@MainActor
public final class ExampleFeedDataSource<ID: Hashable & Sendable, Value: Sendable> {
    /// The reuse identifier the cells are registered under.
    public nonisolated static var reuseIdentifier: String { "ExampleFeedDataSource.ContentCell" }

    /// The items, in display order.
    public private(set) var models: [ID]

    /// Loads and caches the values.
    public let fetcher: AsyncFetcher<ID, Value>

    /// Items this data source prefetched that were neither shown nor cancelled.
    ///
    /// Cancels arrive as index paths, and an index path only names the right
    /// item if the view and the model agree on it. After a batch update they
    /// do (the view moves its prefetches with their items); after
    /// `reloadData()` they do not (its cancels name index paths of the old
    /// model). Cancelling only what is in this set makes a stale index path
    /// harmless: `replaceModels(with:)` has already withdrawn and forgotten
    /// everything.
    private var prefetched: Set<ID> = []

    /// The pending display request of each cell. A cell reused for another
    /// item withdraws its previous item's request, so that a fling does not
    /// leave a trail of `.high` loads nobody will see (the load stops unless a
    /// prefetch or another cell still wants it).
    private var requests: [ObjectIdentifier: FetchTask] = [:]

    /// Makes a cell's display request for the item at a path: `nil` (the
    /// default) asks ``fetcher`` at `.high`. Set it to route the requests
    /// through a ``PrefetchCoordinator`` that plans this view's prefetches —
    /// `{ path, cell, completion in coordinator.requestDisplay(at: path, for: cell, completion: completion) }`
    /// — which asks at the planner's priority and lowers a request a fling
    /// carries away. A `nil` request leaves the cell blank.
    public var displayRequester:
        (
            @MainActor (ItemPath, Cell, @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void) ->
                FetchTask?
        )?

    /// Creates a data source for `models`, loading values with `fetcher`.
    public init(models: [ID], fetcher: AsyncFetcher<ID, Value>) {
        self.models = models
        self.fetcher = fetcher
    }

    /// Registers ``ContentCell`` for ``reuseIdentifier``.
    public func register(in collectionView: CollectionView) {
        collectionView.register(ContentCell<Value>.self, forCellWithReuseIdentifier: Self.reuseIdentifier)
    }

    /// Registers ``ContentCell`` for ``reuseIdentifier``.
    public func register(in tableView: TableView) {
        tableView.register(ContentCell<Value>.self, forCellReuseIdentifier: Self.reuseIdentifier)
    }

    // MARK: - Changing the model

    /// Inserts `identifiers` at `index` and returns their index paths, to
    /// report with `insertItems(at:)` / `insertRows(at:)`.
    ///
    /// - Complexity: O(n) for n items.
    @discardableResult
    public func insert(_ identifiers: [ID], at index: Int) -> [ItemPath] {
        precondition(
            index >= 0 && index <= models.count,
            "ExampleFeedDataSource.insert(_:at:): index \(index) is out of range (\(models.count) items)")
        models.insert(contentsOf: identifiers, at: index)
        return (index..<index + identifiers.count).map { ItemPath(item: $0, section: 0) }
    }

    /// Removes the items at `indices` (positions before the removal) and
    /// returns their index paths, to report with `deleteItems(at:)` /
    /// `deleteRows(at:)`.
    ///
    /// Withdraws the prefetches of the removed identifiers. The view will not:
    /// a deleted item's index path no longer exists, so the view drops its
    /// prefetch without a cancel call, and without this the fetcher would go
    /// on loading, at prefetch priority, items nobody can scroll to. A cell
    /// waiting for a removed item keeps its request (a cancel only withdraws
    /// prefetches); its completion is then ignored or fills a recycled cell
    /// with that item's own value.
    ///
    /// - Complexity: O(n + k log k) for n items and k removed.
    @discardableResult
    public func removeItems(at indices: [Int]) -> [ItemPath] {
        let sorted = Set(indices).sorted()
        for index in sorted {
            precondition(
                index >= 0 && index < models.count,
                "ExampleFeedDataSource.removeItems(at:): index \(index) is out of range (\(models.count) items)")
        }
        for index in sorted.reversed() {
            let identifier = models.remove(at: index)
            prefetched.remove(identifier)
            fetcher.cancelPrefetching(for: identifier)
        }
        return sorted.map { ItemPath(item: $0, section: 0) }
    }

    /// Moves the item at `source` to `destination` (its position after the
    /// move) and returns both index paths, to report with `moveItem(at:to:)`.
    ///
    /// - Complexity: O(n) for n items.
    @discardableResult
    public func moveItem(from source: Int, to destination: Int) -> (from: ItemPath, to: ItemPath) {
        precondition(
            models.indices.contains(source) && models.indices.contains(destination),
            "ExampleFeedDataSource.moveItem(from:to:): \(source) → \(destination) is out of range "
                + "(\(models.count) items)")
        models.insert(models.remove(at: source), at: destination)
        return (ItemPath(item: source, section: 0), ItemPath(item: destination, section: 0))
    }

    /// Replaces every item, before `reloadData()`.
    ///
    /// Withdraws every prefetch first: the reload's cancels will name index
    /// paths of the old items, which the new ones no longer match.
    public func replaceModels(with identifiers: [ID]) {
        for identifier in prefetched { fetcher.cancelPrefetching(for: identifier) }
        prefetched.removeAll()
        models = identifiers
    }

    /// Withdraws every request the data source made: its prefetches and its
    /// cells' pending display requests. Call it when the screen goes away
    /// (after setting the view's `prefetchDataSource` to `nil`), so that the
    /// fetcher stops the loads nobody will see; a load another caller still
    /// wants goes on. The cells keep what they show; one configured again
    /// asks for its item anew.
    ///
    /// - Complexity: O(p + c) for p prefetched items and c waiting cells.
    public func cancelAllRequests() {
        for identifier in prefetched { fetcher.cancelPrefetching(for: identifier) }
        prefetched.removeAll()
        let pending = requests.values
        requests.removeAll()
        for request in pending { request.cancel() }
    }

    // MARK: - Shared by both kinds of view (see ItemScrollViewDataSource)

    func numberOfItems(inSection section: Int) -> Int {
        models.count
    }

    private func identifier(at path: ItemPath) -> ID? {
        guard path.section == 0, models.indices.contains(path.item) else { return nil }
        return models[path.item]
    }

    func configuredCell(_ dequeued: Cell, at path: ItemPath) -> Cell {
        guard let cell = dequeued as? ContentCell<Value> else {
            preconditionFailure(
                "ExampleFeedDataSource: expected a ContentCell<\(Value.self)> for reuse identifier "
                    + "\(Self.reuseIdentifier), got \(type(of: dequeued)); call register(in:)")
        }
        guard let identifier = identifier(at: path) else {
            preconditionFailure(
                "ExampleFeedDataSource: asked for a cell at \(path), but there are \(models.count) items in "
                    + "section 0; report model changes to the view")
        }
        let cellID = ObjectIdentifier(cell)
        let previousIdentifier = cell.representedIdentifier
        cell.representedIdentifier = identifier
        // Shown: the view will never cancel it, so stop tracking it.
        prefetched.remove(identifier)

        if let request = requests[cellID] {
            if previousIdentifier == AnyHashable(identifier), request.isPending {
                // The same item again (a reload): its request still stands.
                cell.configure(with: fetcher.fetchedData(for: identifier))
                return cell
            }
            // Reused for another item: the previous one is no longer wanted here.
            requests[cellID] = nil
            request.cancel()
        }
        if let value = fetcher.fetchedData(for: identifier) {
            cell.configure(with: value)
            return cell
        }
        cell.configure(with: nil)
        let completion: @MainActor @Sendable (Result<Value, any Error>) -> Void = { [weak self, weak cell] result in
            // The cell may show another item by now: only its own value may reach it.
            // A cancelled request's cell has moved on, perhaps back to this item with a new request.
            if case .failure(is CancellationError) = result { return }
            guard let cell, cell.representedIdentifier == AnyHashable(identifier) else { return }
            self?.requests[cellID] = nil
            if case .success(let value) = result { cell.configure(with: value) }
        }
        let request =
            if let displayRequester {
                displayRequester(path, cell, completion)
            } else {
                fetcher.requestDisplay(of: identifier, priority: .high, completion: completion)
            }
        if let request, request.isPending { requests[cellID] = request }
        return cell
    }

    func prefetch(_ paths: [ItemPath]) {
        for path in paths {
            guard let identifier = identifier(at: path), prefetched.insert(identifier).inserted else { continue }
            fetcher.fetchAsync(identifier)
        }
    }

    func cancelPrefetching(_ paths: [ItemPath]) {
        for path in paths {
            guard let identifier = identifier(at: path), prefetched.remove(identifier) != nil else { continue }
            fetcher.cancelPrefetching(for: identifier)
        }
    }

    /// The identifiers prefetched and neither shown nor cancelled. For tests.
    package var prefetchedIdentifiers: Set<ID> { prefetched }
}

extension ExampleFeedDataSource: CollectionViewDataSource, CollectionViewDataSourcePrefetching, TableViewDataSource,
    TableViewDataSourcePrefetching, ItemScrollViewDataSource
{}
