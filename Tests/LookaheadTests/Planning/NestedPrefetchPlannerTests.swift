import Lookahead
import Testing

@Suite("Nested prefetch planner: carousels in a feed", .timeLimit(.minutes(1)))
struct NestedPrefetchPlannerTests {
    /// 60 rows of 200 pt on a 390 × 844 screen: even rows are carousels of 20 items 120 pt wide
    /// (10 pt apart, so 3 items cross the screen at offset 0), odd rows plain cells.
    let layout = CarouselFeedLayout(
        width: 390,
        rows: (0..<60).map {
            $0.isMultiple(of: 2)
                ? .carousel(height: 200, itemWidth: 120, itemCount: 20, spacing: 10) : .cell(height: 200)
        })

    func frame(_ offset: Double, at milliseconds: Int, velocity: Double = 0) -> ScrollFrame {
        ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: offset), size: Size(width: 390, height: 844)), velocity: velocity,
            time: .milliseconds(milliseconds))
    }

    @Test("the layout's spans: what a carousel shows at an offset, clamped to its content")
    func spans() {
        #expect(layout.items(inRow: 0, atOffset: 0) == 0..<3)
        #expect(layout.items(inRow: 0, atOffset: 130) == 1..<4)
        #expect(layout.items(inRow: 0, atOffset: 131) == 1..<5)
        #expect(layout.items(inRow: 0, atOffset: 1e9) == 17..<20)
        #expect(layout.items(inRow: 1, atOffset: 500) == 0..<1)
        #expect(layout.maxOffset(ofRow: 0) == 20 * 130 - 390)
    }

    @Test("a row about to appear brings its carousel's first items and one more")
    func comingRowBringsItsFirstItems() {
        var planner = NestedPrefetchPlanner(layout: layout, policy: .system, carouselPolicy: .system)
        let update = planner.update(frame(0, at: 0))
        // Rows 0–4 are on screen (844 pt); UIKit's list window holds rows 5–14.
        #expect(planner.visibleItems.contains(NestedItemPath(row: 0, item: 0)))
        #expect(update.prefetch.contains(NestedItemPath(row: 5, item: 0)), "a plain cell coming")
        for item in 0..<4 {
            #expect(update.prefetch.contains(NestedItemPath(row: 6, item: item)), "row 6 item \(item)")
        }
        #expect(!update.prefetch.contains(NestedItemPath(row: 6, item: 4)))
        // The visible carousels, never swiped, hold their span's next item only.
        #expect(update.prefetch.contains(NestedItemPath(row: 0, item: 3)))
        #expect(!update.prefetch.contains(NestedItemPath(row: 0, item: 4)))
        #expect(!update.prefetch.contains(NestedItemPath(row: 0, item: 0)), "visible items are the cells' own requests")
    }

    @Test("by default a resting feed holds 2 screens of rows ahead, and a swiped carousel 2 widths")
    func defaultWindowsRestTwoScreensAhead() {
        // Given the library's default windows, at rest at the top
        var planner = NestedPrefetchPlanner(layout: layout)
        let update = planner.update(frame(0, at: 0))

        // Then rows up to 2 screens below the screen's bottom (844 + 1,688 pt) are asked for: row 12 starts at
        // 2,400 pt, row 13 at 2,600
        #expect(update.prefetch.contains(NestedItemPath(row: 11, item: 0)), "a plain cell 1.6 screens below")
        #expect(update.prefetch.contains(NestedItemPath(row: 12, item: 0)), "a carousel 1.84 screens below")
        #expect(!update.prefetch.contains(NestedItemPath(row: 13, item: 0)))
        #expect(!update.prefetch.contains(NestedItemPath(row: 14, item: 0)))

        // And the window along a carousel rests as far ahead, in its widths
        let carousel = NestedPrefetchPlanner.carouselWindow(for: AdaptivePrefetchPolicy())
        #expect(carousel.restingLeadingScreens == 2)
        #expect(NestedPrefetchPlanner.rowWindow(for: AdaptivePrefetchPolicy()).restingTrailingScreens == 0.5)
    }

    @Test("a carousel being swiped prefetches along its axis, and visible items are not cancelled")
    func swipedCarouselPlansAlongItsAxis() {
        var planner = NestedPrefetchPlanner(layout: layout, policy: .system, carouselPolicy: .system)
        _ = planner.update(frame(0, at: 0))
        // When row 2's carousel is swiped to the left (towards later items)
        let swiped = planner.update(
            frame(0, at: 16), carousels: [.init(row: 2, offset: 260, velocity: 900)])
        // Then items beyond its span (2..<5 at 260 pt) are asked for, ten ahead as UIKit's window does
        #expect(swiped.prefetch.contains(NestedItemPath(row: 2, item: 5)))
        #expect(swiped.prefetch.contains(NestedItemPath(row: 2, item: 14)))
        #expect(!swiped.prefetch.contains(NestedItemPath(row: 2, item: 15)))
        // And item 3, prefetched before and now on screen, leaves without a cancel
        #expect(!swiped.cancel.contains(NestedItemPath(row: 2, item: 3)))
        #expect(!planner.prefetched.contains(NestedItemPath(row: 2, item: 3)))
    }

    @Test("a row scrolled away cancels its carousel's prefetches; coming back, it asks where it was left")
    func rowScrolledAwayCancels() {
        var planner = NestedPrefetchPlanner(layout: layout, policy: .system, carouselPolicy: .system)
        _ = planner.update(frame(0, at: 0))
        _ = planner.update(frame(0, at: 16), carousels: [.init(row: 2, offset: 520, velocity: 0)])
        #expect(planner.prefetched.contains(NestedItemPath(row: 2, item: 8)))
        // When the feed scrolls down far enough that row 2 is neither on screen nor in the window
        let away = planner.update(frame(2_000, at: 500, velocity: 4_000))
        // Then what its carousel asked for is cancelled
        #expect(away.cancel.contains(NestedItemPath(row: 2, item: 8)))
        #expect(!planner.prefetched.contains { $0.row == 2 })
        // When the feed heads back up, row 2 comes back into the window at its old offset (items 4..<7 and one more)
        _ = planner.update(frame(1_500, at: 600, velocity: -1_000))
        let back = planner.update(frame(1_000, at: 700, velocity: -1_000))
        let row2 = planner.prefetched.filter { $0.row == 2 }.map(\.item).sorted()
        #expect(row2 == [4, 5, 6, 7], "\(back)")
    }

    @Test("every cancel was asked for before, every prefetch is new, nothing visible is prefetched (seeded walk)")
    func bookkeepingHolds() {
        var random = SeededRandom(seed: 7)
        var planner = NestedPrefetchPlanner(layout: layout, policy: .adaptive, carouselPolicy: .adaptive)
        var held: Set<NestedItemPath> = []
        var offset = 0.0
        for step in 0..<600 {
            let velocity = Double(random.next(upperBound: 6_000 as UInt64)) - 2_000
            offset = min(max(0, offset + velocity / 60), layout.outer.contentSize.height - 844)
            var scrolls: [NestedPrefetchPlanner.CarouselScroll] = []
            if random.next(upperBound: 4 as UInt64) == 0 {
                let row = 2 * Int(random.next(upperBound: 30 as UInt64))
                scrolls.append(.init(row: row, offset: Double(random.next(upperBound: 2_000 as UInt64)), velocity: 500))
            }
            let update = planner.update(frame(offset, at: step * 16, velocity: velocity), carousels: scrolls)
            for path in update.cancel { #expect(held.remove(path) != nil, "seed 7 step \(step): cancel of \(path)") }
            for path in planner.visibleItems { held.remove(path) }
            for path in update.prefetch { #expect(held.insert(path).inserted, "seed 7 step \(step): \(path) twice") }
            #expect(held == planner.prefetched, "seed 7 step \(step)")
            #expect(planner.prefetched.isDisjoint(with: planner.visibleItems), "seed 7 step \(step)")
        }
    }
}
