import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// Records a collection view's display calls, with the cell each was for.
@MainActor
final class DisplayRecorder: CollectionViewDelegate {
    enum Event: Hashable {
        case willDisplay(ItemPath)
        case didEndDisplaying(ItemPath)
    }

    private(set) var events: [Event] = []
    /// The cell of each `willDisplay`, by path, latest first.
    private(set) var shownCells: [ItemPath: [ObjectIdentifier]] = [:]

    func collectionView(_ collectionView: CollectionView, willDisplay cell: Cell, forItemAt indexPath: ItemPath) {
        events.append(.willDisplay(indexPath))
        shownCells[indexPath, default: []].insert(ObjectIdentifier(cell), at: 0)
    }

    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: Cell, forItemAt indexPath: ItemPath) {
        events.append(.didEndDisplaying(indexPath))
    }

    func takeEvents() -> [Event] {
        defer { events = [] }
        return events
    }
}

/// The headless views model UIKit's cell prefetching: cells made ahead of
/// being shown, some never shown, and cells that left shown again without a
/// new `cellForItemAt` when the user turns back within a row or so.
@Suite
@MainActor
struct CellPrefetchingTests {
    /// A photo grid (8 rows of 105.5 pt on screen) with cell prefetching on, at rest at the top.
    func makeGrid() -> (CollectionView, ViewEventRecorder, DisplayRecorder) {
        let recorder = ViewEventRecorder(itemCount: 400)
        let view = ViewFixtures.makeCollectionView(recorder, cellClass: CountingCell.self)
        let display = DisplayRecorder()
        view.delegate = display
        view.isCellPrefetchingEnabled = true
        view.layoutIfNeeded()
        _ = recorder.takeEvents()
        _ = display.takeEvents()
        return (view, recorder, display)
    }

    @Test func cellsAreMadeAboutARowAheadInTheDirectionOfTheScroll() {
        // Given a grid at rest at the top
        let (view, recorder, display) = makeGrid()

        // When it scrolls down by 10 points
        view.step(to: Point(x: 0, y: 10), at: .milliseconds(16))

        // Then the data source made the cells of the next row or so, none of them shown
        let made = Set(recorder.cellEvents)
        let shown = Set(display.takeEvents().compactMap { if case .willDisplay(let path) = $0 { path } else { nil } })
        let visible = Set(view.indexPathsForVisibleItems)
        let ahead = made.subtracting(visible)
        #expect(!ahead.isEmpty)
        #expect(ahead.allSatisfy { $0.item >= 36 && $0.item < 44 }, "\(ahead.sorted())")
        #expect(shown.isDisjoint(with: ahead))

        // And when those rows come on screen, they are shown without being asked for again
        _ = recorder.takeEvents()
        view.step(to: Point(x: 0, y: 110), at: .milliseconds(32))
        let nowShown = display.takeEvents().compactMap { if case .willDisplay(let path) = $0 { path } else { nil } }
        #expect(!Set(nowShown).isDisjoint(with: ahead))
        #expect(Set(recorder.cellEvents).isDisjoint(with: ahead))
    }

    @Test func aCellScrolledBackToIsShownAgainWithoutANewCellForItemAt() {
        // Given a grid scrolled down by one row, its first row gone
        let (view, recorder, display) = makeGrid()
        view.step(to: Point(x: 0, y: 60), at: .milliseconds(16))
        view.step(to: Point(x: 0, y: 110), at: .milliseconds(32))
        let first = ItemPath(item: 0, section: 0)
        #expect(display.takeEvents().contains(.didEndDisplaying(first)))
        let cellBefore = display.shownCells[first]?.first
        _ = recorder.takeEvents()

        // When the user turns back to the top
        view.step(to: Point(x: 0, y: 0), at: .milliseconds(48))

        // Then the first row is shown again, the same cells, not asked for nor prepared for reuse
        #expect(display.takeEvents().contains(.willDisplay(first)))
        #expect(!recorder.cellEvents.contains(first))
        #expect(display.shownCells[first]?.first == cellBefore)
        let cell = view.cellForItem(at: first) as? CountingCell
        #expect(cell?.preparedForReuse == 0)
    }

    @Test func someCellsMadeAheadAreNeverShownAndCellsFarOffAreReused() {
        // Given a grid that scrolled down a little, making the next row ahead
        let (view, recorder, display) = makeGrid()
        view.step(to: Point(x: 0, y: 10), at: .milliseconds(16))
        let madeAhead = Set(recorder.cellEvents).subtracting(view.indexPathsForVisibleItems)
        #expect(!madeAhead.isEmpty)

        // When the user turns back and then jumps far down
        view.step(to: Point(x: 0, y: 0), at: .milliseconds(32))
        view.step(to: Point(x: 0, y: 5_000), at: .milliseconds(48))

        // Then the cells made ahead were never shown
        let shown = Set(display.takeEvents().compactMap { if case .willDisplay(let path) = $0 { path } else { nil } })
        #expect(shown.isDisjoint(with: madeAhead))
        // And the cells of the top, far off now, went back to the pool and were reused
        #expect(view.engine.offscreenCells.keys.allSatisfy { $0.item > 100 })
        let reused = view.indexPathsForVisibleItems.compactMap { view.cellForItem(at: $0) as? CountingCell }
        #expect(reused.contains { $0.preparedForReuse > 0 })
    }

    @Test func withCellPrefetchingOffEveryShownCellWasAskedFor() {
        // Given the same grid with cell prefetching off
        let (view, recorder, display) = makeGrid()
        view.isCellPrefetchingEnabled = false

        // When it scrolls down a row and back
        for (frame, y) in [10.0, 110, 60, 0].enumerated() {
            view.step(to: Point(x: 0, y: y), at: .milliseconds(16 * (frame + 1)))
        }

        // Then every cell shown was asked for on that appearance, and none ahead of it
        let made = recorder.cellEvents
        let shown = display.takeEvents().compactMap { if case .willDisplay(let path) = $0 { path } else { nil } }
        #expect(made == shown)
        #expect(view.engine.offscreenCells.isEmpty)
    }
}
