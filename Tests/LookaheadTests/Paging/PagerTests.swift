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

    /// Yields until `condition` holds; the loads complete on other tasks.
    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<100_000 where !condition() {
            await Task.yield()
        }
        #expect(condition())
    }
}
