import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// Batch updates of a feed of carousels through a ``NestedPrefetchCoordinator``:
/// rows inserted, deleted and moved in the feed, items in a carousel.
@MainActor
@Suite("Nested coordinator: batch updates of rows and of a carousel's items", .queuedOnTheMainActor)
struct NestedCoordinatorUpdateTests {
    @Test("a deleted row's prefetches are withdrawn; the others follow their rows with their keys")
    func deletedRowsPrefetchesAreWithdrawn() async {
        // Given the rows below the screen being prefetched
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        fixture.scrollFeed(to: 10)
        let coordinator = fixture.coordinator!
        let before = coordinator.prefetchedKeysByPath
        let deletedKeys = Set(before.filter { $0.key.row == 6 }.values)
        #expect(!deletedKeys.isEmpty)
        await fixture.gate.waitForStarts(before.count)
        // When row 6 is deleted
        fixture.updateRows(deleting: [6], inserting: [])
        // Then its prefetches are withdrawn at the fetcher, and the others keep their keys a row up
        await fixture.gate.waitForCancellations(deletedKeys.count)
        #expect(Set(fixture.gate.cancelled) == deletedKeys)
        let after = coordinator.prefetchedKeysByPath
        for (path, key) in before where path.row != 6 {
            #expect(after[NestedItemPath(row: path.row > 6 ? path.row - 1 : path.row, item: path.item)] == key)
        }
        fixture.expectKeysFollowTheirItems("after the delete")
        // And the next frame asks for the row that came into reach, cancelling nothing more
        fixture.scrollFeed(to: 10)
        fixture.expectKeysFollowTheirItems("the next frame")
        #expect(fixture.gate.cancelled.count == deletedKeys.count)
    }

    @Test("a carousel's deleted item is withdrawn; the items after it move, keeping their keys")
    func deletedItemsPrefetchIsWithdrawn() async {
        // Given row 1's carousel swiped, its items ahead being loaded
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        fixture.swipe(row: 1, to: 100)
        fixture.swipe(row: 1, to: 260)
        let coordinator = fixture.coordinator!
        let before = coordinator.prefetchedKeysByPath
        let deleted = NestedItemPath(row: 1, item: 8)
        let deletedKey = before[deleted]
        #expect(deletedKey == NestedFeedFixture.key(1, 8))
        await fixture.gate.waitForStarts(before.count)
        // When item 8 of row 1 is deleted
        fixture.updateItems(inRow: 1, deleting: [8], inserting: [])
        // Then its prefetch is withdrawn (the cells that left the screen earlier cancelled theirs), and no other;
        // the items after it move back one, keeping their keys
        await waitUntil("item 8's load was cancelled") { fixture.gate.cancelled.contains(deletedKey!) }
        #expect(Set(fixture.gate.cancelled).intersection(before.values) == [deletedKey!])
        let after = coordinator.prefetchedKeysByPath
        for (path, key) in before where path != deleted {
            let moved = path.row == 1 && path.item > 8 ? NestedItemPath(row: 1, item: path.item - 1) : path
            #expect(after[moved] == key, "\(path)")
        }
        fixture.expectKeysFollowTheirItems("after the update")
        fixture.swipe(row: 1, to: 260)
        fixture.expectKeysFollowTheirItems("the next frame")
    }

    @Test("a moved row keeps its carousel's offset, its link and its prefetches' keys")
    func movedRowKeepsItsCarousel() {
        // Given row 1's carousel swiped to 260, prefetching ahead along its axis
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        fixture.swipe(row: 1, to: 100)
        fixture.swipe(row: 1, to: 260)
        let coordinator = fixture.coordinator!
        let link = fixture.rowCell(1).link
        let keys = coordinator.prefetchedKeysByPath.filter { $0.key.row == 1 }
        #expect(keys.count >= 5)
        // When it moves to row 3
        fixture.moveRow(1, to: 3)
        // Then its link, its offset and its prefetches' keys went with it
        #expect(link?.row == 3)
        #expect(coordinator.planner.offset(ofRow: 3) == 260)
        #expect(coordinator.planner.offset(ofRow: 1) == 0)
        for (path, key) in keys {
            #expect(coordinator.prefetchedKeysByPath[NestedItemPath(row: 3, item: path.item)] == key)
        }
        fixture.expectKeysFollowTheirItems("after the move")
        // And the next swipe of row 3 plans along its axis from there
        fixture.swipe(row: 3, to: 400)
        fixture.expectKeysFollowTheirItems("after the next swipe")
        #expect(coordinator.prefetchedKeysByPath[NestedItemPath(row: 3, item: 14)] == NestedFeedFixture.key(1, 14))
    }

    @Test("a display request moved by a batch update is forgotten when its data lands")
    func movedDisplayRequestIsForgottenWhenItCompletes() async {
        // Given the visible cells waiting for their data
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        let coordinator = fixture.coordinator!
        #expect(coordinator.pendingDisplayPaths.count == 5 * 3)
        // When a row is inserted above them (they move down a row), and every load lands
        fixture.updateRows(deleting: [], inserting: [0])
        #expect(coordinator.pendingDisplayPaths.contains(NestedItemPath(row: 1, item: 0)))
        // (The rows pushed off the screen withdraw their cells' requests: those
        // end in `CancellationError`, delivered later, and are not counted.)
        let expected = fixture.deliveries.successCount + coordinator.pendingDisplayPaths.count
        await waitUntil(
            "every display request completed: \(fixture.deliveries.successCount) of \(expected) values delivered, "
                + "\(fixture.gate.started.count) loads started, \(fixture.gate.waiting.count) waiting"
        ) {
            for key in fixture.gate.waiting { fixture.gate.succeedIfWaiting(key, with: "\(key)") }
            return fixture.deliveries.successCount >= expected
        }
        // Then none is left waiting, and each cell got its own item's data
        #expect(coordinator.pendingDisplayPaths.isEmpty)
        #expect(fixture.mismatches.isEmpty)
    }

    @Test(
        "batch updates while the feed and its carousels scroll: keys follow their items, no data to the wrong cell",
        arguments: [UInt64(0x18_0001), 0x18_0002, 0x18_0003])
    func randomBatchesWhileScrolling(seed: UInt64) async {
        // Given a coordinated feed over a gate the test resolves at random
        var random = SeededRandom(seed: seed)
        let fixture = NestedFeedFixture(policy: .adaptive, carouselPolicy: .adaptive)
        let context = "seed \(String(seed, radix: 16))"
        var y = 0.0
        fixture.scrollFeed(to: y)
        var batches = 0
        // When, for 400 steps, the feed scrolls, a carousel is swiped, or rows or items change
        for step in 0..<400 {
            let here = "\(context), step \(step)"
            let visibleRows = fixture.feed.indexPathsForVisibleItems.map(\.item)
            switch random.next(below: 10) {
            case 0...3:
                let maxY = max(0, fixture.feed.contentSize.height - fixture.feed.bounds.height)
                y = min(maxY, max(0, y + Double(random.next(below: 601) - 200)))
                fixture.scrollFeed(to: y)
            case 4...5:
                guard let row = visibleRows.randomElement(using: &random) else { break }
                let maxX = fixture.data.layout.maxOffset(ofRow: row)
                let x = fixture.rowCell(row).collectionView.contentOffset.x + Double(random.next(below: 801) - 300)
                fixture.swipe(row: row, to: min(maxX, max(0, x)))
            case 6...7:
                // Rows deleted and inserted, or one moved, around the screen
                let rows = fixture.data.rows.count
                let low = max(0, (visibleRows.first ?? 0) - 4)
                let high = min(rows, (visibleRows.last ?? 0) + 6)
                guard low < high, rows > 20 else { break }
                batches += 1
                if random.next(below: 3) == 0 {
                    let from = low + random.next(below: high - low)
                    fixture.moveRow(from, to: low + random.next(below: high - low))
                    break
                }
                let deletes = Set((0..<random.next(below: 3)).map { _ in low + random.next(below: high - low) })
                let inserts = Set((0..<random.next(below: 3)).map { _ in low + random.next(below: high - low) })
                fixture.updateRows(deleting: deletes.sorted(), inserting: inserts.sorted())
            default:
                // Items deleted and inserted in a visible carousel
                guard let row = visibleRows.randomElement(using: &random) else { break }
                let count = fixture.data.rows[row].count
                guard count > 8 else { break }
                batches += 1
                if random.next(below: 3) == 0 {
                    fixture.moveItem(inRow: row, random.next(below: count), to: random.next(below: count))
                    break
                }
                let deletes = Set((0..<random.next(below: 3)).map { _ in random.next(below: count) })
                let newCount = count - deletes.count
                let inserts = Set((0..<random.next(below: 3)).map { _ in random.next(below: newCount + 1) })
                fixture.updateItems(inRow: row, deleting: deletes.sorted(), inserting: inserts.sorted())
            }
            fixture.expectKeysFollowTheirItems(here)
            // Some loads land, in random order
            let waiting = fixture.gate.waiting
            for key in waiting where random.next(below: 3) == 0 { fixture.gate.succeedIfWaiting(key, with: "\(key)") }
            await Task.yield()
        }
        // Then, once everything lands, no cell got another item's data
        for _ in 0..<50 {
            for key in fixture.gate.waiting { fixture.gate.succeedIfWaiting(key, with: "\(key)") }
            await Task.yield()
        }
        #expect(fixture.mismatches.isEmpty, "\(context): \(fixture.mismatches.prefix(5))")
        #expect(batches > 100, "\(context)")
        #expect(fixture.deliveries.count > 100, "\(context)")
    }
}

extension NestedFeedFixture {
    /// Deletes the rows at `deletes` (before) and inserts new rows at `inserts`
    /// (after), as an app does: the data, then the feed's batch, reporting the
    /// rows' new indices to the coordinator inside it.
    func updateRows(deleting deletes: [Int], inserting inserts: [Int]) {
        let oldCount = data.rows.count
        for row in deletes.sorted(by: >) { data.rows.remove(at: row) }
        for row in inserts.sorted() where row <= data.rows.count {
            data.nextRowKey += 1_000
            data.rows.insert((0..<30).map { data.nextRowKey + $0 }, at: row)
        }
        let inserted = inserts.filter { $0 < data.rows.count }
        guard
            let mapping = try? BatchUpdateMapping(
                oldCounts: [oldCount], newCounts: [data.rows.count],
                deletes: deletes.map { ItemPath(item: $0, section: 0) },
                inserts: inserted.map { ItemPath(item: $0, section: 0) }, moves: [])
        else { preconditionFailure("the test's batch is valid") }
        feed.performBatchUpdates {
            feed.deleteItems(at: deletes.map { ItemPath(item: $0, section: 0) })
            feed.insertItems(at: inserted.map { ItemPath(item: $0, section: 0) })
            coordinator?.applyUpdates(layout: data.layout) {
                mapping.newPath(for: ItemPath(item: $0, section: 0))?.item
            }
        }
    }

    /// Deletes the items at `deletes` (before) of row `row`, which must be on
    /// screen, and inserts new ones at `inserts` (after), through the row's link.
    func updateItems(inRow row: Int, deleting deletes: [Int], inserting inserts: [Int]) {
        let cell = rowCell(row)
        let oldCount = data.rows[row].count
        for item in deletes.sorted(by: >) { data.rows[row].remove(at: item) }
        var inserted: [Int] = []
        for item in inserts.sorted() where item <= data.rows[row].count {
            data.nextItemKey += 1
            data.rows[row].insert(data.nextItemKey, at: item)
            inserted.append(item)
        }
        guard
            let mapping = try? BatchUpdateMapping(
                oldCounts: [oldCount], newCounts: [data.rows[row].count],
                deletes: deletes.map { ItemPath(item: $0, section: 0) },
                inserts: inserted.map { ItemPath(item: $0, section: 0) }, moves: [])
        else { preconditionFailure("the test's batch is valid") }
        cell.collectionView.performBatchUpdates {
            cell.collectionView.deleteItems(at: deletes.map { ItemPath(item: $0, section: 0) })
            cell.collectionView.insertItems(at: inserted.map { ItemPath(item: $0, section: 0) })
            cell.link?.applyUpdates(layout: data.layout) { mapping.newPath(for: ItemPath(item: $0, section: 0))?.item }
        }
    }

    /// Moves the row at `from` (before) to `to` (after).
    func moveRow(_ from: Int, to: Int) {
        data.rows.insert(data.rows.remove(at: from), at: to)
        let move = BatchUpdateMapping.Move(from: ItemPath(item: from, section: 0), to: ItemPath(item: to, section: 0))
        guard
            let mapping = try? BatchUpdateMapping(
                oldCounts: [data.rows.count], newCounts: [data.rows.count], deletes: [], inserts: [], moves: [move])
        else { preconditionFailure("the test's move is valid") }
        feed.performBatchUpdates {
            feed.moveItem(at: move.from, to: move.to)
            coordinator?.applyUpdates(layout: data.layout) {
                mapping.newPath(for: ItemPath(item: $0, section: 0))?.item
            }
        }
    }

    /// Moves the item at `from` (before) of row `row`, which must be on screen, to `to` (after).
    func moveItem(inRow row: Int, _ from: Int, to: Int) {
        let cell = rowCell(row)
        data.rows[row].insert(data.rows[row].remove(at: from), at: to)
        let move = BatchUpdateMapping.Move(from: ItemPath(item: from, section: 0), to: ItemPath(item: to, section: 0))
        let count = data.rows[row].count
        guard
            let mapping = try? BatchUpdateMapping(
                oldCounts: [count], newCounts: [count], deletes: [], inserts: [], moves: [move])
        else { preconditionFailure("the test's move is valid") }
        cell.collectionView.performBatchUpdates {
            cell.collectionView.moveItem(at: move.from, to: move.to)
            cell.link?.applyUpdates(layout: data.layout) { mapping.newPath(for: ItemPath(item: $0, section: 0))?.item }
        }
    }

    /// Checks that every prefetch the coordinator holds is for the item now at
    /// its path, and that it holds one for each item the planner holds.
    func expectKeysFollowTheirItems(_ context: String) {
        guard let coordinator else { return }
        let held = coordinator.prefetchedKeysByPath
        for (path, key) in held where data.key(at: path) != key {
            Issue.record("\(context): \(path) holds key \(key), but shows \(data.key(at: path))")
        }
        #expect(Set(held.keys) == coordinator.planner.prefetched, "\(context)")
    }
}
