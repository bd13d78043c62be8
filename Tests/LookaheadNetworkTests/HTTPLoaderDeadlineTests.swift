#if Tools
import Foundation
import Lookahead
import Testing

@testable import LookaheadHTTP
@testable import LookaheadServer

/// A clock whose time moves only when a test says so; nothing sleeps on it here.
private struct StepClock: Clock {
    typealias Instant = ContinuousClock.Instant
    typealias Duration = Swift.Duration

    private let origin = ContinuousClock.now
    private let offset = LockedValue(Swift.Duration.zero)

    var now: Instant { origin.advanced(by: offset.withLock { $0 }) }
    var minimumResolution: Swift.Duration { .nanoseconds(1) }

    func advance(by duration: Swift.Duration) { offset.withLock { $0 += duration } }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        // The loader sleeps only inside withDeadline, which these tests do not reach.
        try await Task.sleep(until: .now + .seconds(3_600))
    }
}

/// The one retry after a closed pooled connection shares the request's
/// deadline: a request never takes longer than its timeout.
@Suite(.timeLimit(.minutes(1)))
struct HTTPLoaderDeadlineTests {
    let subject = HTTPLoaderError.Subject(url: "http://127.0.0.1:1/v0/item/1.json")

    fileprivate func loader(clock: StepClock) -> HTTPLoader {
        HTTPLoader(
            baseURL: URL(string: "http://127.0.0.1:1")!, configuration: .init(timeout: .seconds(10)), clock: clock,
            logger: quietLogger)
    }

    @Test func theRetryGetsWhatIsLeftOfTheTimeout() async throws {
        // Given a first attempt that takes 7 s and then finds its connection closed
        let clock = StepClock()
        let loader = loader(clock: clock)
        let budgets = Budgets()

        // When the loader retries
        let data = try await loader.retryingClosedConnection(subject) { remaining in
            budgets.append(remaining)
            if budgets.count == 1 {
                clock.advance(by: .seconds(7))
                throw HTTPLoaderError.connectionClosed(subject: subject)
            }
            return Data([1])
        }

        try await loader.shutdown()

        // Then the retry has 3 s, not a fresh 10 s
        #expect(data == Data([1]))
        #expect(budgets.all == [.seconds(10), .seconds(3)])
    }

    @Test func noRetryWhenTheTimeoutIsSpent() async throws {
        // Given a first attempt that used the whole timeout before the connection closed
        let clock = StepClock()
        let loader = loader(clock: clock)
        let budgets = Budgets()

        // When the loader would retry
        let failure = await error {
            try await loader.retryingClosedConnection(subject) { remaining in
                budgets.append(remaining)
                clock.advance(by: .seconds(10))
                throw HTTPLoaderError.connectionClosed(subject: subject)
            }
        }

        try await loader.shutdown()

        // Then it times out instead, after one attempt
        guard case .timedOut(let after, _)? = failure as? HTTPLoaderError else {
            Issue.record("expected timedOut, got \(String(describing: failure))")
            return
        }
        #expect(after == .seconds(10))
        #expect(budgets.all == [.seconds(10)])
    }
}

/// The budgets the attempts were given, in order.
private final class Budgets: Sendable {
    private let values = LockedValue([Duration]())

    var all: [Duration] { values.withLock { $0 } }
    var count: Int { all.count }

    func append(_ value: Duration) { values.withLock { $0.append(value) } }
}
#endif
