import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@Suite(.timeLimit(.minutes(1)))
struct BatchUpdateMappingTests {
    typealias Mapping = BatchUpdateMapping

    @Test(arguments: [1, 2, 3] as [UInt64])
    func matchesAReferenceModelOfUIKitsRules(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for trial in 0..<400 {
            // Given sections of unique items
            var nextID = 0
            let old: [[Int]] = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    nextID += 1
                    return nextID
                }
            }
            let oldPaths = old.indices.flatMap { section in
                old[section].indices.map { ItemPath(item: $0, section: section) }
            }
            func id(at path: ItemPath) -> Int { old[path.section][path.item] }

            // When some are deleted, some moved, and new ones inserted anywhere
            var untouched = oldPaths.shuffled(using: &random)
            let deleted = Array(untouched.prefix(Int.random(in: 0...untouched.count / 3, using: &random)))
            untouched.removeFirst(deleted.count)
            let moved = Array(untouched.prefix(Int.random(in: 0...untouched.count / 3, using: &random)))
            let movedIDs = Set(moved.map(id(at:)))
            let gone = Set(deleted.map(id(at:))).union(movedIDs)
            var new = old.map { $0.filter { !gone.contains($0) } }  // the survivors keep their order
            var placed = Array(movedIDs)
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                nextID += 1
                placed.append(nextID)
            }
            for item in placed.shuffled(using: &random) {
                let section = Int.random(in: new.indices, using: &random)
                new[section].insert(item, at: Int.random(in: 0...new[section].count, using: &random))
            }
            var location: [Int: ItemPath] = [:]
            for section in new.indices {
                for (index, item) in new[section].enumerated() {
                    location[item] = ItemPath(item: index, section: section)
                }
            }
            let inserts = placed.filter { !movedIDs.contains($0) }.map { location[$0]! }
            let moves = moved.map { Mapping.Move(from: $0, to: location[id(at: $0)]!) }
            let mapping = try Mapping(
                oldCounts: old.map(\.count), newCounts: new.map(\.count), deletes: deleted.shuffled(using: &random),
                inserts: inserts, moves: moves)

            // Then every item's new index path is where the reference put it
            for path in oldPaths {
                #expect(mapping.newPath(for: path) == location[id(at: path)], "seed \(seed), trial \(trial), \(path)")
            }
        }
    }

    @Test func countsThatDoNotAddUpAreReportedAsUIKitReportsThem() {
        let error = #expect(throws: Mapping.InvalidUpdate.self) {
            try Mapping(
                oldCounts: [10], newCounts: [12], deletes: [ItemPath(item: 0, section: 0)],
                inserts: [ItemPath(item: 3, section: 0)], moves: [])
        }
        #expect(
            error?.description
                == "Invalid update: invalid number of items in section 0. The number of items contained in an "
                + "existing section after the update (12) must be equal to the number of items contained in that "
                + "section before the update (10), plus or minus the number of items inserted or deleted from that "
                + "section (1 inserted, 1 deleted) and plus or minus the number of items moved into or out of that "
                + "section (0 moved in, 0 moved out)")
    }

    @Test func invalidIndexPathsAreRejected() {
        let path = { (item: Int) in ItemPath(item: item, section: 0) }
        let outOfRange = #expect(throws: Mapping.InvalidUpdate.self) {
            try Mapping(oldCounts: [3], newCounts: [2], deletes: [path(3)], inserts: [], moves: [], noun: "row")
        }
        #expect(
            outOfRange?.description.contains("attempt to delete row 3 in section 0, which only contains 3 rows") == true
        )
        let twice = #expect(throws: Mapping.InvalidUpdate.self) {
            try Mapping(oldCounts: [3], newCounts: [1], deletes: [path(1), path(1)], inserts: [], moves: [])
        }
        #expect(twice?.description.contains("more than once") == true)
        let deletedAndMoved = #expect(throws: Mapping.InvalidUpdate.self) {
            try Mapping(
                oldCounts: [3], newCounts: [2], deletes: [path(1)], inserts: [],
                moves: [Mapping.Move(from: path(1), to: path(0))])
        }
        #expect(deletedAndMoved?.description.contains("also deleted or moved") == true)
        let sections = #expect(throws: Mapping.InvalidUpdate.self) {
            try Mapping(oldCounts: [3], newCounts: [3, 0], deletes: [], inserts: [], moves: [])
        }
        #expect(sections?.description.contains("invalid number of sections") == true)
    }
}

@MainActor
@Suite(.queuedOnTheMainActor)
struct TableViewBatchUpdateTests {
    typealias Fixtures = ViewFixtures

    @Test func outstandingPrefetchesFollowTheirRowsThroughInsertsAndDeletes() {
        // Given a table scrolled 5 rows down: rows 5–24 visible, 25–34 prefetched
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        tableView.step(to: Point(x: 0, y: 220), at: .milliseconds(16))
        #expect(tableView.outstandingPrefetches == Set(Fixtures.paths(25..<35)))
        let cellOfRow5 = tableView.cellForRow(at: ItemPath(row: 5, section: 0))!
        let cellOfRow21 = tableView.cellForRow(at: ItemPath(row: 21, section: 0))!
        _ = recorder.takeEvents()

        // When 3 rows are inserted at 2 and the prefetched rows 27 and 28 deleted
        recorder.counts = [1_001]
        tableView.performBatchUpdates {
            tableView.insertRows(at: Fixtures.paths(2..<5))
            tableView.deleteRows(at: Fixtures.paths(27..<29))
        }

        // Then the visible cells moved with their rows without being asked for
        // again; the rows pushed into view are asked for; the row that was at 34
        // is cancelled under its new index path, 35; and the rows pushed out of
        // view are asked for as the window's nearest
        #expect(tableView.cellForRow(at: ItemPath(row: 8, section: 0)) === cellOfRow5)
        #expect(tableView.cellForRow(at: ItemPath(row: 24, section: 0)) === cellOfRow21)
        #expect(cellOfRow5.representedIdentifier == AnyHashable(ItemPath(row: 5, section: 0)))
        #expect(
            recorder.takeEvents() == Fixtures.paths(5..<8).map(ViewEvent.cell) + [
                .cancel([ItemPath(row: 35, section: 0)]), .prefetch(Fixtures.paths(25..<28)),
            ])
        #expect(tableView.outstandingPrefetches == Set(Fixtures.paths(25..<35)))

        // And a reversal cancels the moved prefetches under their new index paths
        tableView.step(to: Point(x: 0, y: 210), at: .milliseconds(32))
        #expect(recorder.cancelEvents == [Fixtures.paths(25..<35)])
    }

    @Test func aMovedRowKeepsItsCellAndNothingIsAskedFor() {
        // Given a table after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        let cellOfRow3 = tableView.cellForRow(at: ItemPath(row: 3, section: 0))!
        let cellOfRow4 = tableView.cellForRow(at: ItemPath(row: 4, section: 0))!
        _ = recorder.takeEvents()

        // When row 3 moves to 15
        tableView.moveRow(at: ItemPath(row: 3, section: 0), to: ItemPath(row: 15, section: 0))

        // Then the cells moved with their rows, unconfigured, and nothing was asked
        #expect(tableView.cellForRow(at: ItemPath(row: 15, section: 0)) === cellOfRow3)
        #expect(tableView.cellForRow(at: ItemPath(row: 3, section: 0)) === cellOfRow4)
        #expect(cellOfRow3.frame == Rect(x: 0, y: 660, width: 390, height: 44))
        #expect(cellOfRow4.frame == Rect(x: 0, y: 132, width: 390, height: 44))
        #expect(recorder.takeEvents().isEmpty)
    }

    @Test func aDeletedVisibleRowsCellIsRecycled() {
        // Given a table after its first layout: rows 0–19 visible, 20–29 prefetched
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        let deletedCell = tableView.cellForRow(at: ItemPath(row: 5, section: 0))!
        _ = recorder.takeEvents()

        // When the visible rows 5 and 6 are deleted
        recorder.counts = [998]
        tableView.performBatchUpdates { tableView.deleteRows(at: Fixtures.paths(5..<7)) }

        // Then the two prefetched rows that slid into view are asked for, with
        // the deleted rows' cells, and the window grows by two rows
        #expect(
            recorder.takeEvents() == Fixtures.paths(18..<20).map(ViewEvent.cell) + [.prefetch(Fixtures.paths(28..<30))])
        #expect(tableView.createdCellCount == 20)
        #expect(deletedCell.reuseCount == 1)
        #expect(tableView.visibleCells.contains { $0 === deletedCell })
        #expect(
            deletedCell.representedIdentifier == AnyHashable(ItemPath(row: 18, section: 0))
                || deletedCell.representedIdentifier == AnyHashable(ItemPath(row: 19, section: 0)))
    }
}
