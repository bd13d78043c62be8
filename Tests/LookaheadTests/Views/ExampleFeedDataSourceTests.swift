import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite(.queuedOnTheMainActor)
struct ExampleFeedDataSourceTests {
    typealias Fixtures = ViewFixtures
    typealias Feed = ExampleFeedDataSource<Int, FeedPayload>

    /// A feed of `models` over a gated loader resolved out of order, shown in a table
    /// through a checking proxy and laid out once: where most tests here start.
    func showFeed(
        _ models: [Int], maxConcurrentLoads: Int = 8
    ) -> (LoadGate<Int, FeedPayload>, AsyncFetcher<Int, FeedPayload>, Feed, FeedProxy, TableView) {
        let loader = LoadGate<Int, FeedPayload>()
        let fetcher = Fixtures.makeFetcher(loader, maxConcurrentLoads: maxConcurrentLoads)
        let feed = Feed(models: models, fetcher: fetcher)
        let proxy = FeedProxy(feed: feed)
        let tableView = Fixtures.makeFeedTable(proxy)
        tableView.layoutIfNeeded()
        return (loader, fetcher, feed, proxy, tableView)
    }

    @Test func cellForRowAtCopesWithLoadedInFlightAndUnrequestedData() async {
        // Given a feed whose item 0 is cached, item 1 being prefetched and item 2 never requested
        var random = SeededRandom(seed: 7)
        let loader = LoadGate<Int, FeedPayload>()
        let fetcher = Fixtures.makeFetcher(loader, cacheCount: 1_000)
        fetcher.memoryCache.setValue(FeedPayload(id: 0), forKey: 0)
        let feed = Feed(models: Array(0..<100), fetcher: fetcher)
        let proxy = FeedProxy(feed: feed)
        let tableView = Fixtures.makeFeedTable(proxy)
        feed.tableView(tableView, prefetchRowsAt: [ItemPath(row: 1, section: 0)])

        // When the table lays out
        tableView.layoutIfNeeded()

        // Then the cached item is shown at once and the others are blank
        let cells = (0..<3).map { tableView.cellForRow(at: ItemPath(row: $0, section: 0)) as? CheckingCell }
        #expect(cells.map { $0?.value } == [FeedPayload(id: 0), nil, nil])
        #expect(cells.map { $0?.representedIdentifier as? Int } == [0, 1, 2])

        // And once the loads finish, in any order, every cell shows its own item;
        // the prefetch and the cell shared item 1's one load
        #expect(await Fixtures.drain(loader, fetcher, tableView, feed, using: &random))
        #expect(cells.map { $0?.value } == [FeedPayload(id: 0), FeedPayload(id: 1), FeedPayload(id: 2)])
        #expect(loader.started.filter { $0 == 1 }.count == 1)
        #expect(!loader.started.contains(0))
        #expect(proxy.cells.values.allSatisfy { $0.mismatches.isEmpty })
    }

    @Test func aReusedCellWithdrawsItsPreviousItemsRequest() async {
        // Given a feed whose first rows are shown and waiting for their loads
        var random = SeededRandom(seed: 13)
        let (loader, fetcher, feed, proxy, tableView) = showFeed(Array(0..<200), maxConcurrentLoads: 4)
        let firstRows = tableView.indexPathsForVisibleRows.map(\.item)
        #expect(!firstRows.isEmpty)
        #expect(firstRows.allSatisfy { key in fetcher.withScheduler { $0.interestCount(in: key) } == 1 })

        // When a fling carries them away and their cells are reused for rows far below
        tableView.step(to: Point(x: 0, y: 44 * 150), at: .milliseconds(16))

        // Then their requests are withdrawn: nothing wants those loads any more
        #expect(firstRows.allSatisfy { key in fetcher.withScheduler { $0.interestCount(in: key) } == 0 })
        // and every cell still ends up showing its own item
        #expect(await Fixtures.drain(loader, fetcher, tableView, feed, using: &random))
        #expect(proxy.cells.values.allSatisfy { $0.mismatches.isEmpty })
    }

    @Test func aDisplayRequesterMakesTheCellsRequests() async {
        // Given a feed whose cells ask through a requester of their own (as a
        // coordinator's), which has nothing to load for row 0
        var random = SeededRandom(seed: 17)
        let loader = LoadGate<Int, FeedPayload>()
        let fetcher = Fixtures.makeFetcher(loader)
        let feed = Feed(models: Array(0..<100), fetcher: fetcher)
        var asked: [ItemPath] = []
        feed.displayRequester = { path, _, completion in
            asked.append(path)
            return path.item == 0 ? nil : fetcher.requestDisplay(of: path.item, priority: .low, completion: completion)
        }
        let proxy = FeedProxy(feed: feed)
        let tableView = Fixtures.makeFeedTable(proxy)

        // When the table lays out and the loads finish
        tableView.layoutIfNeeded()
        let visible = tableView.indexPathsForVisibleRows
        let cells = visible.map { tableView.cellForRow(at: $0) as? CheckingCell }
        func othersShowTheirItems() -> Bool {
            cells.dropFirst().allSatisfy { $0?.value != nil && $0?.value?.id == $0?.representedIdentifier as? Int }
        }
        while fetcher.runningLoadCount + fetcher.pendingLoadCount > 0 || loader.inFlight > 0 {
            loader.succeedAtRandom(upTo: .max, using: &random) { FeedPayload(id: $0) }
            await Task.yield()
        }
        await fetcher.waitUntilIdle()
        // (The completions hop to the main actor.)
        for _ in 0..<10_000 where !othersShowTheirItems() { await Task.yield() }

        // Then every visible cell asked through it, row 0 stayed blank and
        // loaded nothing, and the others show their own items
        #expect(!visible.isEmpty && asked == visible)
        #expect(!loader.started.contains(0))
        #expect(cells.first??.value == nil)
        #expect(othersShowTheirItems())
        #expect(proxy.cells.values.allSatisfy { $0.mismatches.isEmpty })
    }

    @Test func prefetchAndCancelGoToTheFetcherByIdentifier() {
        // Given a feed in a table after its first layout: rows 20–29 prefetched
        let (_, fetcher, feed, proxy, tableView) = showFeed(Array((0..<100).map { $0 * 10 }), maxConcurrentLoads: 1)
        #expect(feed.prefetchedIdentifiers == Set((20..<30).map { $0 * 10 }))
        #expect(fetcher.withScheduler { $0.interestCount(in: 250) } == 1)

        // When the user turns back up
        tableView.step(to: Point(x: 0, y: 440), at: .milliseconds(16))
        tableView.step(to: Point(x: 0, y: 430), at: .milliseconds(32))

        // Then the cancelled rows' prefetches are withdrawn from the fetcher
        #expect(proxy.cancelCount == 1)
        #expect(proxy.violations.isEmpty)
        #expect(fetcher.withScheduler { $0.interestCount(in: 330) } == 0)
        #expect(feed.prefetchedIdentifiers == Set((0..<9).map { $0 * 10 }))  // row 9 is visible
    }

    @Test func deletingAPrefetchedItemWithdrawsItsPrefetch() async {
        // Given a feed in a table after its first layout: rows 20–29 prefetched,
        // their loads waiting behind the visible rows' (two at a time)
        var random = SeededRandom(seed: 11)
        let (loader, fetcher, feed, proxy, tableView) = showFeed(Array(0..<100), maxConcurrentLoads: 2)
        #expect(fetcher.withScheduler { $0.interestCount(in: 25) } == 1)

        // When item 25 is deleted
        tableView.performBatchUpdates {
            let deleted = feed.removeItems(at: [25])
            proxy.itemsDeleted([25])
            tableView.deleteRows(at: deleted)
        }

        // Then its prefetch is withdrawn although the view cancelled nothing,
        // the others stayed prefetched under their new index paths, and the
        // window took in item 30
        #expect(fetcher.withScheduler { $0.interestCount(in: 25) } == 0)
        #expect(proxy.cancelCount == 0)
        #expect(feed.prefetchedIdentifiers == Set(20..<31).subtracting([25]))
        #expect(Set(tableView.outstandingPrefetches.map { feed.models[$0.row] }) == feed.prefetchedIdentifiers)
        #expect(proxy.violations.isEmpty)

        // And its load never runs
        #expect(await Fixtures.drain(loader, fetcher, tableView, feed, using: &random))
        #expect(!loader.started.contains(25))
    }

    @Test func reloadingWithNewModelsWithdrawsEveryPrefetch() {
        // Given a feed in a table after its first layout: items 20–29 prefetched
        let loader = LoadGate<Int, FeedPayload>()
        let fetcher = Fixtures.makeFetcher(loader, maxConcurrentLoads: 1)
        let feed = Feed(models: Array(0..<100), fetcher: fetcher)
        let tableView = TableView()
        feed.register(in: tableView)
        tableView.dataSource = feed
        tableView.prefetchDataSource = feed
        tableView.layoutIfNeeded()
        fetcher.fetchAsync(1_025)  // someone else's prefetch of an item the new models hold at row 25

        // When the models are replaced and the table reloads
        feed.replaceModels(with: Array(1_000..<1_100))
        tableView.reloadData()

        // Then the old items' prefetches are withdrawn, and the reload's cancels,
        // which name the old rows, touch nothing of the new items
        #expect((20..<30).allSatisfy { id in fetcher.withScheduler { $0.interestCount(in: id) } == 0 })
        #expect(fetcher.withScheduler { $0.interestCount(in: 1_025) } == 1)
        #expect(feed.prefetchedIdentifiers.isEmpty)

        // And the next layout prefetches the new items
        tableView.layoutIfNeeded()
        #expect(feed.prefetchedIdentifiers == Set(1_020..<1_030))
    }

    @Test func cancellingAllRequestsWithdrawsThePrefetchesAndTheCellsRequests() {
        // Given a feed in a table after its first layout: the visible rows waiting
        // for their loads, rows 20–29 prefetched, and someone else waiting for item 25
        let (_, fetcher, feed, proxy, tableView) = showFeed(Array(0..<100), maxConcurrentLoads: 2)
        let other = fetcher.fetchAsync(25) { _ in }  // someone else's display request
        let visibleRows = tableView.indexPathsForVisibleRows.map(\.item)
        #expect(!visibleRows.isEmpty)
        #expect(visibleRows.allSatisfy { key in fetcher.withScheduler { $0.interestCount(in: key) } == 1 })
        #expect(feed.prefetchedIdentifiers == Set(20..<30))

        // When the screen goes away and the feed withdraws everything it asked for
        tableView.prefetchDataSource = nil
        feed.cancelAllRequests()

        // Then nothing it asked for is wanted any more; the other request stands
        let wanted = (0..<100).filter { key in fetcher.withScheduler { $0.interestCount(in: key) } > 0 }
        #expect(wanted == [25])
        #expect(feed.prefetchedIdentifiers.isEmpty)

        #expect(proxy.cells.values.allSatisfy { $0.mismatches.isEmpty })
        other.cancel()
    }

    // MARK: - Randomized

    @Test(arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
    func reusedCellsNeverShowAnotherItemsData(seed: UInt64) async {
        await runFeed(seed: seed, frames: 10_000, batchEvery: nil)
    }

    @Test(arguments: [0x5EED_0101] as [UInt64])
    func batchUpdatesWhileScrollingNeverDeliverDataToTheWrongItem(seed: UInt64) async {
        await runFeed(seed: seed, frames: 10_000, batchEvery: 40)
    }

    /// Scrolls a table over a feed at random (drags, flings, reversals,
    /// jumps), resolving loads in random order, optionally with random inserts,
    /// deletes and moves around the visible rows, and checks after every frame
    /// that the view, the proxy and the feed agree on what is prefetched, by
    /// identity; at the end, that no cell was ever given another item's data
    /// and every visible cell shows its own.
    func runFeed(seed: UInt64, frames: Int, batchEvery: Int?) async {
        // Given a 1,500-item feed over a loader the test resolves out of order
        var random = SeededRandom(seed: seed)
        let (loader, fetcher, feed, proxy, tableView) = showFeed(Array(0..<1_500))
        var scroller = RandomScroller(maxOffset: tableView.contentSize.height - tableView.bounds.height)
        var nextID = 1_000_000
        var failures: [String] = []
        var batches = 0

        // When it scrolls for `frames` frames
        for frame in 0..<frames {
            let sample = scroller.next(using: &random)
            tableView.step(to: sample.offset, at: sample.time)
            if let batchEvery, frame % batchEvery == batchEvery - 1 {
                batches += 1
                failures += applyRandomBatch(to: tableView, proxy, nextID: &nextID, using: &random)
                scroller.maxOffset = max(0, tableView.contentSize.height - tableView.bounds.height)
            }

            for path in tableView.indexPathsForVisibleRows
            where tableView.cellForRow(at: path)?.representedIdentifier != AnyHashable(feed.models[path.row]) {
                failures.append("frame \(frame): the cell at \(path) does not represent item \(feed.models[path.row])")
            }
            let planned = Set(tableView.outstandingPrefetches.map { feed.models[$0.row] })
            if planned != proxy.outstanding || planned != feed.prefetchedIdentifiers {
                failures.append(
                    "frame \(frame): the view plans \(planned.sorted()), the proxy saw \(proxy.outstanding.sorted()), "
                        + "the feed holds \(feed.prefetchedIdentifiers.sorted())")
            }
            if Int.random(in: 0..<10, using: &random) < 7 {
                loader.succeedAtRandom(upTo: Int.random(in: 0...6, using: &random), using: &random) {
                    FeedPayload(id: $0)
                }
            }
            await Task.yield()
        }
        let drained = await Fixtures.drain(loader, fetcher, tableView, feed, using: &random)

        // Then no cell was ever configured with data of an item it did not represent…
        let mismatches = proxy.cells.values.flatMap(\.mismatches)
        #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(5))")
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
        #expect(proxy.violations.isEmpty, "seed \(seed): \(proxy.violations.prefix(5))")
        // …and every visible cell ends up showing its own item
        #expect(drained, "seed \(seed)")
        // with a pool that kept the cells near the visible count, and real traffic
        #expect(proxy.cells.count <= 2 * tableView.visibleCells.count, "seed \(seed)")
        #expect(proxy.prefetchCount > 500 && proxy.cancelCount > 50, "seed \(seed)")
        #expect(loader.started.count > 1_000, "seed \(seed)")
        if batchEvery != nil { #expect(batches >= 200, "seed \(seed)") }
    }

    /// Deletes, inserts or moves a few items around the visible rows, as an
    /// app applying a server's changes would, and checks that the deleted
    /// items' prefetches were withdrawn.
    func applyRandomBatch(
        to tableView: TableView, _ proxy: FeedProxy, nextID: inout Int, using random: inout SeededRandom
    ) -> [String] {
        let feed = proxy.feed
        let visible = tableView.indexPathsForVisibleRows
        let low = max(0, (visible.first?.row ?? 0) - 15)
        let high = min(feed.models.count, (visible.last?.row ?? 0) + 16)
        guard low < high else { return [] }

        if Int.random(in: 0..<4, using: &random) == 0 {
            let source = Int.random(in: low..<high, using: &random)
            let destination = Int.random(in: low..<high, using: &random)
            tableView.performBatchUpdates {
                let move = feed.moveItem(from: source, to: destination)
                tableView.moveRow(at: move.from, to: move.to)
            }
            return []
        }

        let indices = Set(
            (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: low..<high, using: &random) })
        let deletedIDs = indices.map { feed.models[$0] }
        let insertedIDs = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            nextID += 1
            return nextID
        }
        tableView.performBatchUpdates {
            let deleted = feed.removeItems(at: Array(indices))
            proxy.itemsDeleted(deletedIDs)
            let position = Int.random(in: min(low, feed.models.count)...min(high, feed.models.count), using: &random)
            let inserted = feed.insert(insertedIDs, at: position)
            tableView.deleteRows(at: deleted)
            tableView.insertRows(at: inserted)
        }
        return deletedIDs.compactMap { id in
            let left = feed.fetcher.withScheduler { $0.withdrawPrefetchInterests(in: id) }
            return left == 0 ? nil : "item \(id) was deleted but \(left) prefetches of it were left running"
        }
    }
}
