import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// Requests belong to their item and to the cell or row that asked, never to
/// an index path: whatever the app does to its data, in UIKit's real call
/// order, no cell gets another item's value, none is left demoted or blank,
/// no visible load restarts and nothing is left running untracked.
@Suite(.queuedOnTheMainActor)
@MainActor
struct IdentityTests {
    /// An app's grid over a coordinator: the headless view with the data
    /// source and delegate an app writes, loads waiting on a gate.
    @MainActor
    final class Grid {
        let gate = LoadGate<Int, String>()
        let fetcher: AsyncFetcher<Int, String>
        let source: CoordinatedDataSource<String>
        let view = CollectionView(grid: .photoGrid)
        let coordinator: PrefetchCoordinator<Int, String>
        private var time = Duration.zero

        init(itemCount: Int = 2_000, policy: PrefetchPolicy = .adaptive) {
            let gate = gate
            fetcher = AsyncFetcher(maxConcurrentLoads: 10_000) { key in try await gate.load(key) }
            let source = CoordinatedDataSource(keys: Array(0..<itemCount), fetcher: fetcher)
            self.source = source
            source.register(on: view)
            view.dataSource = source
            view.delegate = source
            coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: view, policy: policy) { path in
                source.keys.indices.contains(path.item) ? source.keys[path.item] : nil
            }
            source.coordinator = coordinator
            view.layoutIfNeeded()
        }

        /// Moves the view to `y` one frame later and reports it.
        func scroll(to y: Double, after elapsed: Duration = .milliseconds(16)) {
            time += elapsed
            view.step(to: Point(x: 0, y: y), at: time)
            coordinator.scrollViewDidScroll(contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
        }

        /// The display request the cell showing `path` waits on, with its key.
        func request(at path: ItemPath) -> (key: Int, request: FetchTask)? {
            view.cellForItem(at: path).flatMap { coordinator.displayRequest(of: $0) }
        }

        /// Requests the fetcher serves that none of the coordinator's tables holds.
        var untracked: [Int] {
            let held = Set(coordinator.heldRequests.map(\.interestID))
            return fetcher.liveRequests.filter { !held.contains($0.interest) }.map(\.key)
        }
    }

    @Test func aRowAsksForItsOwnKeyNotTheOneTheCoordinatorsDataHasThere() async {
        // Given a coordinator made over [1, 2, 3] (kept in @State, its key closure over that first list)
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 4) { key in try await gate.load(key) }
        let first = [1, 2, 3]
        let coordinator = PrefetchCoordinator(
            fetcher: fetcher,
            layoutSource: FixedLayoutSource(layout: ListLayout(width: 390, rowHeight: 100, rowCount: 3)),
            policy: .adaptive
        ) { path in first.indices.contains(path.item) ? first[path.item] : nil }

        // When the list becomes [0, 1, 2, 3] and the row of item 0, at index 0, appears
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        var shown: [String] = []
        _ = row.appeared(key: 0, from: .coordinator(coordinator, path: ItemPath(item: 0, section: 0))) {
            shown.append($0)
        }
        await gate.waitForStarts(1)
        gate.succeed(gate.waiting[0], with: "value of \(gate.waiting[0])")
        await waitUntil("the row's value arrived") { !shown.isEmpty }

        // Then it asked for item 0, and shows item 0's value
        #expect(gate.started == [0])
        #expect(shown == ["value of 0"])
    }

    @Test func deletingAnItemLeavesTheCellBelowItAtItsPriority() async {
        // Given a grid at rest, every visible cell waiting on its load at .high
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let visible = grid.view.indexPathsForVisibleItems
        let deleted = visible[5]
        #expect(grid.request(at: deleted)?.request.priority == .high)

        // When the app deletes a visible item in a batch update, telling the
        // coordinator its keys after — and the view ends the deleted cell's
        // display at the index path it had before the update, which now names
        // the item that slid up into it
        grid.view.performBatchUpdates {
            grid.source.keys.remove(at: deleted.item)
            grid.coordinator.applyUpdates(to: [grid.source.keys])
            grid.view.deleteItems(at: [deleted])
        }

        // Then the cell now at that path still asks at .high, for its own item
        let below = grid.request(at: deleted)
        #expect(below?.key == grid.source.keys[deleted.item])
        #expect(below?.request.priority == .high)
        for path in grid.view.indexPathsForVisibleItems {
            #expect(grid.request(at: path)?.request.priority ?? .high > .veryLow, "\(path)")
        }
        // And the deleted item's request is withdrawn
        #expect(grid.untracked.isEmpty)
        #expect(!grid.coordinator.pendingDisplays.contains { $0.key == deleted.item })
    }

    @Test func cellsReassignedInAnyOrderRestartNoVisibleLoad() async {
        // Given a grid at rest, every visible cell's load running
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let paths = grid.view.indexPathsForVisibleItems
        let (first, second) = (paths[0], paths[5])
        let (cellA, cellB) = (grid.view.cellForItem(at: first)!, grid.view.cellForItem(at: second)!)
        let (keyA, keyB) = (grid.source.keys[first.item], grid.source.keys[second.item])
        let attempts = [keyA, keyB].map { grid.fetcher.runningAttempt(of: $0) }
        #expect(!attempts.contains(nil))

        // When a reload hands the two cells each other's item, the cell that
        // showed A asking first (UIKit dequeues in no promised order)
        grid.view.reloadData()
        grid.coordinator.reloadData()
        let shownByA = LockedValue<[Result<String, any Error>]>([])
        grid.coordinator.requestDisplay(at: second, for: cellA) { result in shownByA.withLock { $0.append(result) } }
        let shownByB = LockedValue<[Result<String, any Error>]>([])
        grid.coordinator.requestDisplay(at: first, for: cellB) { result in shownByB.withLock { $0.append(result) } }

        // Then neither load was stopped and started again
        #expect([keyA, keyB].map { grid.fetcher.runningAttempt(of: $0) } == attempts)
        #expect(grid.untracked.isEmpty)
        // And A's item landing reaches the cell that shows it now, not the cell that let go of it
        await waitUntil("A's load reached the loader") { grid.gate.waiting.contains(keyA) }
        grid.gate.succeed(keyA, with: "item \(keyA)")
        await waitUntil("A's item reached cell B") { !shownByB.withLock { $0.isEmpty } }
        #expect((try? shownByB.withLock { $0 }.first?.get()) == "item \(keyA)")
        #expect(shownByA.withLock { $0.isEmpty })
        #expect(grid.coordinator.displayRequest(of: cellA)?.key == keyB)
    }

    @Test func aCellReusedForAnotherItemLetsGoOfItsOldRequestOnceTheLayoutPassIsOver() async {
        // Given a grid at rest, a visible cell waiting on its item
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let path = grid.view.indexPathsForVisibleItems[0]
        let cell = grid.view.cellForItem(at: path)!
        let key = grid.source.keys[path.item]

        // When the cell asks for an item far away, and nobody asks for its old one
        let far = ItemPath(item: 1_990, section: 0)
        grid.coordinator.requestDisplay(at: far, for: cell) { _ in }
        #expect(grid.coordinator.displayRequest(of: cell)?.key == grid.source.keys[far.item])

        // Then its old request waits out the turn for another cell to claim
        // it, and is withdrawn after, nothing left untracked
        #expect(grid.coordinator.pendingDisplays.contains { $0.key == key })
        await waitUntil("the old request is withdrawn") {
            !grid.coordinator.pendingDisplays.contains { $0.key == key }
        }
        #expect(grid.untracked.isEmpty)
    }

    @Test func aPageAppendedAndReloadedRestartsNoVisibleLoad() async {
        // Given a grid at rest, every visible cell's load running
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let visibleKeys = grid.view.indexPathsForVisibleItems.map { grid.source.keys[$0.item] }
        let attempts = visibleKeys.map { grid.fetcher.runningAttempt(of: $0) }
        #expect(!attempts.contains(nil), "every visible item's load runs")
        let displayed = Set(grid.coordinator.pendingDisplays.map(\.key))
        #expect(Set(visibleKeys).isSubset(of: displayed))

        // When a page arrives and the app reloads, as the README once said
        grid.source.keys += Array(2_000..<2_100)
        grid.view.reloadData()
        grid.coordinator.reloadData()
        grid.view.layoutIfNeeded()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))

        // Then each visible item's load is the attempt that ran before: none
        // was stopped and started again (prefetches the first frame after the
        // reload no longer wants may be)
        #expect(visibleKeys.map { grid.fetcher.runningAttempt(of: $0) } == attempts)
        #expect(Set(visibleKeys).isSubset(of: Set(grid.coordinator.pendingDisplays.map(\.key))))
        #expect(grid.untracked.isEmpty)
    }

    @Test func aReloadStopsNoLoadTheNextFrameStillWants() async {
        // Given a grid at rest, the visible cells' loads and the window's prefetches running
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let running = grid.fetcher.liveRequests.map(\.key)
        var attempts: [Int: UInt64?] = [:]
        for key in running { attempts[key] = grid.fetcher.runningAttempt(of: key) }
        let visible = Set(grid.view.indexPathsForVisibleItems.map { grid.source.keys[$0.item] })
        #expect(Set(running).subtracting(visible).count > 10, "the window's prefetches run too")

        // When the app reloads the same items and the next frame comes
        grid.view.reloadData()
        grid.coordinator.reloadData()
        grid.view.layoutIfNeeded()
        grid.scroll(to: 10_000)

        // Then every load the screen and the window still want is the attempt
        // that ran before: the reload let go of its prefetches after the next
        // frame had asked again, not before
        let wanted = Set(grid.fetcher.liveRequests.map(\.key))
        let restarted = attempts.filter { key, attempt in
            wanted.contains(key) && grid.fetcher.runningAttempt(of: key) != attempt
        }
        #expect(restarted.keys.sorted() == [], "visible: \(visible.sorted())")
        #expect(grid.untracked.isEmpty)
    }

    @Test func aPageAppendedAsAnUpdateStopsNoLoadAtAll() async {
        // Given a grid at rest, every visible cell's load and the prefetches running
        let grid = Grid()
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))
        let running = grid.fetcher.liveRequests.map(\.key)
        let attempts = running.map { grid.fetcher.runningAttempt(of: $0) }
        let cancelled = grid.fetcher.statistics.loadsCancelled

        // When a page arrives and the app appends it, the cheapest correct call (the docs' way)
        let count = grid.source.keys.count
        grid.view.performBatchUpdates {
            grid.source.keys += Array(2_000..<2_100)
            grid.view.insertItems(at: (count..<count + 100).map { ItemPath(item: $0, section: 0) })
        }
        grid.coordinator.applyUpdates(to: [grid.source.keys])
        grid.scroll(to: 10_000)
        grid.scroll(to: 10_000, after: .seconds(1))

        // Then no load was stopped: each runs as the attempt it was
        #expect(grid.fetcher.statistics.loadsCancelled == cancelled)
        let changed = zip(running, attempts).filter { grid.fetcher.runningAttempt(of: $0.0) != $0.1 }.map(\.0)
        #expect(changed == [], "visible: \(grid.view.indexPathsForVisibleItems.map(\.item))")
        #expect(grid.untracked.isEmpty)
    }

    @Test func aSnapshotAppliedWithoutTellingTheCoordinatorBlanksNoMovedCell() async {
        // Given a grid at its top, the visible cells waiting on their loads
        let grid = Grid()
        grid.scroll(to: 0)
        let first = grid.view.indexPathsForVisibleItems
        let cells = first.compactMap { grid.view.cellForItem(at: $0) }
        let requests = cells.compactMap { grid.coordinator.displayRequest(of: $0)?.request }
        #expect(requests.count == first.count)

        // When an item is inserted above them and the coordinator is not told:
        // the view asks for the new row 0, and moves the other cells without asking
        grid.view.performBatchUpdates {
            grid.source.keys.insert(5_000, at: 0)
            grid.view.insertItems(at: [ItemPath(item: 0, section: 0)])
        }

        // Then every cell still showing its item keeps its request (the one
        // pushed off the bottom is reused for the new row), and the new cell has its own
        let moved = zip(zip(first, cells), requests).filter { pair in
            let ((path, cell), _) = pair
            return grid.view.indexPath(for: cell) == ItemPath(item: path.item + 1, section: 0)
        }
        #expect(moved.count >= first.count - 4, "a row at most moved off the bottom")
        #expect(moved.allSatisfy { $0.1.isPending })
        #expect(grid.request(at: ItemPath(item: 0, section: 0))?.key == 5_000)
        for path in grid.view.indexPathsForVisibleItems {
            #expect(grid.request(at: path)?.key == grid.source.keys[path.item], "\(path)")
        }
    }

    @Test func aPrefetchUIKitsWindowAskedForFirstIsOneRequestItCancels() async {
        // Given a coordinator on `.system` beside UIKit's own window (UIKitPrefetchDataSource),
        // and UIKit asking for the rows below the first screen before the first frame is planned
        let grid = Grid(policy: .system)
        let below = (32..<56).map { ItemPath(item: $0, section: 0) }
        grid.coordinator.prefetchItems(at: below)

        // When the planner's first frame asks for the same rows
        grid.scroll(to: 0)
        #expect(Set(grid.coordinator.planner.prefetchedPaths).isSuperset(of: below))

        // Then each is one request, which UIKit's cancel withdraws: nothing is left untracked or running
        #expect(grid.untracked.isEmpty, "untracked: \(grid.untracked)")
        grid.coordinator.cancelPrefetchingForItems(at: below)
        #expect(!grid.fetcher.liveRequests.contains { below.map(\.item).contains($0.key) })
    }

    @Test func requestsThatLandOnOnePathInAnUpdateLeaveNothingUntracked() async {
        // Given a grid with prefetches held below the screen
        let grid = Grid()
        grid.scroll(to: 0)
        let held = grid.coordinator.planner.prefetchedPaths
        #expect(held.count > 2)

        // When an update maps two of them to one path (a mapping a diff got wrong)
        let (a, b) = (held[0], held[1])
        grid.coordinator.applyUpdates { $0 == b ? a : $0 }

        // Then the one that lost its path was withdrawn, not left running untracked
        #expect(grid.untracked.isEmpty, "untracked: \(grid.untracked)")
    }
}
