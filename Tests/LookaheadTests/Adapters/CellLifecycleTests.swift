import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// A coordinator follows UIKit's cell lifecycle: a cell can be made before
/// it is shown (cell prefetching), and a cell that left the screen can be
/// shown again without a new `cellForItemAt` (UIKit keeps recently used
/// cells ready), so a cell's request outlives its `didEndDisplaying`.
@Suite(.queuedOnTheMainActor)
@MainActor
struct CellLifecycleTests {
    /// A grid at rest at 10,000 pt, and the first visible cell's display
    /// request, its load started and waiting on the gate.
    func cellLoading() async -> (CoordinatorFixture, ItemPath, FetchTask?, Deliveries<String>) {
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let path = fixture.coordinator.planner.visibleItems[0]
        let deliveries = Deliveries<String>()
        let request = fixture.coordinator.requestDisplay(at: path, for: fixture.cell(at: path)) {
            deliveries.record($0)
        }
        await waitUntil("the cell's load started") { fixture.gate.waiting.contains(path.item) }
        return (fixture, path, request, deliveries)
    }

    @Test func aCellShownAgainWithoutANewRequestGetsItsData() async {
        // Given a visible cell whose load is in flight
        let (fixture, path, request, deliveries) = await cellLoading()
        #expect(request?.priority == .high)

        // When the user scrolls it away and back within a few rows: UIKit ends
        // its display and shows it again, with no new `cellForItemAt`
        fixture.coordinator.didEndDisplaying(fixture.cell(at: path))
        #expect(request?.isPending == true)
        #expect(request?.priority == .veryLow)
        fixture.coordinator.willDisplay(fixture.cell(at: path), at: path)
        #expect(request?.priority == .high)

        // And its load lands
        #expect(fixture.gate.succeedIfWaiting(path.item, with: "photo \(path.item)"))
        await waitUntil("the cell's completion ran") { deliveries.count == 1 }

        // Then the cell shows its data: its request was never withdrawn
        guard case .success(let value) = deliveries.all.first else {
            Issue.record("expected the value, got \(deliveries.all)")
            return
        }
        #expect(value == "photo \(path.item)")
        #expect(!fixture.coordinator.pendingDisplayPaths.contains(path))
    }

    @Test func aCellThatLeftIsWithdrawnOnceItsItemIsOutOfReach() async {
        // Given a visible cell whose load is in flight, which leaves the screen
        let (fixture, path, request, deliveries) = await cellLoading()
        fixture.coordinator.didEndDisplaying(fixture.cell(at: path))
        fixture.scroll(to: 10_000)
        #expect(request?.isPending == true, "still within reach: the cell may come back")

        // When the list moves far away and rests there
        fixture.scroll(to: 40_000)
        fixture.scroll(to: 40_000, after: .seconds(1))

        // Then its request is withdrawn and its completion told so
        #expect(request?.isPending == false)
        #expect(!fixture.coordinator.pendingDisplayPaths.contains(path))
        await waitUntil("the withdrawn cell's completion ran") { deliveries.count == 1 }
        if case .failure(let error) = deliveries.all.first {
            #expect(error is CancellationError)
        } else {
            Issue.record("expected a CancellationError, got \(deliveries.all)")
        }
    }

    @Test func aCellMadeAheadOfBeingShownDoesNotAskAtHighPriority() {
        // Given a grid at rest
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let visible = fixture.coordinator.planner.visibleItems
        let below = ItemPath(item: visible.last!.item + 4, section: 0)
        #expect(!visible.contains(below))

        // When UIKit makes the cell a row below the screen ahead of showing it
        let request = fixture.coordinator.requestDisplay(at: below, for: fixture.cell(at: below)) { _ in }

        // Then it asks no higher than a prefetch, until it is shown
        #expect(request?.priority == .normal)
        fixture.coordinator.willDisplay(fixture.cell(at: below), at: below)
        #expect(request?.priority == .high)
    }

    @Test func aCellMadeAheadIsRankedUpWhenItsItemComesOnScreen() {
        // Given a cell made a row below a grid at rest
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let below = ItemPath(item: fixture.coordinator.planner.visibleItems.last!.item + 4, section: 0)
        let request = fixture.coordinator.requestDisplay(at: below, for: fixture.cell(at: below)) { _ in }
        #expect(request?.priority == .normal)

        // When the list moves a row, bringing it on screen, and comes to rest (no `willDisplay`: a scroll view of the app's own)
        fixture.scroll(to: 10_106)
        fixture.scroll(to: 10_106, after: .seconds(1))
        fixture.scroll(to: 10_106)

        // Then its request asks as a visible cell's does
        #expect(fixture.coordinator.planner.visibleItems.contains(below))
        #expect(request?.priority == .high)
    }
}

/// Seeded random scrolling through a coordinator over a view with UIKit's
/// cell prefetching: no cell on screen is ever blank without a request that
/// will fill it, and once every load lands, none is blank.
@Suite(.queuedOnTheMainActor)
@MainActor
struct CellLifecyclePropertyTests {
    @Test(arguments: [UInt64(0xCE11_0001), 0xCE11_0002, 0xCE11_0003])
    func noCellOnScreenIsLeftBlank(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 6) { key in try await gate.load(key) }
        let glue = CoordinatedDataSource(keys: Array(0..<4_000), fetcher: fetcher)
        let view = CollectionView(grid: .photoGrid)
        glue.register(on: view)
        view.isCellPrefetchingEnabled = true
        view.dataSource = glue
        view.delegate = glue
        let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: view, policy: .adaptive) { $0.item }
        glue.coordinator = coordinator
        view.layoutIfNeeded()

        var y = 20_000.0
        var time = Duration.zero
        var velocity = 0.0
        var framesLeft = 0
        var blankWithoutRequest: [String] = []
        var reshownWithoutCellForItemAt = 0
        for frame in 0..<900 {
            // Drags, flings and rests in either direction, each a few frames to a second long.
            if framesLeft == 0 {
                velocity = [0, 300, -300, 1_200, -1_200, 4_000, -4_000][random.next(below: 7)]
                framesLeft = 4 + random.next(below: 50)
            }
            framesLeft -= 1
            let maxY = view.contentSize.height - view.bounds.height
            y = min(max(0, y + velocity / 60), maxY)
            time += .nanoseconds(16_666_667)
            let before = view.engine.offscreenCells.keys
            view.step(to: Point(x: 0, y: y), at: time)
            reshownWithoutCellForItemAt += view.indexPathsForVisibleItems.filter { before.contains($0) }.count
            coordinator.scrollViewDidScroll(contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
            _ = gate.succeedAtRandom(upTo: 2, using: &random) { "photo \($0)" }
            await Task.yield()

            // Then every blank cell on screen has a request that will fill it
            for path in glue.blankCellsWithoutRequest(in: view) {
                blankWithoutRequest.append("item \(path.item), frame \(frame)")
            }
        }
        #expect(blankWithoutRequest.isEmpty, "seed \(seed): \(blankWithoutRequest.prefix(5))")
        // And the walk showed kept cells again, the case a `cellForItemAt`-only coordinator misses
        #expect(reshownWithoutCellForItemAt > 20, "seed \(seed)")

        // And when every load lands, every cell on screen shows its item
        while gate.succeedAtRandom(upTo: 100, using: &random, value: { "photo \($0)" }) > 0 || !gate.waiting.isEmpty {
            await Task.yield()
        }
        await waitUntil("seed \(seed): every cell on screen shows its item") {
            _ = gate.succeedAtRandom(upTo: 100, using: &random) { "photo \($0)" }
            return view.indexPathsForVisibleItems.allSatisfy {
                (view.cellForItem(at: $0) as? ContentCell<String>)?.value == "photo \($0.item)"
            }
        }
        withExtendedLifetime(coordinator) {}
    }
}
