@testable import Lookahead
@testable import LookaheadHeadless

/// A feed item's data; it names the item it belongs to, so a cell showing it
/// can tell whether it is its own.
struct FeedPayload: Sendable, Hashable {
    let id: Int
}

/// A ``ContentCell`` that checks every configuration: a value may only reach
/// the cell that represents its item.
final class CheckingCell: ContentCell<FeedPayload> {
    private(set) var mismatches: [String] = []

    override func configure(with value: FeedPayload?) {
        if let value, representedIdentifier != AnyHashable(value.id) {
            mismatches.append(
                "a cell representing \(String(describing: representedIdentifier)) got item \(value.id)'s data")
        }
        super.configure(with: value)
    }
}

/// Stands between a table view and an ``ExampleFeedDataSource``: forwards
/// every call, keeps every cell it hands out, and checks the prefetch calls
/// by identity — an item is asked for once until it is shown, cancelled or
/// deleted, and a cancel must name, by its index path at that moment, an
/// item that was asked for.
@MainActor
final class FeedProxy: TableViewDataSource, TableViewDataSourcePrefetching {
    let feed: ExampleFeedDataSource<Int, FeedPayload>
    private(set) var cells: [ObjectIdentifier: CheckingCell] = [:]
    /// Items asked for and neither shown, cancelled nor deleted.
    private(set) var outstanding: Set<Int> = []
    private(set) var violations: [String] = []
    private(set) var prefetchCount = 0
    private(set) var cancelCount = 0

    init(feed: ExampleFeedDataSource<Int, FeedPayload>) {
        self.feed = feed
    }

    /// The view drops deleted items' prefetches without a call.
    func itemsDeleted(_ identifiers: some Sequence<Int>) {
        outstanding.subtract(identifiers)
    }

    private func identifier(at path: ItemPath, _ call: String) -> Int? {
        guard path.section == 0, feed.models.indices.contains(path.row) else {
            violations.append("\(call) named \(path), out of range (\(feed.models.count) items)")
            return nil
        }
        return feed.models[path.row]
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        feed.tableView(tableView, numberOfRowsInSection: section)
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: ItemPath) -> Cell {
        if let id = identifier(at: indexPath, "cellForRowAt") { outstanding.remove(id) }
        let cell = feed.tableView(tableView, cellForRowAt: indexPath)
        guard let checking = cell as? CheckingCell else {
            violations.append("cellForRowAt returned a \(type(of: cell))")
            return cell
        }
        cells[ObjectIdentifier(checking)] = checking
        return cell
    }

    func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [ItemPath]) {
        prefetchCount += 1
        if indexPaths.isEmpty { violations.append("prefetchRowsAt with no rows") }
        let visible = Set(tableView.indexPathsForVisibleRows)
        for path in indexPaths {
            if visible.contains(path) { violations.append("prefetchRowsAt named the visible row \(path)") }
            guard let id = identifier(at: path, "prefetchRowsAt") else { continue }
            if !outstanding.insert(id).inserted { violations.append("item \(id) was asked for twice") }
        }
        feed.tableView(tableView, prefetchRowsAt: indexPaths)
    }

    func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [ItemPath]) {
        cancelCount += 1
        if indexPaths.isEmpty { violations.append("cancelPrefetchingForRowsAt with no rows") }
        for path in indexPaths {
            guard let id = identifier(at: path, "cancelPrefetchingForRowsAt") else { continue }
            if outstanding.remove(id) == nil {
                violations.append("a cancel at \(path) named item \(id), which was not asked for")
            }
        }
        feed.tableView(tableView, cancelPrefetchingForRowsAt: indexPaths)
    }
}

/// Scrolling as a user does it: drags at normal speed, flings that slow down
/// as UIScrollView's do (0.998 per millisecond), reversals, jumps, rests.
struct RandomScroller {
    var maxOffset: Double
    private(set) var offset = 0.0
    private(set) var velocity = 0.0
    private(set) var time = Duration.zero

    init(maxOffset: Double) {
        self.maxOffset = maxOffset
    }

    /// The next 60 Hz frame.
    mutating func next(using random: inout SeededRandom) -> (time: Duration, offset: Point) {
        let roll = Double.random(in: 0..<1, using: &random)
        let sign: Double = Bool.random(using: &random) ? 1 : -1
        if roll < 0.012 {
            velocity = sign * Double.random(in: 2_000...9_000, using: &random)  // a fling
        } else if roll < 0.02 {
            velocity = -velocity  // a reversal
        } else if roll < 0.025 {
            offset = Double.random(in: 0...maxOffset, using: &random)  // a jump (tap on the status bar, a link)
            velocity = 0
        } else if roll < 0.05 {
            velocity = sign * Double.random(in: 30...600, using: &random)  // a drag
        } else if roll < 0.055 {
            velocity = 0  // a rest
        }
        // 0.998 per millisecond over a 16.7 ms frame.
        velocity *= 0.967_17
        offset = min(max(offset + velocity / 60, 0), maxOffset)
        if offset == 0 || offset == maxOffset { velocity = 0 }
        time += .seconds(1) / 60
        return (time, Point(x: 0, y: offset))
    }
}

extension ViewFixtures {
    /// A fetcher over `loader` with a small cache, so that items scrolled
    /// back to often have to load again.
    static func makeFetcher(
        _ loader: LoadGate<Int, FeedPayload>, maxConcurrentLoads: Int = 8, cacheCount: Int = 40
    ) -> AsyncFetcher<Int, FeedPayload> {
        AsyncFetcher(
            maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: cacheCount),
            retryPolicy: .never
        ) { key in
            try await loader.load(key)
        }
    }

    /// A table showing `feed` through a proxy, with checking cells.
    @MainActor
    static func makeFeedTable(_ proxy: FeedProxy, rowHeight: Double = 44) -> TableView {
        let tableView = TableView(rowHeight: rowHeight)
        proxy.feed.register(in: tableView)
        // Replaces the feed's own registration: the feed dequeues these as ContentCells.
        tableView.register(
            CheckingCell.self, forCellReuseIdentifier: ExampleFeedDataSource<Int, FeedPayload>.reuseIdentifier)
        tableView.dataSource = proxy
        tableView.prefetchDataSource = proxy
        return tableView
    }

    /// Finishes every load, in random order, until the fetcher is idle, then
    /// lets the completions' main-actor tasks run until every visible cell
    /// shows its own item's data (or gives up after many turns).
    @MainActor
    static func drain(
        _ loader: LoadGate<Int, FeedPayload>, _ fetcher: AsyncFetcher<Int, FeedPayload>, _ tableView: TableView,
        _ feed: ExampleFeedDataSource<Int, FeedPayload>, using random: inout SeededRandom
    ) async -> Bool {
        var turns = 0
        while fetcher.runningLoadCount + fetcher.pendingLoadCount > 0 || loader.inFlight > 0 {
            loader.succeedAtRandom(upTo: .max, using: &random) { FeedPayload(id: $0) }
            await Task.yield()
            turns += 1
            if turns > 1_000_000 { return false }
        }
        await fetcher.waitUntilIdle()
        for _ in 0..<10_000 {
            if allVisibleCellsShowTheirItems(tableView, feed) { return true }
            await Task.yield()
        }
        return false
    }

    @MainActor
    static func allVisibleCellsShowTheirItems(
        _ tableView: TableView, _ feed: ExampleFeedDataSource<Int, FeedPayload>
    ) -> Bool {
        tableView.indexPathsForVisibleRows.allSatisfy { path in
            let cell = tableView.cellForRow(at: path) as? ContentCell<FeedPayload>
            return cell?.value?.id == feed.models[path.row]
                && cell?.representedIdentifier == AnyHashable(feed.models[path.row])
        }
    }
}
