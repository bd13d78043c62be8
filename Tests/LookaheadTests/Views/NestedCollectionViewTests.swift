import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite("Headless views: a carousel inside a feed's cell", .queuedOnTheMainActor)
struct NestedCollectionViewTests {
    /// The items of a carousel of 30 items 120 pt wide, 10 pt apart, whose
    /// frames cross a 390 pt screen at horizontal offset `x` (clamped): the
    /// arithmetic written out independently of the layout.
    static func expectedItems(atOffset x: Double) -> [Int] {
        let clamped = min(max(0, x), 30 * 130 - 10 - 390)
        return (0..<30).filter { item in
            let minX = Double(item) * 130
            return minX < clamped + 390 && minX + 120 > clamped
        }
    }

    @Test("an inner collection's visible cells follow its offset (seeded)")
    func innerCellsFollowTheOffset() {
        // Given a feed at rest, row 1's carousel at its start
        let fixture = NestedFeedFixture(coordinated: false)
        #expect(fixture.visibleItems(ofRow: 1) == [0, 1, 2])
        // When the carousel is swiped to seeded offsets, then its visible cells are the items crossing the screen
        var random = SeededRandom(seed: 18)
        for step in 0..<60 {
            let x = Double(random.next(upperBound: 3_800 as UInt64))
            fixture.swipe(row: 1, to: x)
            #expect(
                fixture.visibleItems(ofRow: 1) == Self.expectedItems(atOffset: x), "seed 18 step \(step): offset \(x)")
            let cells = fixture.rowCell(1).collectionView.visibleCells
            #expect(
                cells.map { $0.representedIdentifier as? Int } == Self.expectedItems(atOffset: x).map { 1_000 + $0 },
                "seed 18 step \(step)")
        }
        // And the other rows' carousels did not move
        #expect(fixture.visibleItems(ofRow: 2) == [0, 1, 2])
    }

    @Test("an inner collection's cells leave with its row, and its cell is reused for another row")
    func innerCellsFollowTheRow() {
        // Given row 0's carousel swiped to 260 (items 2, 3, 4)
        let fixture = NestedFeedFixture(coordinated: false)
        fixture.swipe(row: 0, to: 260)
        let cell = fixture.rowCell(0)
        let inner = cell.collectionView
        #expect(inner.indexPathsForVisibleItems.map(\.item) == [2, 3, 4])
        let innerCells = inner.visibleCells
        // When the feed scrolls row 0 off the screen (row 5 came in before, in a cell of its own)
        fixture.scrollFeed(to: 180)
        fixture.scrollFeed(to: 200)
        // Then the row's cell is off screen, and so are its inner cells, back in the inner pool
        #expect(!fixture.feed.visibleCells.contains { $0 === cell })
        #expect(inner.indexPathsForVisibleItems.isEmpty)
        #expect(inner.visibleCells.isEmpty)
        // When row 6 comes in at the bottom, the cell is reused for it
        fixture.scrollFeed(to: 380)
        #expect(fixture.feed.indexPath(for: cell)?.item == 6, "the pool hands out the cell that left last")
        // Then its inner collection shows the new row's items from that row's offset (0: never swiped)
        #expect(inner.indexPathsForVisibleItems.map(\.item) == [0, 1, 2])
        #expect(inner.visibleCells.map { $0.representedIdentifier as? Int } == [6_000, 6_001, 6_002])
        // In the inner cells row 0 left behind, not new ones
        #expect(inner.createdCellCount == 3)
        #expect(Set(inner.visibleCells.map(ObjectIdentifier.init)) == Set(innerCells.map(ObjectIdentifier.init)))
    }
}
