@testable import Lookahead
@testable import LookaheadHeadless

/// A headless feed of carousels as an app builds one: an outer
/// ``CollectionView`` of rows, each a ``CarouselCell`` whose inner collection
/// shows the row's items, optionally reporting to a
/// ``NestedPrefetchCoordinator``. The key of an item is its identity in
/// ``model``: `r * 1000 + i` for item `i` of row `r` until a batch update
/// moves it.
@MainActor
final class NestedFeedFixture: CollectionViewDataSource {
    /// 40 carousel rows of 30 items, 200 pt high; items 120 pt wide, 10 pt apart, on a 390 × 844 screen.
    static let layout = CarouselFeedLayout(
        width: 390,
        rows: Array(repeating: .carousel(height: 200, itemWidth: 120, itemCount: 30, spacing: 10), count: 40))
    static let frameTime = Duration.nanoseconds(16_666_667)

    let feed = CollectionView(grid: CollectionView.Grid(columns: 1, itemSize: .height(200)))
    let gate = LoadGate<Int, String>()
    let fetcher: AsyncFetcher<Int, String>
    let coordinator: NestedPrefetchCoordinator<Int, String>?
    let deliveries = Deliveries<String>()
    /// The feed's data: each row's item keys, which batch updates change.
    let data = FeedData()
    /// Data delivered to a cell showing another item.
    var mismatches: [String] = []
    private(set) var time = Duration.zero

    init(
        coordinated: Bool = true, policy: PrefetchPolicy = .screens(leading: 2, trailing: 1),
        carouselPolicy: PrefetchPolicy = .system, maxConcurrentLoads: Int = 10_000
    ) {
        let gate = gate
        let data = data
        fetcher = AsyncFetcher(maxConcurrentLoads: maxConcurrentLoads) { key in try await gate.load(key) }
        coordinator =
            coordinated
            ? NestedPrefetchCoordinator(
                fetcher: fetcher, layout: Self.layout, policy: policy, carouselPolicy: carouselPolicy
            ) { path in data.key(at: path) } : nil
        feed.register(RowCell.self, forCellWithReuseIdentifier: "row")
        feed.dataSource = self
        feed.layoutIfNeeded()
    }

    static func key(_ row: Int, _ item: Int) -> Int { row * 1_000 + item }

    /// Moves the feed to `y` one frame later and reports it.
    func scrollFeed(to y: Double) {
        time += Self.frameTime
        feed.step(to: Point(x: 0, y: y), at: time)
        coordinator?.scrollViewDidScroll(contentOffset: feed.contentOffset, viewportSize: feed.bounds.size, at: time)
    }

    /// Moves row `row`'s carousel, which must be on screen, to `x` one frame later and reports it.
    func swipe(row: Int, to x: Double) {
        time += Self.frameTime
        let cell = rowCell(row)
        cell.collectionView.step(to: Point(x: x, y: 0), at: time)
        cell.link?.scrollViewDidScroll(contentOffsetX: cell.collectionView.contentOffset.x, at: time)
    }

    /// The cell showing row `row`, which must be on screen.
    func rowCell(_ row: Int) -> RowCell {
        guard let cell = feed.cellForItem(at: ItemPath(item: row, section: 0)) as? RowCell else {
            preconditionFailure("row \(row) is not on screen")
        }
        return cell
    }

    /// The inner items on screen of row `row`'s cell.
    func visibleItems(ofRow row: Int) -> [Int] {
        rowCell(row).collectionView.indexPathsForVisibleItems.map(\.item)
    }

    /// The keys the coordinator holds prefetched.
    var prefetchedKeys: Set<Int> { Set(coordinator?.prefetchedKeysByPath.values ?? [:].values) }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        data.rows.count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        guard let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath) as? RowCell
        else { preconditionFailure("RowCell is registered") }
        // As an app does: the reused cell's inner collection gets the new row, at the offset that row had.
        cell.row = indexPath.item
        cell.fixture = self
        var offset = 0.0
        if let coordinator {
            cell.link = coordinator.registerNested(cell.link, forRow: indexPath.item)
            offset = cell.link?.contentOffset ?? 0
        }
        cell.collectionView.reloadData()
        cell.collectionView.contentOffset = Point(x: offset, y: 0)
        cell.collectionView.layoutIfNeeded()
        return cell
    }
}

/// A feed row: a carousel whose inner collection shows row `row`'s items and
/// asks for each visible one through the row's link.
@MainActor
final class RowCell: CarouselCell, CollectionViewDataSource {
    var row = 0
    weak var fixture: NestedFeedFixture?
    var link: NestedCollectionLink<Int, String>?

    required init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
        collectionView.register(ItemCell.self, forCellWithReuseIdentifier: "item")
        collectionView.dataSource = self
    }

    /// The row shown: the link's, which follows the row through batch updates (`nil` once deleted).
    var shownRow: Int? { link == nil ? row : link?.row }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        guard let shownRow, let data = fixture?.data, data.rows.indices.contains(shownRow) else { return 0 }
        return data.rows[shownRow].count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell {
        guard let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath) as? ItemCell
        else { preconditionFailure("ItemCell is registered") }
        let key = shownRow.flatMap { fixture?.data.rows[$0][indexPath.item] }
        cell.representedIdentifier = key
        cell.key = key
        cell.data = fixture?.data
        cell.link = link
        if let fixture {
            cell.request = link?.requestDisplay(atItem: indexPath.item, for: cell) { [weak cell, weak fixture] result in
                // The data must be that of the item the cell shows when it lands.
                if case .success(let value) = result, let cell, cell.representedIdentifier != AnyHashable(Int(value)) {
                    fixture?.mismatches.append(
                        "\(value) delivered to the cell of \(String(describing: cell.representedIdentifier))")
                }
                fixture?.deliveries.record(result)
            }
        }
        return cell
    }
}

/// An inner cell: reports leaving the screen, and withdraws its display
/// request when reused for another item, as an app's cell may.
@MainActor
final class ItemCell: Cell {
    var key: Int?
    weak var data: FeedData?
    var link: NestedCollectionLink<Int, String>?
    var request: FetchTask?

    override func prepareForReuse() {
        super.prepareForReuse()
        request?.cancel()
        request = nil
    }

    override func didEndDisplaying() {
        super.didEndDisplaying()
        link?.didEndDisplaying(self)
    }
}

/// The feed's data as the app holds it: each row's item keys.
@MainActor
final class FeedData {
    /// 40 rows of 30 items, item `i` of row `r` keyed `r * 1000 + i`.
    var rows: [[Int]] = (0..<40).map { row in (0..<30).map { row * 1_000 + $0 } }
    /// The last key given to an inserted row's items (its first item's), and to an inserted item.
    var nextRowKey = 1_000_000
    var nextItemKey = 10_000_000

    /// The feed's layout for the data: every row a carousel of its items, as ``NestedFeedFixture/layout``.
    var layout: CarouselFeedLayout {
        CarouselFeedLayout(
            width: 390, rows: rows.map { .carousel(height: 200, itemWidth: 120, itemCount: $0.count, spacing: 10) })
    }

    func key(at path: NestedItemPath) -> Int { rows[path.row][path.item] }
}
