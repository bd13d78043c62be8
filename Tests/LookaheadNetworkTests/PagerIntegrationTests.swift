#if Tools
import Lookahead
import LookaheadHTTP
import LookaheadServer
import Testing

@Suite("Paging over the loopback feed server", .timeLimit(.minutes(1)))
struct PagerIntegrationTests {
    @Test("the pager assembles all ids in order, without duplicates, when scrolled to the end")
    func pagerScrollsToTheEnd() async throws {
        try await withFeedServer(items: 237) { _, loader in
            let pager = Pager(
                configuration: PagingConfiguration(pageSize: 20), load: FeedClient(loader: loader).pageLoader)
            pager.start()
            try await waitUntil(
                "the pager reaches the end (append state \(pager.appendState), \(pager.items.count) items)"
            ) {
                pager.accessed(index: max(pager.itemCount - 1, 0))
                return pager.appendState == .endReached
            }
            let ids = pager.items.map(\.id)
            #expect(ids == Array(1...237))
            #expect(Set(ids).count == ids.count)
            #expect(pager.itemCount == 237)
        }
    }

    @Test("a transient page failure is retried by the pager")
    func pagerRetriesTransientFailures() async throws {
        let faults = FaultInjection(serverErrorFraction: 0.05)
        try await withFeedServer(items: 60, seed: 5, faults: faults) { server, loader in
            let configuration = PagingConfiguration(
                pageSize: 10, initialLoadSize: 10,
                retryPolicy: RetryPolicy(maxAttempts: 10, initialDelay: .milliseconds(1), maxDelay: .milliseconds(2)))
            let pager = Pager(configuration: configuration, load: FeedClient(loader: loader).pageLoader)
            pager.start()
            try await waitUntil("the pager reaches the end (append state \(pager.appendState))") {
                pager.accessed(index: max(pager.itemCount - 1, 0))
                return pager.appendState == .endReached
                    || { if case .failed = pager.appendState { true } else { false } }()
            }
            #expect(pager.items.map(\.id) == Array(1...60))
            #expect(server.statistics.serverErrorsInjected > 0)
        }
    }
}
#endif
