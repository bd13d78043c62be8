/// A headless `UICollectionView`: a grid of reusable cells with UIKit's
/// prefetching semantics, driven frame by frame.
///
/// UIKit's collection names (`prefetchItemsAt`, `cellForItemAt`,
/// `insertItems(at:)`, …) over what it shares with ``TableView`` — frames,
/// prefetching, reloads — in ``ItemScrollView``. With
/// ``init(carousel:size:)`` it is one horizontally scrolling row.
///
/// ```swift
/// let collectionView = CollectionView(grid: .init(columns: 4, spacing: 2))
/// collectionView.register(ContentCell<Photo>.self, forCellWithReuseIdentifier: "photo")
/// collectionView.dataSource = dataSource
/// collectionView.prefetchDataSource = dataSource
/// collectionView.layoutIfNeeded()                       // the first layout
/// collectionView.step(to: Point(x: 0, y: 12), at: .milliseconds(16))
/// ```
///
/// The data sources are held weakly, as UIKit holds them.

public import Lookahead

@MainActor
public final class CollectionView: ItemScrollView {
    /// Provides the counts and the cells. Setting another one reloads the data.
    public weak var dataSource: (any CollectionViewDataSource)? {
        didSet {
            if oldValue !== dataSource { reloadData() }
        }
    }

    /// Told when cells are shown and leave the screen; held weakly.
    public weak var delegate: (any CollectionViewDelegate)?

    /// Told which items to load ahead of time. Replacing it cancels, on the
    /// old one, what it was asked for.
    public weak var prefetchDataSource: (any CollectionViewDataSourcePrefetching)? {
        didSet {
            guard oldValue !== prefetchDataSource else { return }
            let withdrawn = engine.withdrawPrefetches()
            if let oldValue, !withdrawn.isEmpty {
                oldValue.collectionView(self, cancelPrefetchingForItemsAt: withdrawn)
            }
        }
    }

    /// The horizontal arrangement of a carousel view, which replaces ``grid``
    /// (see ``init(carousel:size:)``); `nil` for a grid.
    public internal(set) var carousel: Carousel?

    /// How the items are laid out. Changing it lays them out again.
    public var grid: Grid {
        didSet {
            if oldValue != grid { engine.invalidateLayout() }
        }
    }

    /// Creates a collection view.
    ///
    /// - Parameters:
    ///   - grid: how the items are laid out.
    ///   - size: the size of the visible area; an iPhone's by default.
    public init(grid: Grid = Grid(), size: Size = Size(width: 390, height: 844)) {
        self.grid = grid
        super.init(viewportSize: size, vocabulary: .collectionView)
        engine.delegate = self
    }

    // MARK: - Geometry

    /// The grid the items are laid out in; built from the data source's
    /// counts on first use, and again after each reload or batch of updates.
    public var collectionViewLayout: any CollectionLayout { engine.currentLayout }

    // MARK: - Cells

    /// Registers the class the view creates cells with for `identifier`,
    /// replacing any earlier registration and its pooled cells.
    public func register(_ cellClass: Cell.Type, forCellWithReuseIdentifier identifier: String) {
        engine.register(cellClass, forReuseIdentifier: identifier)
    }

    /// A cell to configure for `indexPath`: one that scrolled off, after its
    /// `prepareForReuse()`, or a new one.
    ///
    /// - Precondition: a class is registered for `identifier`, and
    ///   `indexPath` is in range.
    /// - Complexity: O(1) amortized.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: ItemPath) -> Cell {
        engine.dequeueCell(withReuseIdentifier: identifier, for: indexPath)
    }

    /// The index paths of the visible items, ascending.
    public var indexPathsForVisibleItems: [ItemPath] { engine.visiblePaths }

    /// The visible cell at `indexPath`, or `nil` if the item is not visible.
    ///
    /// - Precondition: `indexPath` is in range.
    public func cellForItem(at indexPath: ItemPath) -> Cell? {
        engine.cell(at: indexPath, caller: "cellForItem(at:)")
    }

    /// The number of items in `section`, as the data source last reported it.
    public func numberOfItems(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, caller: "numberOfItems(inSection:)")
    }

    // MARK: - Changes

    /// Asks the data source again for the visible cells among `indexPaths`.
    ///
    /// - Precondition: every index path is in range.
    public func reloadItems(at indexPaths: [ItemPath]) {
        engine.reloadItems(at: indexPaths)
    }

    /// Reports items inserted at `indexPaths` (after the update).
    public func insertItems(at indexPaths: [ItemPath]) {
        engine.insertItems(at: indexPaths)
    }

    /// Reports items deleted from `indexPaths` (before the update).
    public func deleteItems(at indexPaths: [ItemPath]) {
        engine.deleteItems(at: indexPaths)
    }

    /// Reports an item moved from `indexPath` (before) to `newIndexPath` (after).
    public func moveItem(at indexPath: ItemPath, to newIndexPath: ItemPath) {
        engine.moveItem(at: indexPath, to: newIndexPath)
    }

    // MARK: - Test hooks
}

extension CollectionView: ItemViewEngineDelegate {
    func engineItemCounts() -> [Int] {
        guard let dataSource else { return [] }
        let sections = dataSource.numberOfSections(in: self)
        precondition(sections >= 0, "CollectionView: numberOfSections(in:) returned \(sections)")
        return (0..<sections).map { dataSource.collectionView(self, numberOfItemsInSection: $0) }
    }

    func engineMakeLayout(itemCounts: [Int], width: Double) -> any CollectionLayout {
        if let carousel {
            return carousel.makeLayout(itemCounts: itemCounts, height: engine.viewportSize.height)
        }
        return grid.makeLayout(width: width, itemCounts: itemCounts)
    }

    func engineCell(at path: ItemPath) -> Cell? {
        dataSource?.collectionView(self, cellForItemAt: path)
    }

    func engineWillDisplay(_ cell: Cell, at path: ItemPath) {
        delegate?.collectionView(self, willDisplay: cell, forItemAt: path)
    }

    func engineDidEndDisplaying(_ cell: Cell, at path: ItemPath) {
        delegate?.collectionView(self, didEndDisplaying: cell, forItemAt: path)
    }

    var engineCanPrefetch: Bool { prefetchDataSource != nil }

    func enginePrefetch(_ paths: [ItemPath]) {
        prefetchDataSource?.collectionView(self, prefetchItemsAt: paths)
    }

    func engineCancelPrefetching(_ paths: [ItemPath]) {
        prefetchDataSource?.collectionView(self, cancelPrefetchingForItemsAt: paths)
    }
}
