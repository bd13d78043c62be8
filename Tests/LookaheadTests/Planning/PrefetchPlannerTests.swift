import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct PrefetchPlannerTests {
    /// A 4-column grid on a 390×844 viewport whose rows are 105.5 pt tall
    /// (97.5 pt items, 8 pt spacing): exactly 8 rows, 32 items, fit.
    func photoGrid(items: Int = 1_000) -> UniformGridLayout {
        UniformGridLayout(width: 390, columns: 4, itemHeight: 97.5, itemCounts: [items], spacing: 8)
    }

    let viewport = Size(width: 390, height: 844)
    let frameDuration = Duration.nanoseconds(16_666_667)

    func frame(at offset: Double, velocity: Double = 0, frame index: Int = 0) -> ScrollFrame {
        ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: velocity,
            time: frameDuration * index)
    }

    func paths(_ items: ClosedRange<Int>, section: Int = 0) -> [ItemPath] {
        items.map { ItemPath(item: $0, section: section) }
    }

    @Test func afterTheFirstLayoutAGridAsksForTheNextWindowAndNothingVisible() {
        // Given a grid showing items 0–31
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)

        // When it is laid out for the first time
        let update = planner.update(frame(at: 0))

        // Then it asks for items 32–55, nearest first, and for no visible item
        #expect(planner.visibleItems == paths(0...31))
        #expect(update.prefetch == paths(32...55))
        #expect(update.cancel.isEmpty)
    }

    @Test func aTableAsksForAboutTenRows() {
        let layout = ListLayout(width: 390, rowHeight: 44, rowCount: 500)
        var planner = PrefetchPlanner(layout: layout, policy: .system)
        let update = planner.update(frame(at: 0))
        let lastVisible = planner.visibleItems.last!.item
        #expect(update.prefetch == paths((lastVisible + 1)...(lastVisible + 10)))
    }

    @Test func steadyScrollingAsksForOneRowAtATime() {
        // Given a grid laid out, scrolling at 300 pt/s (5 pt per frame)
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)
        _ = planner.update(frame(at: 0))
        var calls: [[ItemPath]] = []

        // When it scrolls two screens
        var offset = 0.0
        for index in 1...340 {
            offset += 5
            let update = planner.update(frame(at: offset, velocity: 300, frame: index))
            #expect(update.cancel.isEmpty)
            if !update.prefetch.isEmpty { calls.append(update.prefetch) }
        }

        // Then each call asks for exactly one new row of 4, in order
        #expect(calls.count >= 15)
        for call in calls {
            #expect(call.count == 4)
            #expect(call.map(\.item) == Array(call[0].item...(call[0].item + 3)))
        }
    }

    @Test func aFlingAsksForSeveralRowsPerFrame() {
        // Given a grid laid out, scrolling at 12,000 pt/s (200 pt, about two rows, per frame)
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)
        _ = planner.update(frame(at: 0))

        // When it moves one frame
        let update = planner.update(frame(at: 200, velocity: 12_000, frame: 1))

        // Then it asks for more than one row at once
        #expect(update.prefetch.count >= 8)
    }

    @Test func aReversalCancelsTheUndisplayedRestOfTheWindowAndAsksForTheOtherSide() {
        // Given a grid scrolled down to row 20, its window below
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)
        var index = 0
        var offset = 0.0
        _ = planner.update(frame(at: offset))
        while offset < 20 * 105.5 {
            index += 1
            offset += 10
            _ = planner.update(frame(at: offset, velocity: 600, frame: index))
        }
        let windowBelow = planner.prefetched

        // When the user reverses
        let update = planner.update(frame(at: offset - 5, velocity: -300, frame: index + 1))

        // Then the window below is cancelled and the rows above are asked for, nearest first
        #expect(Set(update.cancel) == windowBelow)
        let firstVisible = planner.visibleItems.first!.item
        #expect(update.prefetch.map(\.item) == Array((firstVisible - 24)..<firstVisible).reversed())
    }

    @Test func itemsThatBecomeVisibleAreConsumedNotCancelled() {
        // Given a list whose window below is asked for
        let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 200)
        var planner = PrefetchPlanner(layout: layout, policy: .system)
        _ = planner.update(frame(at: 0))
        let window = planner.prefetched

        // When the user scrolls one screen down, then jumps back to the top
        let scroll = planner.update(frame(at: 844, velocity: 600, frame: 1))
        let shown = Set(planner.visibleItems)
        let jump = planner.update(frame(at: 0, velocity: -600, frame: 2))

        // Then the window's items that were shown left it without a cancel, then or later
        let consumed = window.intersection(shown)
        #expect(consumed.count >= 8)
        #expect(Set(scroll.cancel).isDisjoint(with: consumed))
        #expect(Set(jump.cancel).isDisjoint(with: consumed))
        // while the rest of the window below them was cancelled by the jump
        #expect(!jump.cancel.isEmpty)
    }

    @Test func prefetchesAreOrderedByDistanceFromTheVisibleArea() {
        // Given Texture's ranges on a list of varied heights, scrolling down from the middle
        var random = SeededRandom(seed: 0xD157)
        let heights = (0..<2_000).map { _ in 60 + Double(random.next(below: 121)) }
        let layout = ListLayout(width: 390, rowHeights: heights)
        var planner = PrefetchPlanner(layout: layout, policy: .screens(leading: 2.5, trailing: 1.5))

        // When it plans a frame
        let visible = Rect(origin: Point(x: 0, y: 50_000), size: viewport)
        let update = planner.update(ScrollFrame(visibleRect: visible, velocity: 500))

        // Then the distances never decrease, and the window reaches 2.5 screens below and 1.5 above
        let distances = update.prefetch.map { layout.frame(at: $0).verticalDistance(to: visible) }
        #expect(distances == distances.sorted(), "seed 0xD157")
        let below = update.prefetch.map { layout.frame(at: $0) }.filter { $0.minY >= visible.maxY }
        let above = update.prefetch.map { layout.frame(at: $0) }.filter { $0.maxY <= visible.minY }
        #expect(below.map(\.maxY).max()! >= visible.maxY + 2.5 * 844 - 180)
        #expect(above.map(\.minY).min()! <= visible.minY - 1.5 * 844 + 180)
    }

    @Test func texturesRangesSwapOnAReversal() {
        let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 1_000)
        var planner = PrefetchPlanner(layout: layout, policy: .screens(leading: 2, trailing: 1))
        let offset = 20_000.0
        _ = planner.update(frame(at: offset, velocity: 500))
        let forward = planner.prefetched
        #expect(forward.filter { layout.frame(at: $0).minY >= offset + 844 }.count == 17)

        let update = planner.update(frame(at: offset, velocity: -500, frame: 1))

        let backward = planner.prefetched
        #expect(backward.filter { layout.frame(at: $0).maxY <= offset }.count == 17)
        #expect(!update.cancel.isEmpty)
        #expect(Set(update.cancel).isDisjoint(with: backward))
    }

    @Test func disabledPrefetchingEmitsNothingAndTurningItOffCancels() {
        // Given a disabled planner
        var disabled = PrefetchPlanner(layout: photoGrid(), policy: .system, isEnabled: false)
        #expect(disabled.update(frame(at: 0)).isEmpty)
        #expect(disabled.update(frame(at: 400, velocity: 600, frame: 1)).isEmpty)

        // And an enabled one with a window
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)
        let first = planner.update(frame(at: 0))

        // When prefetching is turned off, everything asked for is cancelled, and nothing is asked again
        let off = planner.setEnabled(false)
        #expect(off.cancel == first.prefetch)
        #expect(planner.update(frame(at: 300, velocity: 600, frame: 1)).isEmpty)
    }

    @Test func aJumpCancelsTheOldWindow() {
        var planner = PrefetchPlanner(layout: photoGrid(items: 10_000), policy: .system)
        let first = planner.update(frame(at: 0))
        let jump = planner.update(frame(at: 50_000, velocity: 0, frame: 1))
        #expect(jump.cancel == first.prefetch)
        #expect(jump.prefetch.count == 24)
    }

    @Test func batchUpdatesMoveOutstandingPrefetchesWithTheirItems() {
        // Given a list whose rows 9–18 are asked for
        let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 100)
        var planner = PrefetchPlanner(layout: layout, policy: .system)
        _ = planner.update(frame(at: 0))
        #expect(planner.prefetched == Set(paths(9...18)))

        // When two rows are inserted at the top and row 12 (old) is deleted
        let newLayout = ListLayout(width: 390, rowHeight: 100, rowCount: 101)
        planner.applyUpdates(layout: newLayout) { old in
            if old.item == 12 { return nil }
            return ItemPath(item: old.item + 2 - (old.item > 12 ? 1 : 0), section: 0)
        }

        // Then what is outstanding refers to the same items at their new paths
        #expect(planner.prefetched == Set(paths(11...13) + paths(14...19)))
    }

    @Test func reloadCancelsEverythingAndStartsAFreshFirstLayout() {
        var planner = PrefetchPlanner(layout: photoGrid(), policy: .system)
        let first = planner.update(frame(at: 0))
        let reload = planner.reload(layout: photoGrid(items: 40))
        #expect(reload.cancel == first.prefetch)
        let after = planner.update(frame(at: 0))
        #expect(after.prefetch == paths(32...39))
    }

    /// A policy of an app's own that returns the windows it is given, one a frame.
    struct ScriptedPolicy: PrefetchPolicyProtocol {
        var windows: [[ItemPath]]

        mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
            windows.count > 1 ? windows.removeFirst() : windows.first ?? []
        }
    }

    @Test func aCustomWindowRepeatingAnItemStillCancelsWhatItDropped() {
        // Given a policy of an app's own that asked for rows 20 and 21
        let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 100)
        let policy = ScriptedPolicy(windows: [paths(20...21), paths(20...20) + paths(20...20)])
        var planner = PrefetchPlanner(layout: layout, policy: .custom(policy))
        #expect(planner.update(frame(at: 0)).prefetch == paths(20...21))

        // When its next window names row 20 twice and row 21 no more
        let update = planner.update(frame(at: 0, frame: 1))

        // Then row 21 is cancelled: a repeated item does not stand in for it
        #expect(update.cancel == paths(21...21))
        #expect(planner.prefetched == Set(paths(20...20)))
    }

    @Test func theLibrarysOwnPoliciesKeepTheirPromisesWhenWrappedAsCustom() {
        // The library's policies, however configured, keep the built-in cases' fast paths (the nested planner's
        // default windows are adaptive policies wrapped in `custom`)
        #expect(!PrefetchPolicy.custom(AdaptivePrefetchPolicy(restingLeadingScreens: 1)).isCustom)
        #expect(!PrefetchPolicy.custom(ScreensPrefetchPolicy(leading: 1, trailing: 0)).isCustom)
        #expect(!PrefetchPolicy.custom(SystemPrefetchPolicy(gridRows: 2)).isCustom)
        #expect(!NestedPrefetchPlanner.defaultPolicy.isCustom && !NestedPrefetchPlanner.defaultCarouselPolicy.isCustom)
        // An app's own policy may repeat items and move at rest: it is run every frame and its window deduplicated
        #expect(PrefetchPolicy.custom(ScriptedPolicy(windows: [])).isCustom)
    }

    @Test func aMillionItemsCostNoMoreCallsThanAThousand() {
        // Correctness at scale (timing is the planner benchmark's business)
        var planner = PrefetchPlanner(layout: photoGrid(items: 1_000_000), policy: .system)
        let update = planner.update(frame(at: 1_000_000))
        #expect(update.prefetch.count == 24)
        #expect(planner.visibleItems.count >= 32)
    }
}
