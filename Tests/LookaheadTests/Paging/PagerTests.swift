import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct PagingPagerTests {
    @Test func failedPageIsRetriedOnTheClock() async throws {
        // Given a loader whose first append fails transiently, and a manual clock
        let server = FakePageServer(count: 100)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let clock = ManualClock()
        let pager = Pager<Row>(configuration: PagingConfiguration(pageSize: 10), clock: clock) { request in
            try await gate.load(request)
        }
        let initial = PageRequest.offset(0, limit: 30, direction: .initial)
        pager.start()
        await gate.waitForStarts(1)
        gate.succeed(initial, with: server.page(for: initial))
        try await waitUntil { pager.items.count == 30 }

        // When the user nears the end and the append fails
        pager.accessed(index: 25)
        await gate.waitForStarts(2)
        let append = PageRequest.offset(30, limit: 10)
        gate.fail(append, with: FlakyError())
        // Then it is retried once the backoff has passed on the clock
        await clock.waitForSleepers(count: 1)
        #expect(pager.appendState == .loading)
        clock.advance(by: .milliseconds(200))
        await gate.waitForStarts(3)
        gate.succeed(append, with: server.page(for: append))
        try await waitUntil { pager.items.count == 40 }
        #expect(pager.items.map(\.id) == Array(0..<40))
        #expect(pager.appendState == .idle)
    }

    @Test func aCancelledAttemptEndingAfterItsRequestWasAskedAgainDoesNotEndTheNewOne() async throws {
        // Given a pager holding at most 20 items, on a loader whose first attempt at items 50..<60 ignores its
        // cancellation and waits until told to end
        let server = FakePageServer(count: 100, reportsTotalCount: true)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let firstAttempt = LoadGate<Int, Page<Row>>()
        let stale = PageRequest.offset(50, limit: 10)
        let attemptsAtStale = LockedValue(0)
        let configuration = PagingConfiguration(pageSize: 10, initialLoadSize: 10, prefetchDistance: 5, maxSize: 20)
        let pager = Pager<Row>(configuration: configuration, clock: ManualClock()) { request in
            let isFirstAtStale =
                request == stale
                && attemptsAtStale.withLock { count in
                    count += 1
                    return count == 1
                }
            // Under a task of its own, which no cancellation of the pager's reaches.
            if isFirstAtStale { return try await Task { try await firstAttempt.load(1) }.value }
            return try await gate.load(request)
        }
        var started = 0
        func land(_ request: PageRequest) async throws {
            started += 1
            await gate.waitForStarts(started)
            gate.succeed(request, with: server.page(for: request))
            try await waitUntil { !pager.hasTask(for: request) }
        }
        pager.start()
        try await land(.offset(0, limit: 10, direction: .initial))
        for end in stride(from: 10, through: 40, by: 10) {
            pager.accessed(index: end - 1)
            try await land(.offset(end, limit: 10))
        }
        #expect(pager.snapshot.items.map(\.id) == Array(10..<50))
        // The page at 50 asked for; the user jumps back, a page lands in front, and the pager drops the far end,
        // cancelling that load
        pager.accessed(index: 49)
        await firstAttempt.waitForStarts(1)
        pager.accessed(index: 12)
        try await land(.offset(0, limit: 10, direction: .prepend))
        #expect(pager.snapshot.items.map(\.id) == Array(0..<40))
        #expect(!pager.hasTask(for: stale))

        // When the user comes back down, the same page is asked for again, and only then the cancelled attempt ends
        pager.accessed(index: 39)
        try await land(.offset(40, limit: 10))
        #expect(pager.snapshot.items.map(\.id) == Array(10..<50))
        pager.accessed(index: 49)
        await gate.waitForStarts(started + 1)
        #expect(pager.hasTask(for: stale))
        firstAttempt.fail(1, with: CancellationError())
        try await waitUntil { pager.staleEndingsDropped == 1 || pager.appendState != .loading }

        // Then its end is dropped: the new attempt is the one the pager waits for, and its page lands
        #expect(pager.staleEndingsDropped == 1)
        #expect(pager.appendState == .loading)
        gate.succeed(stale, with: server.page(for: stale))
        try await waitUntil { pager.items.last?.id == 59 }
        #expect(pager.appendState == .idle)
    }

    /// Yields until `condition` holds; the loads complete on other tasks.
    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<100_000 where !condition() {
            await Task.yield()
        }
        #expect(condition())
    }
}
