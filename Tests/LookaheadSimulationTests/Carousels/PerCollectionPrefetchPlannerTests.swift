import Lookahead
import Testing

@testable import LookaheadSimulation

/// UIKit's per-collection prefetching in a feed of carousels, as `system` runs it.
@Suite(.timeLimit(.minutes(1)))
struct PerCollectionPrefetchPlannerTests {
    /// Rows of 200 pt: carousels of 100 pt items (no spacing) but row 5, a plain cell.
    let feed = CarouselFeedLayout(
        width: 390,
        rows: (0..<40).map {
            $0 == 5 ? .cell(height: 200) : .carousel(height: 200, itemWidth: 100, itemCount: 50, spacing: 0)
        }
    )

    func frame(at offset: Double, velocity: Double = 0, time: Duration = .zero) -> ScrollFrame {
        ScrollFrame(visibleRect: Rect(x: 0, y: offset, width: 390, height: 844), velocity: velocity, time: time)
    }

    /// The carousels on screen (rows 0–4 at offset 0) at horizontal offset 0, or `swiped` for one.
    func scrolls(
        rows: Range<Int>, swiped: NestedPrefetchPlanner.CarouselScroll? = nil
    ) -> [NestedPrefetchPlanner.CarouselScroll] {
        rows.filter { $0 != 5 }.map { row in
            swiped?.row == row ? swiped! : NestedPrefetchPlanner.CarouselScroll(row: row, offset: 0)
        }
    }

    @Test func aCarouselOnScreenAsksForTheTenItemsBeyondItsOwnAndAComingOneForNothing() {
        // Given the feed at rest at its top: rows 0–4 on screen
        var planner = PerCollectionPrefetchPlanner(feed: feed)

        // When the first frame is laid out
        let update = planner.update(frame(at: 0), carousels: scrolls(rows: 0..<5), loadQueue: LoadQueueState())

        // Then each carousel on screen asks for items 4–13 (it shows 0–3), and of the coming rows
        // only the plain cell (row 5) is asked for: a carousel not laid out asks for nothing
        var expected: Set<NestedItemPath> = [NestedItemPath(row: 5, item: 0)]
        for row in 0..<5 { for item in 4..<14 { expected.insert(NestedItemPath(row: row, item: item)) } }
        #expect(Set(update.prefetch) == expected)
        #expect(update.cancel.isEmpty)
    }

    @Test func aSwipeSlidesTheCarouselsWindowAndLeavingTheScreenCancelsIt() {
        var planner = PerCollectionPrefetchPlanner(feed: feed)
        _ = planner.update(frame(at: 0), carousels: scrolls(rows: 0..<5), loadQueue: LoadQueueState())

        // When row 2 is swiped to 500 pt (items 5–8 on screen)
        let swiped = NestedPrefetchPlanner.CarouselScroll(row: 2, offset: 500, velocity: 1_000)
        let swipe = planner.update(
            frame(at: 0, time: .milliseconds(16)), carousels: scrolls(rows: 0..<5, swiped: swiped),
            loadQueue: LoadQueueState())

        // Then its window moves to items 9–18: item 4, passed, is cancelled; 5–8, now on screen,
        // leave without a cancel (their cells ask for them)
        #expect(Set(swipe.prefetch) == Set((14..<19).map { NestedItemPath(row: 2, item: $0) }))
        #expect(swipe.cancel == [NestedItemPath(row: 2, item: 4)])

        // When the feed scrolls so that row 0 leaves the screen (rows 1–5 on screen)
        let scrolled = planner.update(
            frame(at: 250, time: .milliseconds(32)), carousels: scrolls(rows: 1..<6, swiped: swiped),
            loadQueue: LoadQueueState())

        // Then row 0's window is cancelled
        #expect(Set(scrolled.cancel) == Set((4..<14).map { NestedItemPath(row: 0, item: $0) }))
    }
}
