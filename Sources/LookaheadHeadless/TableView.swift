/// A headless `UITableView`: a list of reusable cells with UIKit's
/// prefetching semantics, driven frame by frame.
///
/// The table counterpart of ``CollectionView``, with UIKit's table names
/// (`prefetchRowsAt`, `cellForRowAt`, `insertRows(at:)`, …); what the two
/// share — frames, prefetching, reloads — is ``ItemScrollView``'s. Rows are
/// laid out by a ``ListLayout``: all `rowHeight` high, or as tall as
/// `heightForRowAt` says.
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

public import Lookahead

@MainActor
public final class TableView: ItemScrollView {
    /// Told when cells are shown and leave the screen; held weakly.
    public weak var delegate: (any TableViewDelegate)?

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
        super.init(viewportSize: size, vocabulary: .tableView)
        engine.delegate = self
    }

    // MARK: - Geometry

    /// The frame of the row at `indexPath`, in content coordinates.
    ///
    /// - Precondition: `indexPath` is in range.
    public func rectForRow(at indexPath: ItemPath) -> Rect {
        let layout = engine.currentLayout
        engine.checkPath(indexPath, in: layout, "rectForRow(at:)")
        return layout.frame(at: indexPath)
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

    /// The visible cell at `indexPath`, or `nil` if the row is not visible.
    ///
    /// - Precondition: `indexPath` is in range.
    public func cellForRow(at indexPath: ItemPath) -> Cell? {
        engine.cell(at: indexPath, caller: "cellForRow(at:)")
    }

    /// The number of rows in `section`, as the data source last reported it.
    public func numberOfRows(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, caller: "numberOfRows(inSection:)")
    }

    // MARK: - Changes

    /// Asks the data source again for the visible cells among `indexPaths`.
    ///
    /// - Precondition: every index path is in range.
    public func reloadRows(at indexPaths: [ItemPath]) {
        engine.reloadItems(at: indexPaths)
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

    func engineWillDisplay(_ cell: Cell, at path: ItemPath) {
        delegate?.tableView(self, willDisplay: cell, forRowAt: path)
    }

    func engineDidEndDisplaying(_ cell: Cell, at path: ItemPath) {
        delegate?.tableView(self, didEndDisplaying: cell, forRowAt: path)
    }

    var engineCanPrefetch: Bool { prefetchDataSource != nil }

    func enginePrefetch(_ paths: [ItemPath]) {
        prefetchDataSource?.tableView(self, prefetchRowsAt: paths)
    }

    func engineCancelPrefetching(_ paths: [ItemPath]) {
        prefetchDataSource?.tableView(self, cancelPrefetchingForRowsAt: paths)
    }
}
