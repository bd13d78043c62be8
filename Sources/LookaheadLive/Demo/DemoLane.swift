#if Tools
import Logging
import Lookahead
import LookaheadHeadless

/// One strategy's grid in a demo run: its own fetcher, data source and
/// collection view over the shared feed, and its own counts.
///
/// A run shows one lane, or two side by side with `--compare`: both follow
/// the same scroll against the same server, so the difference between them
/// is the strategy's alone.
@MainActor
final class DemoLane {
    let strategy: DemoStrategy
    let fetcher: AsyncFetcher<Int, DemoItem>
    let dataSource: ExampleFeedDataSource<Int, DemoItem>
    let collectionView: CollectionView
    private(set) var counter = BlankCellFrameCounter()
    private let byteCount: LockedValue<Int>
    private var observation: FetchObservation?
    /// What plans `adaptive`'s prefetches, as in an app (`LookaheadUIKit`'s
    /// `PrefetchCoordinator(fetcher:collectionView:key:)` forwards a
    /// `UICollectionView` to one): dated, re-dated
    /// every frame, from the planner the simulator runs. `nil` for the other
    /// strategies, which are the view's own prefetching (UIKit's window, or
    /// Texture's range) through its prefetch data source.
    private(set) var coordinator: PrefetchCoordinator<Int, DemoItem>?

    /// Creates a lane for `strategy` over `feed`'s `identifiers`, laid out by `geometry`.
    init(
        strategy: DemoStrategy, configuration: DemoConfiguration, identifiers: [Int], feed: DemoFeed,
        geometry: DemoGeometry
    ) {
        self.strategy = strategy
        let byteCount = LockedValue(0)
        self.byteCount = byteCount
        fetcher = AsyncFetcher<Int, DemoItem>(
            maxConcurrentLoads: configuration.maxConcurrentLoads,
            memoryCache: MemoryCache(countLimit: max(1_000, identifiers.count)),
            isTransient: feed.isTransient,
            hedging: strategy.fetcherHedging,
            load: { id in
                let item = try await feed.item(id)
                byteCount.withLock { $0 += item.byteCount }
                return item
            })
        dataSource = ExampleFeedDataSource(models: identifiers, fetcher: fetcher)
        let grid = CollectionView.Grid(
            columns: geometry.columns, spacing: 0, itemSize: .height(DemoGeometry.cellPoints))
        collectionView = CollectionView(
            grid: grid, size: Size(width: geometry.contentWidth, height: geometry.viewportHeight))
        dataSource.register(in: collectionView)
        collectionView.dataSource = dataSource
        if strategy.plansWithCoordinator {
            collectionView.isPrefetchingEnabled = false
            let coordinator = PrefetchCoordinator(
                fetcher: fetcher, layoutSource: collectionView, policy: strategy.prefetchPolicy
            ) { path in
                path.section == 0 && identifiers.indices.contains(path.item) ? identifiers[path.item] : nil
            }
            // Cells ask through it too, at the planner's priority.
            dataSource.displayRequester = { [weak coordinator] path, cell, completion in
                coordinator?.requestDisplay(at: path, for: cell, completion: completion)
            }
            self.coordinator = coordinator
        } else {
            collectionView.prefetchPolicy = strategy.prefetchPolicy
            collectionView.isPrefetchingEnabled = strategy.isPrefetchingEnabled
            collectionView.prefetchDataSource = dataSource
            // The view's planner learns how long the loads really take.
            observation = fetcher.observe { [weak collectionView] event in
                guard case .succeeded(_, let duration) = event else { return }
                Task { @MainActor in collectionView?.observeLoadDuration(duration) }
            }
        }
    }

    /// Shows the frame at `offset` at `time`: the view lays out (and, for
    /// the view's own prefetching, plans), then the coordinator plans, told
    /// what an app would tell it of the motion (`announcement`). The view's
    /// own prefetching hears no announcement, as UIKit's does not.
    func step(to offset: Point, at time: Duration, announcing announcement: DemoAnnouncement? = nil) {
        collectionView.step(to: offset, at: time)
        guard let coordinator else { return }
        let contentOffset = collectionView.contentOffset
        let viewport = collectionView.bounds.size
        switch announcement {
        case .fling(let target, let velocity):
            coordinator.scrollViewWillEndDragging(
                velocity: velocity, targetContentOffset: Point(x: contentOffset.x, y: target),
                contentOffset: contentOffset, viewportSize: viewport, at: time)
        case .animatedScroll(let target):
            coordinator.scrollViewWillAnimateScroll(
                to: Point(x: contentOffset.x, y: target), contentOffset: contentOffset, viewportSize: viewport,
                at: time)
        case .ended:
            coordinator.scrollViewDidEndFling()
            fallthrough
        case nil:
            coordinator.scrollViewDidScroll(contentOffset: contentOffset, viewportSize: viewport, at: time)
        }
    }

    /// Lays the grid out again for a new geometry; the offset is kept (the view clamps it).
    func resize(to geometry: DemoGeometry) {
        collectionView.grid.columns = geometry.columns
        collectionView.bounds = Rect(
            origin: collectionView.contentOffset,
            size: Size(width: geometry.contentWidth, height: geometry.viewportHeight))
        collectionView.layoutIfNeeded()
    }

    /// Reads the frame back from the view (visible cells: loaded once their
    /// cell holds a value) and the fetcher (the rows below: loaded once the
    /// value is cached), and counts the visible cells.
    func makeFrame(identifiers: [Int], geometry: DemoGeometry) -> DemoFrame {
        var visible: [Int: DemoCell.State] = [:]
        for (path, cell) in zip(collectionView.indexPathsForVisibleItems, collectionView.visibleCells) {
            let hasValue = (cell as? ContentCell<DemoItem>)?.value != nil
            visible[path.item] = hasValue ? .loaded : .missing
        }
        counter.record(visible: visible.values)

        let firstLine = geometry.firstLine(atOffset: collectionView.contentOffset.y)
        let rowRange = geometry.rows(fromFirstLine: firstLine)
        var rows: [[DemoCell]] = []
        for row in rowRange {
            var cells: [DemoCell] = []
            for column in 0..<geometry.columns {
                let index = row * geometry.columns + column
                guard index < identifiers.count else { break }
                let identifier = identifiers[index]
                let state = visible[index] ?? (fetcher.fetchedData(for: identifier) == nil ? .missing : .loaded)
                cells.append(DemoCell(label: String(String(identifier).suffix(5)), state: state))
            }
            rows.append(cells)
        }
        let status = DemoStatus(
            visible: visible.count, inFlight: fetcher.runningLoadCount + fetcher.pendingLoadCount,
            cached: fetcher.memoryCache.count, blankCellFrames: counter.blankCellFrames,
            cancellations: fetcher.statistics.loadsCancelled, strategy: strategy)
        return DemoFrame(
            columns: geometry.columns, viewportLines: geometry.viewportLines, lookaheadLines: geometry.lookaheadLines,
            firstLine: firstLine, firstRow: rowRange.lowerBound, rows: rows, status: status)
    }

    /// Ends the lane's requests and returns what it measured.
    func finish(wasInterrupted: Bool) -> DemoSummary {
        observation?.cancel()
        let statistics = fetcher.statistics
        collectionView.prefetchDataSource = nil
        coordinator?.reloadData()
        coordinator = nil
        dataSource.cancelAllRequests()
        return DemoSummary(
            strategy: strategy, counter: counter, loadsStarted: statistics.loadsStarted,
            loadsCancelled: statistics.loadsCancelled, loadsCompleted: statistics.loadsCompleted,
            loadsFailed: statistics.loadsFailed, bytes: byteCount.withLock { $0 }, wasInterrupted: wasInterrupted)
    }
}
#endif
