/// A headless `UITableView`: a list of reusable cells with UIKit's
/// prefetching semantics, driven frame by frame.
///
/// The table counterpart of ``CollectionView``, with UIKit's table names
/// (`prefetchRowsAt`, `cellForRowAt`, `insertRows(at:)`, …). Rows are laid out
/// by a ``ListLayout``: all `rowHeight` high, or as tall as `heightForRowAt`
/// says.
///
/// ```swift
/// let tableView = TableView()
/// tableView.register(ContentCell<Post>.self, forCellReuseIdentifier: "post")
/// tableView.dataSource = dataSource
/// tableView.prefetchDataSource = dataSource
/// tableView.layoutIfNeeded()
/// tableView.replay(trace)                                // (time, offset) samples
/// ```
///
/// The data sources are held weakly, as UIKit holds them.
@MainActor
public final class TableView {
    let engine: ItemViewEngine

    /// Provides the counts and the cells. Setting another one reloads the data.
    public weak var dataSource: (any TableViewDataSource)? {
        didSet {
            if oldValue !== dataSource { reloadData() }
        }
    }

    /// Told which rows to load ahead of time. Replacing it cancels, on the old
    /// one, what it was asked for.
    public weak var prefetchDataSource: (any TableViewDataSourcePrefetching)? {
        didSet {
            guard oldValue !== prefetchDataSource else { return }
            let withdrawn = engine.withdrawPrefetches()
            if let oldValue, !withdrawn.isEmpty {
                oldValue.tableView(self, cancelPrefetchingForRowsAt: withdrawn)
            }
        }
    }

    /// The height of every row, unless `heightForRowAt` is set; 44 by default,
    /// as in UIKit.
    public var rowHeight: Double {
        didSet {
            if oldValue != rowHeight { engine.invalidateLayout() }
        }
    }

    /// The height of each row, when rows differ. Asked for every row whenever
    /// the layout is rebuilt (O(n)), as UIKit asks a table delegate without
    /// estimated heights.
    public var heightForRowAt: (@MainActor (ItemPath) -> Double)? {
        didSet { engine.invalidateLayout() }
    }

    /// Creates a table view.
    ///
    /// - Parameters:
    ///   - rowHeight: the height of every row.
    ///   - size: the size of the visible area; an iPhone's by default.
    public init(rowHeight: Double = 44, size: Size = Size(width: 390, height: 844)) {
        self.rowHeight = rowHeight
        self.engine = ItemViewEngine(viewportSize: size, vocabulary: .tableView)
        engine.delegate = self
    }

    // MARK: - Prefetching

    /// Whether the prefetch data source is told about upcoming rows; on by
    /// default. Turning it off cancels everything it was asked for.
    public var isPrefetchingEnabled: Bool {
        get { engine.isPrefetchingEnabled }
        set { engine.setPrefetchingEnabled(newValue) }
    }

    /// Which rows are prefetched; `.system`, UIKit's behaviour, by default.
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

    /// The size of all the rows; zero until the first layout pass.
    public var contentSize: Size { engine.contentSize }

    /// The frame of the row at `indexPath`, in content coordinates.
    ///
    /// - Precondition: `indexPath` is in range.
    public func rectForRow(at indexPath: ItemPath) -> Rect {
        let layout = engine.currentLayout
        engine.checkPath(indexPath, in: layout, "rectForRow(at:)")
        return layout.frame(at: indexPath)
    }

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
    /// - Complexity: O(log n + visible + window) for n rows.
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
    public func register(_ cellClass: Cell.Type, forCellReuseIdentifier identifier: String) {
        engine.register(cellClass, forReuseIdentifier: identifier)
    }

    /// A cell to configure for `indexPath`: one that scrolled off, after its
    /// `prepareForReuse()`, or a new one.
    ///
    /// - Precondition: a class is registered for `identifier`, and
    ///   `indexPath` is in range.
    /// - Complexity: O(1) amortized.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: ItemPath) -> Cell {
        engine.dequeueCell(withReuseIdentifier: identifier, for: indexPath)
    }

    /// The index paths of the visible rows, ascending.
    public var indexPathsForVisibleRows: [ItemPath] { engine.visiblePaths }

    /// The visible cells, in the order of their index paths.
    public var visibleCells: [Cell] { engine.visiblePaths.compactMap { engine.visibleCells[$0] } }

    /// The visible cell at `indexPath`, or `nil` if the row is not visible.
    ///
    /// - Precondition: `indexPath` is in range.
    public func cellForRow(at indexPath: ItemPath) -> Cell? {
        engine.cell(at: indexPath, caller: "cellForRow(at:)")
    }

    /// The index path of a visible cell, or `nil`.
    ///
    /// - Complexity: O(visible cells).
    public func indexPath(for cell: Cell) -> ItemPath? {
        engine.indexPath(for: cell)
    }

    /// The number of sections, as the data source last reported it.
    public var numberOfSections: Int { engine.numberOfSections }

    /// The number of rows in `section`, as the data source last reported it.
    public func numberOfRows(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, caller: "numberOfRows(inSection:)")
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
    public func reloadRows(at indexPaths: [ItemPath]) {
        engine.reloadItems(at: indexPaths)
    }

    /// Applies the inserts, deletes and moves that `updates` reports, after it
    /// has changed the model.
    ///
    /// Deletes and move sources are index paths before the update, inserts and
    /// move destinations index paths after it. Outstanding prefetches and
    /// visible cells follow their rows to their new index paths; a deleted
    /// row's cell is recycled and its prefetch dropped without a cancel. The
    /// view then lays out again.
    ///
    /// - Precondition: the data source's counts after the update equal those
    ///   before it, plus inserts, minus deletes, plus or minus moves, section
    ///   by section.
    public func performBatchUpdates(_ updates: () -> Void) {
        engine.performBatchUpdates(updates)
    }

    /// Reports rows inserted at `indexPaths` (after the update).
    public func insertRows(at indexPaths: [ItemPath]) {
        engine.insertItems(at: indexPaths)
    }

    /// Reports rows deleted from `indexPaths` (before the update).
    public func deleteRows(at indexPaths: [ItemPath]) {
        engine.deleteItems(at: indexPaths)
    }

    /// Reports a row moved from `indexPath` (before) to `newIndexPath` (after).
    public func moveRow(at indexPath: ItemPath, to newIndexPath: ItemPath) {
        engine.moveItem(at: indexPath, to: newIndexPath)
    }

    // MARK: - Test hooks

    /// The current layout, built from the data source's counts on first use.
    package var layout: any CollectionLayout { engine.currentLayout }

    /// How many cells the reuse pool has created.
    package var createdCellCount: Int { engine.createdCellCount }

    /// The rows asked for and neither shown nor cancelled since.
    package var outstandingPrefetches: Set<ItemPath> { engine.outstandingPrefetches }
}

extension TableView: ItemViewEngineDelegate {
    func engineItemCounts() -> [Int] {
        guard let dataSource else { return [] }
        let sections = dataSource.numberOfSections(in: self)
        precondition(sections >= 0, "TableView: numberOfSections(in:) returned \(sections)")
        return (0..<sections).map { dataSource.tableView(self, numberOfRowsInSection: $0) }
    }

    func engineMakeLayout(itemCounts: [Int], width: Double) -> any CollectionLayout {
        guard let heightForRowAt else {
            return ListLayout(width: width, rowHeight: rowHeight, rowCounts: itemCounts)
        }
        let heights = itemCounts.enumerated().map { section, count in
            (0..<count).map { heightForRowAt(ItemPath(row: $0, section: section)) }
        }
        return ListLayout(width: width, heights: heights)
    }

    func engineCell(at path: ItemPath) -> Cell? {
        dataSource?.tableView(self, cellForRowAt: path)
    }

    var engineCanPrefetch: Bool { prefetchDataSource != nil }

    func enginePrefetch(_ paths: [ItemPath]) {
        prefetchDataSource?.tableView(self, prefetchRowsAt: paths)
    }

    func engineCancelPrefetching(_ paths: [ItemPath]) {
        prefetchDataSource?.tableView(self, cancelPrefetchingForRowsAt: paths)
    }
}
