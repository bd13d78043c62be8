import DequeModule
import Testing

@testable import Lookahead

/// ``PagedListUpdate`` on its own: snapshots in, view updates out.
@Suite(.timeLimit(.minutes(1)))
struct PagedDataSourceUpdateTests {
    func rows(_ range: Range<Int>) -> Deque<Row> { Deque(range.map(Row.init(id:))) }

    @Test func aPageLandingOnPlaceholdersReloadsOnlyTheVisibleRowsItFilled() {
        // Given 100 positions, 0–39 loaded, rows 35–50 visible
        let old = PagedListSnapshot(items: rows(0..<40), trailingPlaceholderCount: 60)
        // When 40–59 land
        let new = PagedListSnapshot(items: rows(0..<60), trailingPlaceholderCount: 40)
        let update = PagedListUpdate.between(old, new, visibleRows: 35...50)
        // Then the visible placeholders among them are reloaded; nothing moves
        #expect(update == .batch(deletes: [], inserts: [], reloads: Array(40...50)))
    }

    @Test func aPageAppendedWithoutPlaceholdersInsertsRowsAtTheEnd() {
        let old = PagedListSnapshot(items: rows(0..<40))
        let new = PagedListSnapshot(items: rows(0..<60))
        #expect(
            PagedListUpdate.between(old, new, visibleRows: 30..<40)
                == .batch(
                    deletes: [], inserts: Array(40..<60), reloads: []))
    }

    @Test func aPageDroppedWithoutPlaceholdersDeletesRowsAtTheStart() {
        // Given 0–59 loaded; then 0–19 dropped and 60–79 appended (positions move by 20)
        let old = PagedListSnapshot(items: rows(0..<60))
        let new = PagedListSnapshot(items: rows(20..<80), origin: 20)
        let update = PagedListUpdate.between(old, new, visibleRows: 40..<55)
        #expect(update == .batch(deletes: Array(0..<20), inserts: Array(40..<60), reloads: []))
    }

    @Test func aPageDroppedWithPlaceholdersTurnsVisibleRowsBackOnlyIfVisible() {
        // Given 100 positions, 0–59 loaded; 0–19 dropped and 60–79 landed, rows 50–65 visible
        let old = PagedListSnapshot(items: rows(0..<60), trailingPlaceholderCount: 40)
        let new = PagedListSnapshot(
            items: rows(20..<80), leadingPlaceholderCount: 20, trailingPlaceholderCount: 20, origin: 0)
        let update = PagedListUpdate.between(old, new, visibleRows: 50...65)
        #expect(update == .batch(deletes: [], inserts: [], reloads: Array(60...65)))
    }

    @Test func aRefreshLandingReloadsTheData() {
        let old = PagedListSnapshot(items: rows(0..<60), refreshState: .loading)
        let new = PagedListSnapshot(items: rows(0..<30))
        #expect(PagedListUpdate.between(old, new, visibleRows: 0..<10) == .reloadData)
    }

    @Test func aFailureAddsAFooterOrMarksThePlaceholders() {
        // Without placeholders: a footer row
        let plain = PagedListSnapshot(items: rows(0..<20))
        var failed = plain
        failed.appendState = .failed("offline")
        #expect(failed.count == 21)
        #expect(failed.row(at: 20) == .failed("offline"))
        #expect(
            PagedListUpdate.between(plain, failed, visibleRows: 5..<20)
                == .batch(
                    deletes: [], inserts: [20], reloads: []))

        // With placeholders: the visible placeholders show it, and there is no footer
        let placeheld = PagedListSnapshot(items: rows(0..<20), trailingPlaceholderCount: 10)
        var placeheldFailed = placeheld
        placeheldFailed.appendState = .failed("offline")
        #expect(placeheldFailed.count == 30)
        #expect(
            PagedListUpdate.between(placeheld, placeheldFailed, visibleRows: 15..<25)
                == .batch(
                    deletes: [], inserts: [], reloads: Array(20..<25)))
    }

    @Test func nothingVisibleChangedIsNone() {
        let old = PagedListSnapshot(items: rows(0..<40), trailingPlaceholderCount: 60)
        let new = PagedListSnapshot(items: rows(0..<60), trailingPlaceholderCount: 40)
        #expect(PagedListUpdate.between(old, new, visibleRows: 0..<20) == PagedListUpdate.none)
    }

    @Test func listsWithNoPositionInCommonAreReplacedRowByRow() {
        let old = PagedListSnapshot(items: rows(0..<10))
        let new = PagedListSnapshot(items: rows(50..<55), origin: 50)
        #expect(
            PagedListUpdate.between(old, new, visibleRows: 0..<10)
                == .batch(
                    deletes: Array(0..<10), inserts: Array(0..<5), reloads: []))
    }
}
