import Testing

@testable import Lookahead

/// What a loader made with a context learns: whether a load is a prefetch,
/// its priority and the changes to it while it runs, the attempt number.
@Suite(.timeLimit(.minutes(1)))
struct LoadContextTests {
    /// The contexts the loader saw, by start, and the priorities it heard.
    final class Seen: @unchecked Sendable {
        private let state = LockedValue<(contexts: [LoadContext], heard: [FetchPriority])>(([], []))
        var contexts: [LoadContext] { state.withLock { $0.contexts } }
        var heard: [FetchPriority] { state.withLock { $0.heard } }
        func record(_ context: LoadContext) {
            state.withLock { $0.contexts.append(context) }
            context.onPriorityChange { priority in self.state.withLock { $0.heard.append(priority) } }
        }
    }

    func makeFetcher(
        _ gate: LoadGate<Int, String>, seen: Seen, clock: ManualClock = ManualClock(),
        retryPolicy: RetryPolicy = .never
    ) -> AsyncFetcher<Int, String> {
        AsyncFetcher(clock: clock, retryPolicy: retryPolicy) { key, context in
            seen.record(context)
            return try await gate.load(key)
        }
    }

    @Test func aPrefetchIsToldItIsOne() async {
        // Given a key asked for by a prefetch alone
        let gate = LoadGate<Int, String>()
        let seen = Seen()
        let fetcher = makeFetcher(gate, seen: seen)
        fetcher.fetchAsync(1, priority: .low)
        await gate.waitForStarts(1)

        // Then its loader learns it is a prefetch, at the prefetch's priority, a first attempt
        let context = seen.contexts[0]
        #expect(context.isPrefetch)
        #expect(context.priority == .low)
        #expect(context.attempt == 1)
        #expect(!context.isHedge)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
    }

    @Test func aDisplayRequestOrAnAwaitingCallerIsNotAPrefetch() async throws {
        // Given a display request for key 1 and a caller awaiting key 2
        let gate = LoadGate<Int, String>()
        let seen = Seen()
        let fetcher = makeFetcher(gate, seen: seen)
        fetcher.fetchAsync(1, priority: .high) { _ in }
        async let two = fetcher.value(for: 2)
        await gate.waitForStarts(2)

        // Then neither load is a prefetch, and each runs at its request's priority
        let byKey = Dictionary(uniqueKeysWithValues: zip(gate.started, seen.contexts))
        #expect(byKey[1]?.isPrefetch == false)
        #expect(byKey[1]?.priority == .high)
        #expect(byKey[2]?.isPrefetch == false)
        gate.succeed(1, with: "one")
        gate.succeed(2, with: "two")
        #expect(try await two == "two")
        await fetcher.waitUntilIdle()
    }

    @Test func theLoaderHearsThePriorityMoveWhileItRuns() async {
        // Given a prefetch at .low whose load runs
        let gate = LoadGate<Int, String>()
        let seen = Seen()
        let fetcher = makeFetcher(gate, seen: seen)
        fetcher.fetchAsync(7, priority: .low)
        await gate.waitForStarts(1)

        // When a cell asks for it at .high, then lowers its request (a fling carries it away), then leaves
        let request = fetcher.fetchAsync(7, priority: .high) { _ in }
        #expect(seen.contexts[0].priority == .high)
        request.priority = .normal
        request.cancel()

        // Then the loader heard every move, in order, and the context reads the last
        #expect(seen.heard == [.high, .normal, .low])
        #expect(seen.contexts[0].priority == .low)

        // And once the attempt ended it hears nothing more
        gate.succeed(7, with: "seven")
        await fetcher.waitUntilIdle()
        fetcher.fetchAsync(7, priority: .veryHigh)
        #expect(seen.heard == [.high, .normal, .low])
    }

    @Test func aRetryIsTheSecondAttempt() async {
        // Given a load whose first attempt fails with a transient error
        let gate = LoadGate<Int, String>()
        let seen = Seen()
        let clock = ManualClock()
        let fetcher = makeFetcher(
            gate, seen: seen, clock: clock,
            retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(100), multiplier: 2))
        fetcher.fetchAsync(5) { _ in }
        await gate.waitForStarts(1)
        gate.fail(5, with: FlakyError())
        await clock.waitForSleepers(count: 1)

        // When the retry starts
        clock.advance(by: .milliseconds(100))
        await gate.waitForStarts(2)

        // Then its loader is told it is attempt 2
        #expect(seen.contexts.map(\.attempt) == [1, 2])
        gate.succeed(5, with: "five")
        await fetcher.waitUntilIdle()
    }

    @Test func theKeyOnlyLoaderIsUnchanged() async throws {
        // Given a fetcher whose loader takes the key alone
        let fetcher = AsyncFetcher<Int, String> { key in "\(key)" }

        // Then it loads as before
        #expect(try await fetcher.value(for: 3) == "3")
    }
}
