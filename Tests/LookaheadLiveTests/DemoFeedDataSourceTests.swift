#if Tools
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadHeadless
@testable import LookaheadLive

/// The demo's grid wired as `DemoSession` wires it: the library's
/// `ExampleFeedDataSource` over `DemoItem`s, its cells read back as
/// `ContentCell`s.
@Suite("Demo grid over the example data source", .queuedOnTheMainActor)
@MainActor
struct DemoFeedDataSourceTests {
    typealias DataSource = ExampleFeedDataSource<Int, DemoItem>

    /// A 4-column grid of 96-point cells, 4 rows visible.
    func makeView(dataSource: DataSource) -> CollectionView {
        let view = CollectionView(
            grid: CollectionView.Grid(columns: 4, spacing: 0, itemSize: .height(96)),
            size: Size(width: 384, height: 384))
        dataSource.register(in: view)
        view.dataSource = dataSource
        view.prefetchDataSource = dataSource
        return view
    }

    /// Polls `condition` every few milliseconds until it holds or 45 s pass
    /// (the main actor is shared with every other test of the run).
    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(45)
        while !condition() {
            guard clock.now < deadline else {
                Issue.record("timed out waiting until \(what)")
                return
            }
            try await clock.sleep(for: .milliseconds(5))
        }
    }

    @Test("visible cells turn loaded when their data lands")
    func cellsFill() async throws {
        let fetcher = AsyncFetcher<Int, DemoItem> { id in DemoItem(id: id, byteCount: 10) }
        let dataSource = DataSource(models: Array(1...100), fetcher: fetcher)
        let view = makeView(dataSource: dataSource)
        view.layoutIfNeeded()
        #expect(view.visibleCells.count == 16)

        try await waitUntil("every visible cell holds its item") {
            view.visibleCells.allSatisfy { ($0 as? ContentCell<DemoItem>)?.value != nil }
        }
        for (path, cell) in zip(view.indexPathsForVisibleItems, view.visibleCells) {
            #expect((cell as? ContentCell<DemoItem>)?.value?.id == path.item + 1)
        }
    }

    @Test("a cell reused for another item withdraws its request, and the load stops")
    func reuseCancels() async throws {
        // Given loads that never finish on their own, two at a time
        let fetcher = AsyncFetcher<Int, DemoItem>(maxConcurrentLoads: 2) { id in
            try await ContinuousClock().sleep(for: .seconds(3_600))
            return DemoItem(id: id, byteCount: 10)
        }
        let dataSource = DataSource(models: Array(1...400), fetcher: fetcher)
        let view = makeView(dataSource: dataSource)
        view.isPrefetchingEnabled = false
        view.layoutIfNeeded()
        try await waitUntil("two loads run") { fetcher.runningLoadCount == 2 }

        // When the grid jumps far away, so that every cell is reused
        view.step(to: Point(x: 0, y: 20 * 96), at: .seconds(1))

        // Then the first screen's loads are cancelled, not left to run ahead of the new screen's
        try await waitUntil("the first screen's loads are cancelled") { fetcher.statistics.loadsCancelled >= 2 }
        try await waitUntil("the queue holds only the new screen") { fetcher.pendingLoadCount == 14 }
        for cell in view.visibleCells {
            #expect((cell as? ContentCell<DemoItem>)?.value == nil)
        }
        dataSource.cancelAllRequests()
    }

    @Test("when the run ends, withdrawing every request stops every load the grid asked for")
    func endOfRunStopsTheLoads() async throws {
        // Given a grid whose visible cells and prefetches wait for loads that never finish on their own
        let fetcher = AsyncFetcher<Int, DemoItem>(maxConcurrentLoads: 2) { id in
            try await ContinuousClock().sleep(for: .seconds(3_600))
            return DemoItem(id: id, byteCount: 10)
        }
        let dataSource = DataSource(models: Array(1...400), fetcher: fetcher)
        let view = makeView(dataSource: dataSource)
        view.layoutIfNeeded()
        try await waitUntil("two loads run") { fetcher.runningLoadCount == 2 }
        #expect(fetcher.pendingLoadCount >= 14)

        // When the run ends as `DemoSession.run()` ends it
        view.prefetchDataSource = nil
        dataSource.cancelAllRequests()

        // Then no load is left queued or running
        try await waitUntil("no load is left") { fetcher.pendingLoadCount + fetcher.runningLoadCount == 0 }
        #expect(fetcher.pendingLoadCount + fetcher.runningLoadCount == 0)
        #expect(dataSource.prefetchedIdentifiers.isEmpty)
    }
}
#endif
