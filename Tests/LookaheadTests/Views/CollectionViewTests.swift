import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite(.queuedOnTheMainActor)
struct CollectionViewTests {
    typealias Fixtures = ViewFixtures

    // MARK: - The first layout

    @Test func firstLayoutAsksForTheVisibleCellsThenTheNextSixRows() {
        // Given a 4-column grid of 1,000 items whose viewport holds exactly 8 rows
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)

        // When it lays out for the first time
        collectionView.layoutIfNeeded()

        // Then it asks for the 32 visible cells in order, prefetches none of
        // them, and right after asks for items 32–55, nearest first
        #expect(collectionView.indexPathsForVisibleItems == Fixtures.paths(0..<32))
        #expect(
            recorder.takeEvents() == Fixtures.paths(0..<32).map(ViewEvent.cell) + [.prefetch(Fixtures.paths(32..<56))])
        #expect(collectionView.contentSize == Size(width: 390, height: 250 * 105.5 - 2))
        #expect(
            collectionView.cellForItem(at: ItemPath(item: 5, section: 0))?.frame
                == Rect(x: 98, y: 105.5, width: 96, height: 103.5))

        // And laying out again without a change asks for nothing
        collectionView.layoutIfNeeded()
        #expect(recorder.takeEvents().isEmpty)
    }

    // MARK: - Scrolling

    @Test func normalSpeedAsksForOneRowWhenARowBoundaryIsCrossed() {
        // Given the grid after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When it scrolls 3 points a frame at 60 Hz (180 pt/s) over 2,000 points
        collectionView.replay(Fixtures.linearTrace(from: 0, to: 2_000, speed: 180))

        // Then each call asks for exactly one row, the next one, and nothing is cancelled
        let prefetches = recorder.prefetchEvents
        #expect(recorder.cancelEvents.isEmpty)
        #expect(recorder.emptyCalls == 0)
        for call in prefetches {
            #expect(call.count == 4 && Set(call.map { $0.item / 4 }).count == 1, "\(call)")
        }
        let lastVisibleRow = collectionView.indexPathsForVisibleItems.last!.item / 4
        #expect(prefetches.count == lastVisibleRow + 6 - 13)
        #expect(prefetches.flatMap { $0 } == Fixtures.paths(56..<(lastVisibleRow + 7) * 4))
    }

    @Test func aFlingAsksForSeveralRowsPerCall() {
        // Given the grid after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When it is flung at 15,000 pt/s (250 points, over 2 rows, a frame)
        collectionView.replay(Fixtures.linearTrace(from: 0, to: 10_000, speed: 15_000))

        // Then calls ask for 2 or 3 rows at once, still in order, without gaps
        let prefetches = recorder.prefetchEvents
        #expect(prefetches.allSatisfy { $0.count % 4 == 0 && (8...12).contains($0.count) })
        let end = (collectionView.indexPathsForVisibleItems.last!.item / 4 + 7) * 4
        #expect(prefetches.flatMap { $0 } == Fixtures.paths(56..<end))
    }

    @Test(arguments: ["system", "screens"])
    func prefetchedItemsAreOrderedByDistanceFromTheVisibleArea(policyName: String) {
        // Given a grid prefetching with a policy, scrolled at random speeds both ways
        let seed: UInt64 = 0xD15_7A4CE
        var random = SeededRandom(seed: seed)
        let recorder = ViewEventRecorder(itemCount: 2_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.prefetchPolicy = policyName == "system" ? .system : .screens(leading: 2.5, trailing: 1.5)
        collectionView.layoutIfNeeded()
        let maxOffset = collectionView.contentSize.height - collectionView.bounds.height
        var offset = 0.0
        var velocity = 0.0
        var time = Duration.zero

        // When it scrolls for 1,200 frames with a new velocity every 40
        for frame in 0..<1_200 {
            if frame % 40 == 0 { velocity = Double.random(in: -4_000...4_000, using: &random) }
            offset = min(max(offset + velocity / 60, 0), maxOffset)
            time += .seconds(1) / 60
            collectionView.step(to: Point(x: 0, y: offset), at: time)
        }

        // Then every call lists its items nearest first
        let layout = collectionView.collectionViewLayout
        #expect(recorder.prefetchCalls.count > 50, "seed \(seed)")
        for call in recorder.prefetchCalls {
            let distances = call.paths.map { layout.frame(at: $0).verticalDistance(to: call.visibleRect) }
            #expect(distances == distances.sorted(), "seed \(seed): \(call.paths) from \(call.visibleRect)")
        }
        #expect(recorder.emptyCalls == 0, "seed \(seed)")
    }

    @Test func offsetsAreClampedToTheContent() {
        // Given the grid
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)

        // When a frame goes past the end, then before the start
        collectionView.step(to: Point(x: 40, y: 1e9), at: .milliseconds(16))
        let bottom = collectionView.contentOffset
        let lastVisible = collectionView.indexPathsForVisibleItems.last
        collectionView.step(to: Point(x: 0, y: -300), at: .milliseconds(32))

        // Then the offsets stop at the content's edges
        #expect(bottom == Point(x: 0, y: collectionView.contentSize.height - 844))
        #expect(lastVisible == ItemPath(item: 999, section: 0))
        #expect(collectionView.contentOffset == .zero)
        #expect(collectionView.indexPathsForVisibleItems == Fixtures.paths(0..<32))
    }

    // MARK: - isPrefetchingEnabled and the prefetch data source

    @Test func disabledPrefetchingAsksForNothing() {
        // Given a grid whose prefetching is off
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.isPrefetchingEnabled = false

        // When it lays out and scrolls down and back
        collectionView.layoutIfNeeded()
        collectionView.replay(Fixtures.linearTrace(from: 0, to: 5_000, speed: 1_200))
        collectionView.replay(Fixtures.linearTrace(from: 5_000, to: 0, speed: 1_200, startTime: .seconds(10)))

        // Then cells are asked for, and nothing is prefetched or cancelled
        #expect(recorder.prefetchEvents.isEmpty)
        #expect(recorder.cancelEvents.isEmpty)
        #expect(recorder.cellEvents.count > 100)
    }

    @Test func turningPrefetchingOffCancelsWhatWasAskedFor() {
        // Given a grid that scrolled a little and has items prefetched
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        collectionView.replay(Fixtures.linearTrace(from: 0, to: 300, speed: 600))
        let outstanding = collectionView.outstandingPrefetches
        #expect(outstanding.count == 24)
        _ = recorder.takeEvents()

        // When prefetching is turned off
        collectionView.isPrefetchingEnabled = false

        // Then everything asked for is cancelled, once, and scrolling asks for nothing
        #expect(recorder.takeEvents() == [.cancel(outstanding.sorted())])
        collectionView.replay(Fixtures.linearTrace(from: 300, to: 1_500, speed: 600, startTime: .seconds(1)))
        #expect(recorder.prefetchEvents.isEmpty && recorder.cancelEvents.isEmpty)

        // And turning it back on asks for the window ahead at the next layout pass
        collectionView.isPrefetchingEnabled = true
        collectionView.layoutIfNeeded()
        let next = collectionView.indexPathsForVisibleItems.last!.item + 1
        #expect(recorder.prefetchEvents == [Fixtures.paths(next..<next + 24)])
    }

    @Test func replacingThePrefetchDataSourceCancelsOnTheOldOne() {
        // Given a grid that prefetched through one recorder
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When another prefetch data source replaces it
        let other = ViewEventRecorder(itemCount: 1_000)
        collectionView.prefetchDataSource = other
        collectionView.layoutIfNeeded()

        // Then the old one is told to cancel, and the new one is asked for the window
        #expect(recorder.takeEvents() == [.cancel(Fixtures.paths(32..<56))])
        #expect(other.takeEvents() == [.prefetch(Fixtures.paths(32..<56))])

        // And without a prefetch data source nothing is planned
        collectionView.prefetchDataSource = nil
        collectionView.replay(Fixtures.linearTrace(from: 0, to: 2_000, speed: 900))
        #expect(collectionView.outstandingPrefetches.isEmpty)
        #expect(other.takeEvents() == [.cancel(Fixtures.paths(32..<56))])
    }

    // MARK: - Reuse

    @Test func cellsAreReusedWhileScrollingAThousandItems() {
        // Given a grid of 1,000 items whose cells count their reuse
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder, cellClass: CountingCell.self)
        collectionView.layoutIfNeeded()
        var mostVisible = collectionView.visibleCells.count
        var cells: [ObjectIdentifier: CountingCell] = [:]

        // When it scrolls to the end and back
        let down = Fixtures.linearTrace(from: 0, to: collectionView.contentSize.height, speed: 1_500)
        let up = Fixtures.linearTrace(from: 26_000, to: 0, speed: 1_500, startTime: down.last!.time)
        for sample in down + up {
            collectionView.step(to: sample.offset, at: sample.time)
            let visible = collectionView.visibleCells
            mostVisible = max(mostVisible, visible.count)
            #expect(Set(visible.map(ObjectIdentifier.init)).count == visible.count)
            for cell in visible {
                cells[ObjectIdentifier(cell)] = cell as? CountingCell
                #expect(cell.representedIdentifier == AnyHashable(collectionView.indexPath(for: cell)!))
            }
        }

        // Then no more cells exist than were ever visible at once, and every
        // other cell asked for was a pooled one, prepared for reuse first
        let asked = recorder.cellEvents.count
        #expect(asked > 1_900)
        #expect(collectionView.createdCellCount == mostVisible)
        #expect(cells.count == mostVisible)
        #expect(cells.values.map(\.preparedForReuse).reduce(0, +) == asked - mostVisible)
        #expect(cells.values.allSatisfy { $0.preparedForReuse == $0.reuseCount })
        #expect(!cells.values.contains { $0.identifierSurvivedReuse })
    }

    // MARK: - Reloading

    @Test func reloadDataCancelsOutstandingPrefetchesAndStartsOver() {
        // Given a grid after its first layout, items 32–55 prefetched
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When the data changes and it reloads
        recorder.counts = [500]
        collectionView.reloadData()

        // Then what was asked for is cancelled at once and the cells are recycled
        #expect(recorder.takeEvents() == [.cancel(Fixtures.paths(32..<56))])
        #expect(collectionView.visibleCells.isEmpty)
        #expect(collectionView.numberOfItems(inSection: 0) == 500)

        // And the next layout is a first layout again, with the same cells
        collectionView.layoutIfNeeded()
        #expect(
            recorder.takeEvents() == Fixtures.paths(0..<32).map(ViewEvent.cell) + [.prefetch(Fixtures.paths(32..<56))])
        #expect(collectionView.createdCellCount == 32)
    }

    @Test func reloadItemsAsksAgainForTheVisibleOnesOnly() {
        // Given a grid after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let collectionView = Fixtures.makeCollectionView(recorder)
        collectionView.layoutIfNeeded()
        let cell = collectionView.cellForItem(at: ItemPath(item: 3, section: 0))!
        _ = recorder.takeEvents()

        // When a visible and an invisible item are reloaded
        collectionView.reloadItems(at: [ItemPath(item: 500, section: 0), ItemPath(item: 3, section: 0)])

        // Then only the visible one is asked for, and gets its own cell back from the pool
        #expect(recorder.takeEvents() == [.cell(ItemPath(item: 3, section: 0))])
        #expect(collectionView.cellForItem(at: ItemPath(item: 3, section: 0)) === cell)
        #expect(cell.reuseCount == 1)
        #expect(collectionView.cellForItem(at: ItemPath(item: 500, section: 0)) == nil)
    }

    @Test func sectionsAreLaidOutAndPrefetchedAcrossTheirBoundaries() {
        // Given a grid of three sections of 10, 0 and 100 items
        let recorder = ViewEventRecorder(counts: [10, 0, 100])
        let collectionView = Fixtures.makeCollectionView(recorder)

        // When it lays out
        collectionView.layoutIfNeeded()

        // Then the visible items span sections 0 and 2, and the window continues in section 2
        let visible = collectionView.indexPathsForVisibleItems
        #expect(visible.first == ItemPath(item: 0, section: 0))
        #expect(visible.filter { $0.section == 0 }.count == 10)
        #expect(visible.allSatisfy { $0.section != 1 })
        let last = visible.last!
        #expect(last.section == 2)
        #expect(recorder.prefetchEvents == [Fixtures.paths(last.item + 1..<last.item + 25, section: 2)])
    }
}
