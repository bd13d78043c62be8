/// A headless `UICollectionView`: a grid of reusable cells with UIKit's
/// prefetching semantics, driven frame by frame.
///
/// Nothing is drawn. What is reproduced is what a data source sees: which
/// cells are asked for and when, how cells are reused, and the
/// `prefetchItemsAt` / `cancelPrefetchingForItemsAt` calls a
/// ``PrefetchPlanner`` makes of the scrolling. Tests, the simulator and
/// Linux demos use it to exercise exactly the code an app hands to UIKit.
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
/// Each layout pass — `layoutIfNeeded()` after a change, or one `step(to:at:)`
/// per frame — recycles the cells that left the viewport, asks the data source
/// for the ones that entered it in ascending order, then gives the planner the
/// frame (the visible rect and the velocity since the last frame) and forwards
/// its decision: cancels first, then prefetches, never with an empty array.
///
/// The data sources are held weakly, as UIKit holds them.
@MainActor
public final class CollectionView {
    let engine: ItemViewEngine

    /// Provides the counts and the cells. Setting another one reloads the data.
    public weak var dataSource: (any CollectionViewDataSource)? {
        didSet {
            if oldValue !== dataSource { reloadData() }
        }
    }

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
        self.engine = ItemViewEngine(viewportSize: size, vocabulary: .collectionView)
        engine.delegate = self
    }

    // MARK: - Prefetching

    /// Whether the prefetch data source is told about upcoming items; on by
    /// default. Turning it off cancels everything it was asked for.
    public var isPrefetchingEnabled: Bool {
        get { engine.isPrefetchingEnabled }
        set { engine.setPrefetchingEnabled(newValue) }
    }

    /// Which items are prefetched; `.system`, UIKit's behaviour, by default.
    public var prefetchPolicy: PrefetchPolicy {
        get { engine.policy }
        set { engine.setPolicy(newValue) }
    }

    /// Tells the prefetch policy how long one load took, for a policy that
    /// learns from it (`.adaptive`); the others ignore it. Feed it from the
    /// fetcher's events:
    ///
    /// ```swift
    /// let observation = fetcher.observe { event in
    ///     guard case .succeeded(_, let duration) = event else { return }
    ///     Task { @MainActor in view.observeLoadDuration(duration) }
    /// }
    /// ```
    public func observeLoadDuration(_ duration: Duration) {
        engine.observeLoadDuration(duration)
    }

    // MARK: - Geometry

    /// The visible area: its origin is the content offset, its size the view's.
    public var bounds: Rect {
        get { Rect(origin: engine.contentOffset, size: engine.viewportSize) }
        set {
            engine.setViewportSize(newValue.size)
            engine.setContentOffset(newValue.origin)
        }
    }

    /// The top-left corner of the visible area. Clamped to the content; the
    /// next layout pass shows it.
    public var contentOffset: Point {
        get { engine.contentOffset }
        set { engine.setContentOffset(newValue) }
    }

    /// Scrolls to `offset` at the next layout pass.
    public func setContentOffset(_ offset: Point) {
        engine.setContentOffset(offset)
    }

    /// The size of all the items; zero until the first layout pass.
    public var contentSize: Size { engine.contentSize }

    /// The grid the items are laid out in; built from the data source's
    /// counts on first use, and again after each reload or batch of updates.
    public var collectionViewLayout: any CollectionLayout { engine.currentLayout }

    // MARK: - Frames

    /// Lays out now if anything changed since the last pass (the first pass,
    /// a new offset, a reload), at the time of the last frame.
    public func layoutIfNeeded() {
        engine.layoutIfNeeded()
    }

    /// One frame of scrolling: moves to `offset` and lays out, with the
    /// velocity measured since the previous frame.
    ///
    /// - Parameters:
    ///   - offset: the new content offset; clamped to the content.
    ///   - time: when the frame is shown, on any fixed origin; not before the
    ///     previous frame.
    /// - Complexity: O(log n + visible + window) for n items.
    public func step(to offset: Point, at time: Duration) {
        engine.step(to: offset, at: time)
    }

    /// Plays a trace of (time, offset) samples, one frame each.
    public func replay(_ trace: some Sequence<(time: Duration, offset: Point)>) {
        for sample in trace { engine.step(to: sample.offset, at: sample.time) }
    }

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

    /// The visible cells, in the order of their index paths.
    public var visibleCells: [Cell] { engine.visiblePaths.compactMap { engine.visibleCells[$0] } }

    /// The visible cell at `indexPath`, or `nil` if the item is not visible.
    ///
    /// - Precondition: `indexPath` is in range.
    public func cellForItem(at indexPath: ItemPath) -> Cell? {
        engine.cell(at: indexPath, caller: "cellForItem(at:)")
    }

    /// The index path of a visible cell, or `nil`.
    ///
    /// - Complexity: O(visible cells).
    public func indexPath(for cell: Cell) -> ItemPath? {
        engine.indexPath(for: cell)
    }

    /// The number of sections, as the data source last reported it.
    public var numberOfSections: Int { engine.numberOfSections }

    /// The number of items in `section`, as the data source last reported it.
    public func numberOfItems(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, caller: "numberOfItems(inSection:)")
    }

    // MARK: - Changes

    /// Discards everything and asks the data source again: cancels what was
    /// asked for, recycles the visible cells, and makes the next layout pass a
    /// first layout.
    public func reloadData() {
        engine.reloadData()
    }

    /// Asks the data source again for the visible cells among `indexPaths`.
    ///
    /// - Precondition: every index path is in range.
    public func reloadItems(at indexPaths: [ItemPath]) {
        engine.reloadItems(at: indexPaths)
    }

    /// Applies the inserts, deletes and moves that `updates` reports, after it
    /// has changed the model.
    ///
    /// Deletes and move sources are index paths before the update, inserts and
    /// move destinations index paths after it. Outstanding prefetches and
    /// visible cells follow their items to their new index paths; a deleted
    /// item's cell is recycled and its prefetch dropped without a cancel. The
    /// view then lays out again.
    ///
    /// - Precondition: the data source's counts after the update equal those
    ///   before it, plus inserts, minus deletes, plus or minus moves, section
    ///   by section.
    public func performBatchUpdates(_ updates: () -> Void) {
        engine.performBatchUpdates(updates)
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

    /// How many cells the reuse pool has created.
    package var createdCellCount: Int { engine.createdCellCount }

    /// The items asked for and neither shown nor cancelled since.
    package var outstandingPrefetches: Set<ItemPath> { engine.outstandingPrefetches }
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

    var engineCanPrefetch: Bool { prefetchDataSource != nil }

    func enginePrefetch(_ paths: [ItemPath]) {
        prefetchDataSource?.collectionView(self, prefetchItemsAt: paths)
    }

    func engineCancelPrefetching(_ paths: [ItemPath]) {
        prefetchDataSource?.collectionView(self, cancelPrefetchingForItemsAt: paths)
    }
}
