@testable import Lookahead

struct TestError: Error, Equatable {
    let message: String
}

struct FlakyError: TransientError, Equatable {}

/// A loader whose loads finish only when the test says so.
///
/// Every call to `load` suspends until the test calls `succeed`, `fail` or
/// the load's task is cancelled. The gate records which keys were started,
/// cancelled and completed, and the most loads that were ever in flight at
/// once — the figure the concurrency limit is about.
final class LoadGate<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        let id: Int
        let key: Key
        let continuation: CheckedContinuation<Value, any Error>
    }

    private struct State {
        var waiters: [Waiter] = []
        var nextID = 0
        var started: [Key] = []
        var cancelled: [Key] = []
        var inFlight = 0
        var maxInFlight = 0
        var startWaiters = CountWaiters()
        var cancelWaiters = CountWaiters()
        var cancelledBeforeRegistration: Set<Int> = []
    }

    private let state = LockedValue(State())

    /// Keys whose loads were started, in order.
    var started: [Key] { state.withLock { $0.started } }
    /// Keys whose loads saw their task cancelled, in order.
    var cancelled: [Key] { state.withLock { $0.cancelled } }
    /// Loads suspended in the gate now.
    var inFlight: Int { state.withLock { $0.inFlight } }
    /// The most loads that were in the gate at once.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// Keys waiting in the gate, oldest first.
    var waiting: [Key] { state.withLock { $0.waiters.map(\.key) } }

    func load(_ key: Key) async throws -> Value {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let (cancelled, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    state.started.append(key)
                    if state.cancelledBeforeRegistration.remove(id) != nil {
                        state.cancelled.append(key)
                        return (true, state.cancelWaiters.takeDue(tally: state.cancelled.count))
                    }
                    state.waiters.append(Waiter(id: id, key: key, continuation: continuation))
                    state.inFlight += 1
                    state.maxInFlight = max(state.maxInFlight, state.inFlight)
                    return (false, state.startWaiters.takeDue(tally: state.started.count))
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let (waiter, ready) = state.withLock { state -> (Waiter?, [CheckedContinuation<Void, Never>]) in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeRegistration.insert(id)
                    return (nil, [])
                }
                let waiter = state.waiters.remove(at: index)
                state.inFlight -= 1
                state.cancelled.append(waiter.key)
                return (waiter, state.cancelWaiters.takeDue(tally: state.cancelled.count))
            }
            waiter?.continuation.resume(throwing: CancellationError())
            for continuation in ready { continuation.resume() }
        }
    }

    /// Returns once `count` loads in total have started.
    func waitForStarts(_ count: Int) async {
        await state.wait(until: count, of: \.started.count, waiters: \.startWaiters)
    }

    /// Returns once `count` loads in total have been cancelled.
    func waitForCancellations(_ count: Int) async {
        await state.wait(until: count, of: \.cancelled.count, waiters: \.cancelWaiters)
    }

    /// Finishes the oldest waiting load of `key` with `value`.
    func succeed(_ key: Key, with value: Value) {
        resume(key, with: .success(value))
    }

    /// Finishes the oldest waiting load of `key` with `value`, if one is
    /// still waiting (its task may have been cancelled meanwhile); returns
    /// whether one was.
    @discardableResult
    func succeedIfWaiting(_ key: Key, with value: Value) -> Bool {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.key == key }) else { return nil }
            state.inFlight -= 1
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: value)
        return waiter != nil
    }

    /// Finishes up to `count` waiting loads, picked at random and finished in
    /// that random order, each with `value(key)`; returns how many.
    ///
    /// Never names a key, so a load cancelled meanwhile (on another thread)
    /// is simply no longer a candidate: what a test that resolves loads out
    /// of order while the code under test cancels them needs.
    @discardableResult
    func succeedAtRandom(upTo count: Int, using random: inout SeededRandom, value: (Key) -> Value) -> Int {
        let picked = state.withLock { state -> [Waiter] in
            var picked: [Waiter] = []
            while picked.count < count, !state.waiters.isEmpty {
                picked.append(state.waiters.remove(at: Int.random(in: state.waiters.indices, using: &random)))
            }
            state.inFlight -= picked.count
            return picked
        }
        for waiter in picked { waiter.continuation.resume(returning: value(waiter.key)) }
        return picked.count
    }

    /// Fails the oldest waiting load of `key`.
    func fail(_ key: Key, with error: any Error) {
        resume(key, with: .failure(error))
    }

    private func resume(_ key: Key, with result: Result<Value, any Error>) {
        let waiter: Waiter = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.key == key }) else {
                preconditionFailure("no load of \(key) is waiting in the gate")
            }
            state.inFlight -= 1
            return state.waiters.remove(at: index)
        }
        waiter.continuation.resume(with: result)
    }
}

/// Collects results delivered to completions, thread-safely.
final class Deliveries<Value: Sendable>: @unchecked Sendable {
    private let results = LockedValue<[Result<Value, any Error>]>([])

    var all: [Result<Value, any Error>] { results.withLock { $0 } }
    var count: Int { results.withLock { $0.count } }
    /// The results that delivered a value (a withdrawn request's `CancellationError` is not one).
    var successCount: Int {
        results.withLock { $0.lazy.filter { if case .success = $0 { true } else { false } }.count }
    }

    func record(_ result: Result<Value, any Error>) {
        results.withLock { $0.append(result) }
    }
}
