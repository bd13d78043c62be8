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
        let request = fixture.coordinator.requestDisplay(at: path) { deliveries.record($0) }
        await waitUntil("the cell's load started") { fixture.gate.waiting.contains(path.item) }
        return (fixture, path, request, deliveries)
    }

    @Test func aCellShownAgainWithoutANewRequestGetsItsData() async {
        // Given a visible cell whose load is in flight
        let (fixture, path, request, deliveries) = await cellLoading()
        #expect(request?.priority == .high)

        // When the user scrolls it away and back within a few rows: UIKit ends
        // its display and shows it again, with no new `cellForItemAt`
        fixture.coordinator.didEndDisplayingItem(at: path)
        #expect(request?.isPending == true)
        #expect(request?.priority == .low)
        fixture.coordinator.willDisplayItem(at: path)
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
        fixture.coordinator.didEndDisplayingItem(at: path)
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
        let request = fixture.coordinator.requestDisplay(at: below) { _ in }

        // Then it asks no higher than a prefetch, until it is shown
        #expect(request?.priority == .normal)
        fixture.coordinator.willDisplayItem(at: below)
        #expect(request?.priority == .high)
    }

    @Test func aCellMadeAheadIsRankedUpWhenItsItemComesOnScreen() {
        // Given a cell made a row below a grid at rest
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let below = ItemPath(item: fixture.coordinator.planner.visibleItems.last!.item + 4, section: 0)
        let request = fixture.coordinator.requestDisplay(at: below) { _ in }
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
