import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite(.queuedOnTheMainActor)
struct PagedDataSourceTests {
    static let frame = Duration.milliseconds(16)

    /// A table of 44-point rows over a pager whose loads `load` answers.
    func makeTable(
        configuration: PagingConfiguration, clock: ManualClock = ManualClock(),
        load: @escaping Pager<Row>.Loader
    ) -> (TableView, PagedDataSource<Row>) {
        let pager = Pager<Row>(configuration: configuration, clock: clock, load: load)
        let dataSource = PagedDataSource(pager: pager)
        dataSource.appliesChangesAutomatically = false
        let tableView = TableView()
        dataSource.attach(to: tableView)
        return (tableView, dataSource)
    }

    /// Starts the pager and lands its first page (`initialLoadSize` items of
    /// `server`, asked through `gate`), then lays the table out.
    func landFirstPage(
        in tableView: TableView, _ dataSource: PagedDataSource<Row>, from server: FakePageServer,
        through gate: LoadGate<PageRequest, Page<Row>>, initialLoadSize: Int = 60
    ) async {
        dataSource.pager.start()
        await gate.waitForStarts(1)
        let initial = PageRequest.offset(0, limit: initialLoadSize, direction: .initial)
        gate.succeed(initial, with: server.page(for: initial))
        await dataSource.settle()
        tableView.layoutIfNeeded()
    }

    // MARK: Placeholders

    @Test func scrollingToTheEndThroughPlaceholdersShowsEveryItemOnceInOrder() async {
        // Given 200 rows with a total count, pages of 20, loaded at once
        let loader = RecordingPageLoader(server: FakePageServer(count: 200, reportsTotalCount: true))
        let (tableView, dataSource) = makeTable(configuration: PagingConfiguration(pageSize: 20)) {
            try await loader.load($0)
        }
        dataSource.pager.start()
        await dataSource.settle("after the first load")
        tableView.layoutIfNeeded()
        #expect(tableView.numberOfRows(inSection: 0) == 200)

        // When the table scrolls to its end, 200 points a frame
        var shown: [Int: Int] = [:]
        func recordShown() {
            for (row, cell) in tableView.visibleRowCells {
                if let item = (cell as? PagedCell<Row>)?.item { shown[row] = item.id }
            }
        }
        recordShown()
        var time = Duration.zero
        var offset = 0.0
        while offset < tableView.contentSize.height - tableView.bounds.size.height {
            offset += 200
            time += Self.frame
            tableView.step(to: Point(x: 0, y: offset), at: time)
            await dataSource.settle("at offset \(offset)")
            checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "offset \(offset)")
            recordShown()
        }

        // Then every row showed its own item, the list holds each item once, in order
        #expect(tableView.numberOfRows(inSection: 0) == 200)
        #expect(shown.count == 200, "never shown as items: \(Set(0..<200).subtracting(shown.keys).sorted())")
        #expect(shown.allSatisfy { $0.key == $0.value })
        #expect(dataSource.displayed.items.map(\.id) == Array(0..<200))
        #expect(dataSource.displayed.appendState == .endReached)
        // And each page was asked for once
        let offsets = loader.requests.map { request -> Int in
            guard case .offset(let offset) = request.key else { return -1 }
            return offset
        }
        #expect(offsets == [0] + Array(stride(from: 60, to: 200, by: 20)))
        #expect(loader.duplicatesInFlight.isEmpty)
    }

    @Test func placeholdersBecomeTheirItemsWhenThePageLands() async throws {
        // Given 200 rows with a total count, the first 60 loaded, loads held at a gate
        let server = FakePageServer(count: 200, reportsTotalCount: true)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let (tableView, dataSource) = makeTable(configuration: PagingConfiguration(pageSize: 20)) {
            try await gate.load($0)
        }
        await landFirstPage(in: tableView, dataSource, from: server, through: gate)

        // When the table shows rows 60–79, not loaded yet
        tableView.step(to: Point(x: 0, y: 60 * 44), at: Self.frame)
        let cellsBefore = tableView.visibleRowCells

        // Then they are placeholders, and their page is asked for once
        #expect(cellsBefore.map(\.row) == Array(60...79))
        #expect(cellsBefore.allSatisfy { ($0.cell as? PagedCell<Row>)?.isPlaceholder == true })
        await gate.waitForStarts(2)
        let append = PageRequest.offset(60, limit: 20)
        #expect(gate.waiting == [append])

        // When the page lands
        gate.succeed(append, with: server.page(for: append))
        await waitUntil("the page did not land") { dataSource.pager.items.count == 80 }
        let offsetBefore = tableView.contentOffset
        dataSource.applyChanges()

        // Then the same rows show their items, and the table did not move
        #expect(tableView.contentOffset == offsetBefore)
        #expect(tableView.visibleRowCells.map(\.row) == Array(60...79))
        checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "after the page landed")
        #expect(tableView.visibleRowCells.allSatisfy { ($0.cell as? PagedCell<Row>)?.item?.id == $0.row })

        // When the table scrolls back to the top and down again, reusing its cells
        for (frame, row) in [0, 10, 40, 65, 30].enumerated() {
            tableView.step(to: Point(x: 0, y: Double(row) * 44), at: Self.frame * (frame + 2))
            checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "top row \(row)")
        }

        // Then no reused cell ever showed another row's item
        #expect(tableView.visibleRowCells.contains { $0.cell.reuseCount > 0 })
        for key in gate.waiting { gate.succeed(key, with: server.page(for: key)) }
    }

    // MARK: Without a total count

    @Test func withoutATotalCountRowsAreAppendedAndTheContentGrows() async {
        // Given 120 rows without a total count, pages of 20
        let loader = RecordingPageLoader(server: FakePageServer(count: 120))
        let configuration = PagingConfiguration(pageSize: 20, initialLoadSize: 40, prefetchDistance: 5)
        let (tableView, dataSource) = makeTable(configuration: configuration) { try await loader.load($0) }
        dataSource.pager.start()
        await dataSource.settle()
        tableView.layoutIfNeeded()
        #expect(tableView.numberOfRows(inSection: 0) == 40)

        // When the table scrolls to its bottom, again and again
        var heights = [tableView.contentSize.height]
        var time = Duration.zero
        for attempt in 0..<10 {
            time += Self.frame
            tableView.step(to: Point(x: 0, y: tableView.contentSize.height), at: time)
            await waitUntil("attempt \(attempt)") { dataSource.pager.isSettled }
            let offset = tableView.contentOffset
            let cells = tableView.visibleRowCells
            let configurations = cells.map { ($0.cell as? PagedCell<Row>)?.configurationCount ?? -1 }
            dataSource.applyChanges()

            // Then rows are added at the end without moving or reconfiguring the visible ones
            #expect(tableView.contentOffset == offset, "attempt \(attempt)")
            #expect(tableView.visibleRowCells.map(\.row) == cells.map(\.row), "attempt \(attempt)")
            #expect(
                tableView.visibleRowCells.map { ($0.cell as? PagedCell<Row>)?.configurationCount ?? -1 }
                    == configurations, "attempt \(attempt)")
            checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "attempt \(attempt)")
            heights.append(tableView.contentSize.height)
        }

        // And the content grew a page at a time up to the whole list, never shrinking
        #expect(tableView.numberOfRows(inSection: 0) == 120)
        #expect(abs(tableView.contentSize.height - 120 * 44) < 0.5, "\(tableView.contentSize)")
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 <= $1 }, "\(heights)")
        #expect(Set(heights).count >= 3, "\(heights)")
        #expect(dataSource.displayed.items.map(\.id) == Array(0..<120))
        #expect(loader.duplicatesInFlight.isEmpty)
        #expect(Set(loader.requests).count == loader.requests.count)
    }

    // MARK: Errors

    @Test func aFailedPageShowsOnItsPlaceholdersWithARetryThatWorks() async {
        // Given 200 rows with a total count, the first 60 loaded, loads held at a gate
        let server = FakePageServer(count: 200, reportsTotalCount: true)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let (tableView, dataSource) = makeTable(configuration: PagingConfiguration(pageSize: 20)) {
            try await gate.load($0)
        }
        await landFirstPage(in: tableView, dataSource, from: server, through: gate)

        // When the table shows rows 60–79 and their page fails for good
        tableView.step(to: Point(x: 0, y: 60 * 44), at: Self.frame)
        await gate.waitForStarts(2)
        let append = PageRequest.offset(60, limit: 20)
        gate.fail(append, with: TestError(message: "HTTP 500"))
        await dataSource.settle()

        // Then the placeholders show the failure
        #expect(dataSource.displayed.appendState == .failed("TestError(message: \"HTTP 500\")"))
        let cells = tableView.visibleRowCells.compactMap { $0.cell as? PagedCell<Row> }
        #expect(cells.count == 20)
        #expect(cells.allSatisfy { $0.failure == "TestError(message: \"HTTP 500\")" })

        // When the user taps retry on one of them
        cells[3].retry()
        await gate.waitForStarts(3)
        #expect(gate.waiting == [append])
        gate.succeed(append, with: server.page(for: append))
        await waitUntil("the retried page did not land") { dataSource.pager.items.count >= 80 }
        dataSource.applyChanges()

        // Then the rows show their items
        #expect(tableView.visibleRowCells.allSatisfy { ($0.cell as? PagedCell<Row>)?.item?.id == $0.row })
        for key in gate.waiting { gate.succeed(key, with: server.page(for: key)) }
    }

    @Test func withoutATotalCountAFailureIsAFooterRowWithARetry() async {
        // Given 100 rows without a total count, the first 20 loaded, loads held at a gate
        let server = FakePageServer(count: 100)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let configuration = PagingConfiguration(pageSize: 20, initialLoadSize: 20, prefetchDistance: 5)
        let (tableView, dataSource) = makeTable(configuration: configuration) { try await gate.load($0) }
        await landFirstPage(in: tableView, dataSource, from: server, through: gate, initialLoadSize: 20)

        // When the table reaches its bottom and the next page fails
        tableView.step(to: Point(x: 0, y: 20 * 44), at: Self.frame)
        await gate.waitForStarts(2)
        let append = PageRequest.offset(20, limit: 20)
        gate.fail(append, with: TestError(message: "offline"))
        await dataSource.settle()
        tableView.step(to: Point(x: 0, y: 21 * 44), at: Self.frame * 2)

        // Then one footer row shows the failure below the items
        #expect(tableView.numberOfRows(inSection: 0) == 21)
        let footer = tableView.cellForRow(at: ItemPath(row: 20, section: 0)) as? PagedCell<Row>
        #expect(footer?.failure == "TestError(message: \"offline\")")

        // When the user retries from the footer and the page loads
        footer?.retry()
        await gate.waitForStarts(3)
        gate.succeed(append, with: server.page(for: append))
        await waitUntil("the retried page did not land") { dataSource.pager.items.count == 40 }
        dataSource.applyChanges()

        // Then the footer row became the page's first item, and the next page follows
        #expect(tableView.numberOfRows(inSection: 0) == 40)
        #expect(dataSource.displayed.footerFailure == nil)
        checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "after the retry")
        for key in gate.waiting { gate.succeed(key, with: server.page(for: key)) }
    }

    @Test func aTransientFailureIsRetriedOnTheClock() async {
        // Given a table whose second page fails once with a transient error
        let server = FakePageServer(count: 100, reportsTotalCount: true)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let clock = ManualClock()
        let (tableView, dataSource) = makeTable(configuration: PagingConfiguration(pageSize: 20), clock: clock) {
            try await gate.load($0)
        }
        await landFirstPage(in: tableView, dataSource, from: server, through: gate)
        tableView.step(to: Point(x: 0, y: 60 * 44), at: Self.frame)
        await gate.waitForStarts(2)
        let append = PageRequest.offset(60, limit: 20)
        gate.fail(append, with: FlakyError())

        // When the backoff passes on the clock
        await clock.waitForSleepers(count: 1)
        #expect(dataSource.pager.appendState == .loading)
        clock.advance(by: .seconds(1))
        await gate.waitForStarts(3)
        gate.succeed(append, with: server.page(for: append))
        await waitUntil("the retried page did not land") { dataSource.pager.items.count >= 80 }
        dataSource.applyChanges()

        // Then the rows show their items without the user doing anything
        #expect(tableView.visibleRowCells.allSatisfy { ($0.cell as? PagedCell<Row>)?.item?.id == $0.row })
        for key in gate.waiting { gate.succeed(key, with: server.page(for: key)) }
    }

    @Test func pagerChangesReachTheViewByThemselves() async {
        // Given a table over a pager whose loads answer at once, updated automatically
        let loader = RecordingPageLoader(server: FakePageServer(count: 100))
        let pager = Pager<Row>(configuration: PagingConfiguration(pageSize: 20), clock: ManualClock()) {
            try await loader.load($0)
        }
        let dataSource = PagedDataSource(pager: pager)
        let tableView = TableView()
        dataSource.attach(to: tableView)

        // When the pager starts
        pager.start()

        // Then the first page reaches the table without anyone applying it
        await waitUntil("the first page did not reach the table") { dataSource.displayed.items.count == 60 }
        tableView.layoutIfNeeded()
        #expect(tableView.numberOfRows(inSection: 0) == 60)
        checkVisibleCells(tableView.visibleRowCells, in: dataSource.displayed, "after the first page")
    }

    // MARK: Speed

    @Test func theAdaptiveTriggerGetsTheViewsSpeedAndThePagersLatency() async {
        // Given a table over a pager that has loaded one page
        let loader = RecordingPageLoader(server: FakePageServer(count: 1_000, reportsTotalCount: true))
        let (tableView, dataSource) = makeTable(configuration: PagingConfiguration(pageSize: 20)) {
            try await loader.load($0)
        }
        dataSource.pager.start()
        await dataSource.settle()
        tableView.layoutIfNeeded()
        #expect(dataSource.pager.observedPageLatency == .zero)

        // When it scrolls down at 10 rows a frame
        for frame in 1...40 {
            tableView.step(to: Point(x: 0, y: Double(frame) * 440), at: Self.frame * frame)
            await dataSource.settle()
        }

        // Then the measured speed is about 10 rows per 16 ms
        #expect(abs(dataSource.speed.velocity - 625) < 40, "\(dataSource.speed.velocity)")
    }
}
