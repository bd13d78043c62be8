import LookaheadTestSupport
import Testing

@testable import Lookahead

/// Paging through the coordinator: the rows cells are asked for, and the
/// farthest rows prefetched, reach the pager, as PagedDataSource reports
/// them for the headless views.
@Suite(.queuedOnTheMainActor)
@MainActor
struct CoordinatorPagingTests {
    let viewport = Size(width: 390, height: 844)

    /// A pager over 1 000 rows whose first 60 have loaded, and a coordinator
    /// over a list of those rows, paging it.
    func loadedPager() async -> (
        Pager<Row>, LoadGate<PageRequest, Page<Row>>, PrefetchCoordinator<Int, Int>, FixedLayoutSource
    ) {
        let server = FakePageServer(count: 1_000)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let pager = Pager<Row>(configuration: PagingConfiguration(pageSize: 20)) { request in
            try await gate.load(request)
        }
        pager.start()
        await gate.waitForStarts(1)
        let initial = PageRequest.offset(0, limit: 60, direction: .initial)
        gate.succeed(initial, with: server.page(for: initial))
        await waitUntil("the first page landed") { pager.itemCount == 60 }
        let source = FixedLayoutSource(layout: ListLayout(width: 390, rowHeight: 100, rowCount: pager.itemCount))
        let fetcher = AsyncFetcher<Int, Int>(maxConcurrentLoads: 10_000) { key in key }
        let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: source, policy: .screens()) { path in
            pager.item(at: path.item)?.id
        }
        coordinator.drivePaging(with: pager)
        return (pager, gate, coordinator, source)
    }

    @Test func aCellNearTheEndAsksForTheNextPage() async {
        // Given 60 rows loaded, the list at its top
        let (_, gate, coordinator, _) = await loadedPager()
        coordinator.scrollViewDidScroll(contentOffset: .zero, viewportSize: viewport, at: .zero)
        #expect(gate.started.count == 1)
        // When the cell of row 50 is asked for
        coordinator.requestDisplay(at: ItemPath(item: 50, section: 0), for: TestCell()) { _ in }
        // Then the pager asks for the rows after the 60th
        await gate.waitForStarts(2)
        #expect(gate.started.last == PageRequest.offset(60, limit: 20))
    }

    @Test func prefetchingTowardsTheEndAsksForTheNextPage() async {
        // Given 60 rows loaded, the list at its top
        let (_, gate, coordinator, _) = await loadedPager()
        coordinator.scrollViewDidScroll(contentOffset: .zero, viewportSize: viewport, at: .zero)
        #expect(gate.started.count == 1)
        // When the list scrolls down until its prefetch window nears the end
        var time = Duration.zero
        for step in 1...40 {
            time += .milliseconds(16)
            coordinator.scrollViewDidScroll(
                contentOffset: Point(x: 0, y: Double(step) * 80), viewportSize: viewport, at: time)
        }
        // Then the pager was told of the farthest prefetched row, and loads the next page
        await gate.waitForStarts(2)
        #expect(gate.started.last == PageRequest.offset(60, limit: 20))
    }
}
