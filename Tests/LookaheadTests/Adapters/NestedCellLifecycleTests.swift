import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// A feed of carousels follows UIKit's cell lifecycle as a flat list does
/// (``CellLifecycleTests``): an inner cell that left can be shown again
/// without a new `cellForItemAt`, a cell can be made before it is shown, and
/// an outer row kept by UIKit can come back with its inner cells as they were.
@Suite(.queuedOnTheMainActor)
@MainActor
struct NestedCellLifecycleTests {
    /// The feed at its top, and the display request of row 0's first item, its load waiting on the gate.
    func firstItemLoading() async -> (NestedFeedFixture, NestedItemPath, FetchTask?, ItemCell?) {
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        let path = NestedItemPath(row: 0, item: 0)
        let cell = fixture.rowCell(0).collectionView.cellForItem(at: ItemPath(item: 0, section: 0)) as? ItemCell
        await waitUntil("the cell's load started") { fixture.gate.waiting.contains(NestedFeedFixture.key(0, 0)) }
        return (fixture, path, cell?.request, cell)
    }

    @Test func anInnerCellShownAgainWithoutANewRequestGetsItsData() async {
        // Given a visible inner cell whose load is in flight
        let (fixture, path, request, cell) = await firstItemLoading()
        let coordinator = fixture.coordinator!
        #expect(request?.priority == .high)
        guard let cell else {
            Issue.record("row 0 shows no cell for item 0")
            return
        }

        // When the user swipes it away and back within an item: UIKit ends its
        // display and shows it again, with no new `cellForItemAt`
        coordinator.didEndDisplaying(cell)
        #expect(request?.isPending == true)
        #expect(request?.priority == .veryLow)
        coordinator.willDisplay(cell, at: path)
        #expect(request?.priority == .high)

        // And its load lands
        #expect(fixture.gate.succeedIfWaiting(NestedFeedFixture.key(0, 0), with: "0"))
        await waitUntil("the cell's completion ran") { fixture.deliveries.count == 1 }

        // Then the cell gets its data: its request was never withdrawn
        guard case .success(let value) = fixture.deliveries.all.first else {
            Issue.record("expected the value, got \(fixture.deliveries.all)")
            return
        }
        #expect(value == "0")
    }

    @Test func anInnerCellThatLeftIsWithdrawnOnceItsItemIsOutOfReach() async {
        // Given a visible inner cell whose load is in flight
        let (fixture, path, request, _) = await firstItemLoading()
        let coordinator = fixture.coordinator!

        // When its carousel, which keeps cells that left as UIKit does, is
        // swiped by an item: the cell leaves, its item stays near
        fixture.rowCell(0).collectionView.isCellPrefetchingEnabled = true
        fixture.swipe(row: 0, to: 130)
        #expect(!fixture.visibleItems(ofRow: 0).contains(0))
        #expect(request?.isPending == true, "within reach: the cell may come back")
        #expect(request?.priority == .veryLow)

        // And then far along the carousel
        fixture.swipe(row: 0, to: 2_600)

        // Then its request is withdrawn, and its completion gets CancellationError
        #expect(request?.isPending == false)
        #expect(!coordinator.pendingDisplayPaths.contains(path))
        // (as do the cells that left with it)
        await waitUntil("the cells' completions ran") { fixture.deliveries.count >= 1 }
        for result in fixture.deliveries.all {
            guard case .failure(let error) = result, error is CancellationError else {
                Issue.record("expected a CancellationError, got \(result)")
                continue
            }
        }
    }

    @Test func anInnerCellMadeAheadAsksBelowTheVisibleCellsUntilShown() async {
        // Given the feed at its top, row 0's carousel showing items 0 to 2
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        let coordinator = fixture.coordinator!
        #expect(fixture.visibleItems(ofRow: 0) == [0, 1, 2])

        // When UIKit makes the cell of item 3, off screen, ahead of the swipe
        let path = NestedItemPath(row: 0, item: 3)
        let cell = TestCell()
        let request = coordinator.requestDisplay(at: path, for: cell) { _ in }

        // Then it asks at .normal, and at .high once shown
        #expect(request?.priority == .normal)
        coordinator.willDisplay(cell, at: path)
        #expect(request?.priority == .high)
    }

    @Test func aRowShownAgainRaisesItsCellsRequests() async {
        // Given row 1's inner cells waiting for their loads
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        let coordinator = fixture.coordinator!
        let cell = fixture.rowCell(1)
        let requests = fixture.visibleItems(ofRow: 1).compactMap {
            (cell.collectionView.cellForItem(at: ItemPath(item: $0, section: 0)) as? ItemCell)?.request
        }
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.priority == .high })

        // When the row leaves the screen (its outer cell ends displaying)
        coordinator.unregisterNested(cell.link!)

        // Then its cells' requests go on, at .veryLow
        #expect(requests.allSatisfy { $0.isPending && $0.priority == .veryLow })

        // When UIKit shows the same row again from the cell it kept
        _ = coordinator.registerNested(cell.link, forRow: 1)

        // Then the requests of the items its carousel shows are raised again
        #expect(requests.allSatisfy { $0.isPending && $0.priority == .high })
    }
}
