@testable import Lookahead
@testable import LookaheadHeadless

/// One call a view made to its data sources.
enum ViewEvent: Hashable, CustomStringConvertible {
    case cell(ItemPath)
    case prefetch([ItemPath])
    case cancel([ItemPath])

    var description: String {
        switch self {
        case .cell(let path): "cell \(path)"
        case .prefetch(let paths): "prefetch \(paths.map(\.item))"
        case .cancel(let paths): "cancel \(paths.map(\.item))"
        }
    }
}

/// A cell that counts its `prepareForReuse()` calls and checks that the base
/// class cleared `representedIdentifier`.
final class CountingCell: Cell {
    private(set) var preparedForReuse = 0
    private(set) var identifierSurvivedReuse = false

    override func prepareForReuse() {
        super.prepareForReuse()
        preparedForReuse += 1
        if representedIdentifier != nil { identifierSurvivedReuse = true }
    }
}

/// A data source and prefetch data source for either view that records every
/// call, with the visible rect at the time of each prefetch call.
@MainActor
final class ViewEventRecorder: CollectionViewDataSource, CollectionViewDataSourcePrefetching, TableViewDataSource,
    TableViewDataSourcePrefetching
{
    static let reuseIdentifier = "cell"

    var counts: [Int]
    private(set) var events: [ViewEvent] = []
    /// Each prefetch call with the view's bounds when it was made.
    private(set) var prefetchCalls: [(paths: [ItemPath], visibleRect: Rect)] = []
    /// Set when a call came with an empty array.
    private(set) var emptyCalls = 0

    init(counts: [Int]) {
        self.counts = counts
    }

    convenience init(itemCount: Int) {
        self.init(counts: [itemCount])
    }

    /// The events since the last call, then forgets them.
    func takeEvents() -> [ViewEvent] {
        defer { events = [] }
        return events
    }

    var prefetchEvents: [[ItemPath]] {
        events.compactMap { if case .prefetch(let paths) = $0 { paths } else { nil } }
    }

    var cancelEvents: [[ItemPath]] {
        events.compactMap { if case .cancel(let paths) = $0 { paths } else { nil } }
    }

    var cellEvents: [ItemPath] {
        events.compactMap { if case .cell(let path) = $0 { path } else { nil } }
    }

    private func recordPrefetch(_ paths: [ItemPath], visibleRect: Rect) {
        if paths.isEmpty { emptyCalls += 1 }
        events.append(.prefetch(paths))
        prefetchCalls.append((paths, visibleRect))
    }

    private func recordCancel(_ paths: [ItemPath]) {
        if paths.isEmpty { emptyCalls += 1 }
        events.append(.cancel(paths))
    }

    func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        counts[section]
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        events.append(.cell(indexPath))
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: Self.reuseIdentifier, for: indexPath)
        cell.representedIdentifier = indexPath
        return cell
    }

    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [ItemPath]) {
        recordPrefetch(indexPaths, visibleRect: collectionView.bounds)
    }

    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [ItemPath]) {
        recordCancel(indexPaths)
    }

    func numberOfSections(in tableView: TableView) -> Int { counts.count }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { counts[section] }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: ItemPath) -> Cell {
        events.append(.cell(indexPath))
        let cell = tableView.dequeueReusableCell(withIdentifier: Self.reuseIdentifier, for: indexPath)
        cell.representedIdentifier = indexPath
        return cell
    }

    func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [ItemPath]) {
        recordPrefetch(indexPaths, visibleRect: tableView.bounds)
    }

    func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [ItemPath]) {
        recordCancel(indexPaths)
    }
}

/// Builders shared by the view tests.
enum ViewFixtures {
    /// Frames at `frameRate` moving from `start` to `end` at `speed` points per
    /// second, beginning one frame after `startTime`; the last frame lands on `end`.
    static func linearTrace(
        from start: Double, to end: Double, speed: Double, startTime: Duration = .zero, frameRate: Int = 60
    ) -> [(time: Duration, offset: Point)] {
        let frame = Duration.seconds(1) / frameRate
        let step = speed / Double(frameRate) * (end >= start ? 1 : -1)
        var trace: [(time: Duration, offset: Point)] = []
        var y = start
        var time = startTime
        while y != end {
            y = end >= start ? min(y + step, end) : max(y + step, end)
            time += frame
            trace.append((time, Point(x: 0, y: y)))
        }
        return trace
    }

    @MainActor
    static func makeCollectionView(
        _ recorder: ViewEventRecorder, grid: CollectionView.Grid = .photoGrid, cellClass: Cell.Type = Cell.self
    ) -> CollectionView {
        let collectionView = CollectionView(grid: grid)
        collectionView.register(cellClass, forCellWithReuseIdentifier: ViewEventRecorder.reuseIdentifier)
        collectionView.dataSource = recorder
        collectionView.prefetchDataSource = recorder
        return collectionView
    }

    @MainActor
    static func makeTableView(_ recorder: ViewEventRecorder, rowHeight: Double = 44) -> TableView {
        let tableView = TableView(rowHeight: rowHeight)
        tableView.register(Cell.self, forCellReuseIdentifier: ViewEventRecorder.reuseIdentifier)
        tableView.dataSource = recorder
        tableView.prefetchDataSource = recorder
        return tableView
    }

    static func paths(_ items: Range<Int>, section: Int = 0) -> [ItemPath] {
        items.map { ItemPath(item: $0, section: section) }
    }
}

extension CollectionView.Grid {
    /// 4 columns of 96 × 103.5 items, 2 apart: a row pitch of 105.5, so
    /// exactly 8 rows (32 items) fit the default 844-point-high viewport.
    static let photoGrid = CollectionView.Grid(columns: 4, spacing: 2, itemSize: .height(103.5))
}
