import Lookahead
import Testing

@testable import LookaheadSimulation

/// Records what a ``StrategyDriver`` asks of its loader.
struct RecordingLoader: StrategyLoader {
    enum Call: Hashable {
        case prefetch(Int)
        case cancelPrefetch(Int)
        case consumePrefetch(Int)
        case startPrefetching(Int)
        case stopPrefetching(Int)
        case display(Int, FetchPriority)
        case rankDisplay(Int, FetchPriority)
        case withdrawDisplay(Int)
        case loadPage(Int)
        case cancelPage(Int)
        case retryPage(PageRequest, at: Duration)
    }

    var calls: [Call] = []
    /// The deadlines prefetches were given, in order (kept apart from `calls`).
    var dates: [(key: Int, deadline: Duration)] = []
    var loadQueue = LoadQueueState(pending: 0, maxConcurrentLoads: 6)
    /// Whether the strategy prefetches through a `Prefetcher` (`nuke`).
    var viaPrefetcher = false

    mutating func prefetch(_ key: Int) { calls.append(.prefetch(key)) }
    mutating func perform(_ actions: CoordinatorCore<Int>.Actions, at time: Duration) {
        if viaPrefetcher {
            for key in actions.withdraw { calls.append(.stopPrefetching(key)) }
            for key in actions.prefetch { calls.append(.startPrefetching(key)) }
        } else {
            for key in actions.consume { calls.append(.consumePrefetch(key)) }
            for key in actions.withdraw { calls.append(.cancelPrefetch(key)) }
            for key in actions.prefetch { calls.append(.prefetch(key)) }
            dates.append(contentsOf: actions.date.map { ($0.path, $0.deadline) })
        }
        for (id, priority) in actions.rank { calls.append(.rankDisplay(id.rawValue, priority)) }
    }
    mutating func startPrefetching(_ item: Int) { calls.append(.startPrefetching(item)) }
    mutating func stopPrefetching(_ item: Int) { calls.append(.stopPrefetching(item)) }
    mutating func requestForDisplay(_ item: Int, priority: FetchPriority) { calls.append(.display(item, priority)) }
    mutating func withdrawDisplayRequest(_ item: Int) { calls.append(.withdrawDisplay(item)) }
    mutating func loadPage(_ key: Int) { calls.append(.loadPage(key)) }
    mutating func cancelPage(_ key: Int) { calls.append(.cancelPage(key)) }
    mutating func schedulePageRetry(_ request: PageRequest, at time: Duration) {
        calls.append(.retryPage(request, at: time))
    }
    func isCached(_ item: Int) -> Bool { false }
    func arrival(ofKey key: Int) -> Duration? { nil }
}

@Suite(.timeLimit(.minutes(1)))
struct StrategyDriverTests {
    /// 300 rows of 100 pt through an 844 pt viewport, scrolled at `speed` pt/s for 10 s.
    func scenario(failureRate: Double = 0, concurrency: Int = 6, speed: Double = 1_000) -> SimulationScenario {
        let trace = ScrollTrace(
            samples: (0...600).map { .init(time: .seconds(1) / 60.0 * $0, offset: speed * Double($0) / 60) })
        return SimulationScenario(
            name: "test", layout: .list(rowHeights: Array(repeating: 100, count: 300)),
            viewport: Size(width: 390, height: 844),
            network: NetworkModel(
                seed: 7, latency: .perItem(Array(repeating: .milliseconds(200), count: 300)),
                payload: .fixed(bytes: 2_000), failureRate: failureRate),
            maxConcurrentLoads: concurrency, trace: trace)
    }

    func driver(_ strategy: SimulationStrategy) -> StrategyDriver<RecordingLoader> {
        StrategyDriver(scenario: scenario(), strategy: strategy) { _ in
            RecordingLoader(viaPrefetcher: strategy.prefetchesThroughPrefetcher)
        }
    }

    @Test func pagesLoadOutsideTheFetcherAndRetryWhenThePagingMachineSaysSo() throws {
        // Given the pager's first page asked for
        var driver = driver(.pagedFixed)
        driver.begin()
        #expect(driver.loader.calls == [.loadPage(0)])
        // When it fails at 300 ms
        driver.pageFailed(key: 0, isTransient: true, at: .milliseconds(300))
        // Then the retry is the machine's, after the paging configuration's delay
        let delay = try #require(SimulationStrategy.pagingConfiguration.retryPolicy.delay(afterFailures: 1))
        guard case .retryPage(let request, let time) = driver.loader.calls.last else {
            Issue.record("no retry after a failed page: \(driver.loader.calls)")
            return
        }
        #expect(time == .milliseconds(300) + delay)
        // And when the retry is due, the page loads again, as a page
        driver.pageRetryDue(request, at: time)
        #expect(driver.loader.calls.last == .loadPage(0))
        #expect(!driver.loader.calls.contains { if case .prefetch = $0 { true } else { false } })
    }

    @Test func aPermanentPageFailureIsNotRetried() {
        var driver = driver(.paged)
        driver.begin()
        driver.pageFailed(key: 0, isTransient: false, at: .milliseconds(300))
        #expect(driver.loader.calls == [.loadPage(0)])
    }

    @Test func theSwiftUIRowsTellTheCoordinatorWhereTheListIs() {
        // Given the swiftui strategy's first frame: rows 0...8 appear
        var driver = driver(.swiftui)
        driver.begin()
        driver.showFrame(0, at: .zero)
        // Then the rows ask for their data through the coordinator, and its
        // first frame prefetches the rows below them, nearest first
        #expect(driver.loader.calls.contains { if case .display(_, .high) = $0 { true } else { false } })
        let prefetched = driver.loader.calls.compactMap { if case .prefetch(let item) = $0 { item } else { nil } }
        #expect(prefetched.first == 9)
        #expect(!prefetched.isEmpty && prefetched.allSatisfy { $0 >= 9 })
    }

    @Test func thePagersFirstRequestIsTheFirstScreenAndTheRestFollowsWhenItLands() {
        // Given a list of 100 pt rows under an 844 pt screen: rows 0...8 on the first frame
        var driver = driver(.paged)
        // When the app starts
        driver.begin()
        // Then the pager asks for those 9 rows alone, and its load key covers them
        #expect(driver.loader.calls == [.loadPage(0)])
        #expect(driver.pageRequests[0]?.limit == 9)
        #expect(driver.metrics.keys.items(ofKey: 0) == 0..<9)
        // And when they land, for the rest of the first page and the next (rows 9...29), in one request
        driver.pageLoaded(key: 0, at: .milliseconds(200))
        #expect(driver.loader.calls == [.loadPage(0), .loadPage(9)])
        #expect(driver.pageRequests[9]?.limit == 21)
        #expect(driver.metrics.keys.items(ofKey: 9) == 9..<30)
        #expect(driver.metrics.keys.key(ofItem: 29) == 9 && driver.metrics.keys.key(ofItem: 30) == 30)
    }

    @Test func theSimulatorsPageLoadsDoNotTakeTheFetchersSlots() {
        // Given a scheduler allowing one load, busy with an item
        var loader = SimulatedLoader(
            scenario: scenario(concurrency: 1), strategy: .paged, keys: LoadKeys(strategy: .paged, itemCount: 300))
        loader.requestForDisplay(100, priority: .high)
        loader.drain(at: .zero)
        #expect(loader.scheduler.runningCount == 1)
        // When the pager asks for a page
        loader.loadPage(0)
        loader.drain(at: .zero)
        // Then it starts at once, as the runtime Pager's task does, and takes no slot
        #expect(loader.pageLoads.count == 1)
        #expect(loader.transfers.isInFlight(loader.pageTransfers[0]!))
        #expect(loader.scheduler.runningCount == 1)
        #expect(loader.loadQueue.pending == 0)
        #expect(loader.counts.requests == 2)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSimulatedPagedRunRetriesFailedPagesAndStillReachesTheEnd(seed: UInt64) {
        // Given a network that fails a third of the attempts
        var scenario = scenario(failureRate: 0.3)
        scenario.network.seed = seed
        // When pages are loaded ahead of a steady scroll
        let result = Simulator(scenario: scenario).run(.pagedFixed)
        // Then failed attempts are retried (more requests than pages), and the
        // list is shown (most cell-frames have content)
        #expect(result.requests > result.completedLoads, "seed \(seed)")
        #expect(result.blankRatio < 0.5, "seed \(seed): \(result.blankRatio)")
    }

    @Test func aVisibleCellsRequestFollowsThePolicyDownAsWellAsUp() {
        // Given the first screen shown at rest for half a second, then flung away at 8,000 pt/s
        let frame = Duration.seconds(1) / 60
        let rest = (0..<30).map { ScrollTrace.Sample(time: frame * $0, offset: 0) }
        let fling = ScrollTraceGenerator.flingSamples(v0: 8_000).dropFirst().enumerated().map {
            ScrollTrace.Sample(time: frame * (30 + $0.offset), offset: $0.element.offset)
        }
        var scenario = scenario()
        scenario.trace = ScrollTrace(samples: rest + fling)
        var driver = StrategyDriver(scenario: scenario, strategy: .adaptive) { _ in RecordingLoader() }
        driver.begin()
        for index in 0..<driver.frameCount { driver.showFrame(index, at: driver.time(ofFrame: index)) }

        // Then the cells asked at `.high` at rest, and those the fling carries away were
        // lowered to `.low` while still on screen, as `PrefetchCoordinator`'s display requests are
        let requests = driver.loader.calls.compactMap { call -> (item: Int, priority: FetchPriority)? in
            switch call {
            case .display(let item, let priority), .rankDisplay(let item, let priority): (item, priority)
            default: nil
            }
        }
        let firstScreen = requests.prefix { $0.priority == .high }.map(\.item)
        #expect(Set(0...8).isSubset(of: firstScreen))
        let lowered = requests.filter { firstScreen.contains($0.item) && $0.priority == .low }
        #expect(!lowered.isEmpty)
    }

    @Test func theSwiftUIStrategyPrefetchesAheadOfASteadyScroll() {
        // Three rows a second: slow enough for a Prefetcher's two loads at a time.
        let simulator = Simulator(scenario: scenario(speed: 300))
        let swiftui = simulator.run(.swiftui)
        let none = simulator.run(.none)
        #expect(swiftui.visibleCellFrames == none.visibleCellFrames)
        #expect(swiftui.blankCellFrames < none.blankCellFrames)
    }
}
