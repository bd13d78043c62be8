@testable import Lookahead

/// A clock that only moves when a test advances it.
///
/// Sleepers suspend until `advance(by:)` moves `now` past their deadline;
/// `waitForSleepers(count:)` lets a test wait, without real sleeping, until
/// the code under test has started to sleep.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
        var cancelled: Set<Int> = []
        var sleeperWaiters = CountWaiters()
        var totalSleeps = 0
    }

    private let state = LockedValue(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// The durations slept so far, in the order they were asked for.
    var sleepCount: Int { state.withLock { $0.totalSleeps } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) =
                    state.withLock { state in
                        if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                        if deadline <= state.now { return (.success(()), []) }
                        state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                        state.totalSleeps += 1
                        return (nil, state.sleeperWaiters.takeDue(tally: state.sleepers.count))
                    }
                if let resumeNow { continuation.resume(with: resumeNow) }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The sleepers waiting now.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleepers are waiting.
    func waitForSleepers(count: Int) async {
        await state.wait(until: count, of: \.sleepers.count, waiters: \.sleeperWaiters)
    }
}
