import Testing

@testable import Lookahead

/// A ``TransientError`` says per value whether it is worth a retry, and how
/// long the server asked to wait.
@Suite(.timeLimit(.minutes(1)))
struct TransientErrorTests {
    struct HTTPStatus: TransientError, Equatable {
        let code: Int
        var retryAfter: Duration?
        var isTransient: Bool { code >= 500 || code == 429 }
    }

    func makeFetcher(_ gate: LoadGate<Int, String>, clock: ManualClock) -> AsyncFetcher<Int, String> {
        AsyncFetcher(
            clock: clock,
            retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(100), maxDelay: .seconds(5))
        ) { key in try await gate.load(key) }
    }

    @Test func aPermanentValueOfATransientTypeIsNotRetried() async {
        // Given a load that fails with a 404 of an error type whose 5xx are transient
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, clock: ManualClock())
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(1) { deliveries.record($0) }
        await gate.waitForStarts(1)
        gate.fail(1, with: HTTPStatus(code: 404))
        await fetcher.waitUntilIdle()

        // Then it was tried once and the failure delivered
        #expect(gate.started == [1])
        #expect(throws: HTTPStatus(code: 404)) { try deliveries.all[0].get() }
    }

    @Test func aRetryWaitsAsLongAsTheServerAsked() async {
        // Given a 429 asking for 300 ms, where the policy would wait 100 ms
        let gate = LoadGate<Int, String>()
        let clock = ManualClock()
        let fetcher = makeFetcher(gate, clock: clock)
        fetcher.fetchAsync(2) { _ in }
        await gate.waitForStarts(1)
        gate.fail(2, with: HTTPStatus(code: 429, retryAfter: .milliseconds(300)))
        await clock.waitForSleepers(count: 1)

        // When 100 ms pass, the retry still sleeps; at 300 ms it starts
        clock.advance(by: .milliseconds(100))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(200))
        await gate.waitForStarts(2)
        #expect(clock.now.offset == .milliseconds(300))
        gate.succeed(2, with: "two")
        await fetcher.waitUntilIdle()
    }

    @Test func aWaitLongerThanThePolicyEverWaitsIsReportedNotRetried() async {
        // Given a 503 asking for a minute, where the policy waits at most 5 s
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, clock: ManualClock())
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(3) { deliveries.record($0) }
        await gate.waitForStarts(1)
        gate.fail(3, with: HTTPStatus(code: 503, retryAfter: .seconds(60)))
        await fetcher.waitUntilIdle()

        // Then the failure is delivered at once
        #expect(gate.started == [3])
        #expect(deliveries.count == 1)
    }
}
