public import Logging
import Lookahead
import LookaheadSimulation

/// One run of the demo: Apple's prefetching sample driven frame by frame.
///
/// The demo is a thin driver over the library, wired as the sample is: a
/// headless ``CollectionView`` with a grid layout, whose data source and
/// prefetch data source are the library's ``ExampleFeedDataSource`` over an
/// ``AsyncFetcher``. `prefetchItemsAt` starts loads,
/// `cancelPrefetchingForItemsAt` withdraws them, `cellForItemAt` shows cached
/// data at once or asks for it at high priority and fills the cell when it
/// lands, if the cell still represents that item (and a reused cell withdraws
/// that request). The view's planner decides what to prefetch; the session
/// only moves the content offset, reads back the cells' states (a
/// ``ContentCell`` holding its value or not) and draws them. (Driving `PrefetchPlanner` directly would have meant
/// re-implementing cell reuse and the `representedIdentifier` check, which
/// is exactly what the demo is meant to show working.)
///
/// Each frame — 30 per second by default — the session
/// 1. moves the offset: along a seeded `flinging` scroll trace scaled to the
///    content's height, or by the keys typed (`--interactive`);
/// 2. steps the collection view to it, which asks for cells and prefetches;
/// 3. counts the visible cells whose data is missing (blank cell-frames, the
///    simulator's metric);
/// 4. draws the frame, if there is a terminal to draw on.
@MainActor
public final class DemoSession {
    /// The settings of the run.
    public let configuration: DemoConfiguration
    /// How the screen is split and points map to characters.
    public private(set) var geometry: DemoGeometry
    let feed: DemoFeed
    let terminal: DemoTerminal?
    private(set) var terminalWidth: Int
    let logger: Logger

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: the settings of the run.
    ///   - feed: where the items come from.
    ///   - terminalWidth: the terminal's width in characters.
    ///   - terminalHeight: the terminal's height in characters.
    ///   - terminal: watched for Ctrl-C; when it is in full-screen mode the
    ///     session draws on it and reads keys from it, otherwise it runs
    ///     without the UI (the scripted scroll and the counts only).
    ///   - logger: where the session logs (nowhere by default); never the
    ///     terminal it draws on.
    public init(
        configuration: DemoConfiguration, feed: DemoFeed, terminalWidth: Int = 100, terminalHeight: Int = 30,
        terminal: DemoTerminal?, logger: Logger = Logger(label: "lookahead.demo") { _ in SwiftLogNoOpLogHandler() }
    ) {
        self.configuration = configuration
        self.feed = feed
        self.geometry = DemoGeometry(terminalWidth: terminalWidth, terminalHeight: terminalHeight)
        self.terminalWidth = terminalWidth
        self.terminal = terminal
        self.logger = logger
    }

    /// Runs until the scripted scroll ends, `q` is pressed or SIGINT / SIGTERM
    /// arrives, and returns what was measured.
    ///
    /// - Throws: what the feed throws while listing the items, or
    ///   ``DemoFeedError`` if it lists none.
    public func run() async throws -> DemoSummary {
        let identifiers = try await feed.identifiers()
        guard !identifiers.isEmpty else {
            throw DemoFeedError("the feed lists no items; expected at least one identifier")
        }
        logger.info(
            "demo starting", metadata: ["items": "\(identifiers.count)", "strategy": "\(configuration.strategy)"])

        let byteCount = LockedValue(0)
        let feed = self.feed
        let fetcher = AsyncFetcher<Int, DemoItem>(
            maxConcurrentFetches: configuration.maxConcurrentFetches,
            memoryCache: MemoryCache(countLimit: max(1_000, identifiers.count)),
            isTransient: feed.isTransient,
            load: { id in
                let item = try await feed.item(id)
                byteCount.withLock { $0 += item.byteCount }
                return item
            })
        let dataSource = ExampleFeedDataSource(models: identifiers, fetcher: fetcher)
        let collectionView = makeCollectionView(dataSource: dataSource)
        // The adaptive policy learns how long the loads really take.
        let observation = fetcher.observe { [weak collectionView] event in
            guard case .succeeded(_, let duration) = event else { return }
            Task { @MainActor in collectionView?.observeLoadDuration(duration) }
        }
        defer { observation.cancel() }

        let rowCount = (identifiers.count + geometry.columns - 1) / geometry.columns
        let contentHeight = Double(rowCount) * DemoGeometry.cellPoints
        let trace =
            configuration.isInteractive
            ? nil
            : ScrollTraceGenerator(
                seed: configuration.seed, style: .flinging, duration: configuration.duration,
                contentHeight: contentHeight, viewportHeight: geometry.viewportHeight,
                frameRate: configuration.frameRate
            ).makeTrace()
        var scroller = DemoScroller(
            maxOffset: contentHeight - geometry.viewportHeight, rowHeight: DemoGeometry.cellPoints)

        var counter = BlankCellFrameCounter()
        var wasInterrupted = false
        let clock = ContinuousClock()
        let start = clock.now
        let frameDuration = Duration.seconds(1 / configuration.frameRate)
        var previous = Duration.zero
        frames: while true {
            let elapsed = clock.now - start
            if let trace, elapsed >= trace.duration + frameDuration { break }
            if let terminal {
                if terminal.wasInterrupted {
                    wasInterrupted = true
                    break
                }
                for action in DemoKeyMap.actions(for: terminal.readInput()) {
                    if action == .quit { break frames }
                    scroller.apply(action)
                }
            }
            scroller.advance(by: (elapsed - previous) / .seconds(1))
            previous = elapsed
            if let terminal, terminal.isFullScreen, terminal.takeResize(), let size = DemoTerminal.size() {
                resize(collectionView, toWidth: size.width, height: size.height, itemCount: identifiers.count)
                scroller.maxOffset = collectionView.contentSize.height - geometry.viewportHeight
            }
            collectionView.step(to: Point(x: 0, y: trace?.offset(at: elapsed) ?? scroller.offset), at: elapsed)
            // The view clamps the offset to its content.
            let offset = collectionView.contentOffset.y

            let frame = makeFrame(
                collectionView: collectionView, identifiers: identifiers, fetcher: fetcher, offset: offset,
                counter: &counter)
            if let terminal, terminal.isFullScreen, !terminal.wasInterrupted {
                DemoTerminal.write(DemoRenderer.screen(of: frame, width: terminalWidth))
            }
            // The next frame's slot: frames that were missed are skipped, not queued.
            let next = (elapsed / frameDuration).rounded(.down) + 1
            try? await clock.sleep(until: start + frameDuration * next)
        }

        let statistics = fetcher.statistics
        collectionView.prefetchDataSource = nil
        dataSource.cancelAllRequests()
        let summary = DemoSummary(
            strategy: configuration.strategy, counter: counter, loadsStarted: statistics.loadsStarted,
            loadsCancelled: statistics.loadsCancelled, loadsCompleted: statistics.loadsCompleted,
            loadsFailed: statistics.loadsFailed, bytes: byteCount.withLock { $0 }, wasInterrupted: wasInterrupted)
        logger.info("demo finished", metadata: ["summary": "\(summary.text)"])
        return summary
    }

    /// Lays the grid out again for a terminal of the new size. The scripted
    /// trace keeps its offsets: the view clamps them to the new content.
    private func resize(_ collectionView: CollectionView, toWidth width: Int, height: Int, itemCount: Int) {
        geometry = DemoGeometry(terminalWidth: max(width, DemoGeometry.cellWidth), terminalHeight: max(height, 4))
        terminalWidth = width
        collectionView.grid.columns = geometry.columns
        collectionView.bounds = Rect(
            origin: collectionView.contentOffset,
            size: Size(width: geometry.contentWidth, height: geometry.viewportHeight))
        collectionView.layoutIfNeeded()
        logger.debug("terminal resized", metadata: ["width": "\(width)", "height": "\(height)"])
    }

    private func makeCollectionView(dataSource: ExampleFeedDataSource<Int, DemoItem>) -> CollectionView {
        let grid = CollectionView.Grid(
            columns: geometry.columns, spacing: 0, itemSize: .height(DemoGeometry.cellPoints))
        let collectionView = CollectionView(
            grid: grid, size: Size(width: geometry.contentWidth, height: geometry.viewportHeight))
        dataSource.register(in: collectionView)
        collectionView.prefetchPolicy = configuration.strategy.prefetchPolicy(
            expectedLoadTime: configuration.latencyP99)
        collectionView.isPrefetchingEnabled = configuration.strategy.isPrefetchingEnabled
        collectionView.dataSource = dataSource
        collectionView.prefetchDataSource = dataSource
        return collectionView
    }

    /// Reads the frame back from the view (visible cells: loaded once their
    /// cell holds a value) and the fetcher (the rows below: loaded once the
    /// value is cached), and counts the visible cells.
    private func makeFrame(
        collectionView: CollectionView, identifiers: [Int], fetcher: AsyncFetcher<Int, DemoItem>, offset: Double,
        counter: inout BlankCellFrameCounter
    ) -> DemoFrame {
        var visible: [Int: DemoCell.State] = [:]
        for (path, cell) in zip(collectionView.indexPathsForVisibleItems, collectionView.visibleCells) {
            let hasValue = (cell as? ContentCell<DemoItem>)?.value != nil
            visible[path.item] = hasValue ? .loaded : .missing
        }
        counter.record(visible: visible.values)

        let firstLine = geometry.firstLine(atOffset: offset)
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
            visible: visible.count, inFlight: fetcher.runningFetchCount + fetcher.pendingFetchCount,
            cached: fetcher.memoryCache.count, blankCellFrames: counter.blankCellFrames,
            cancellations: fetcher.statistics.loadsCancelled, strategy: configuration.strategy)
        return DemoFrame(
            columns: geometry.columns, viewportLines: geometry.viewportLines, lookaheadLines: geometry.lookaheadLines,
            firstLine: firstLine, firstRow: rowRange.lowerBound, rows: rows, status: status)
    }
}
