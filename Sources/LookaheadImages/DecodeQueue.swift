// Decoding off the main thread, a slot per core: what DecodeSchedule decides,
// performed on Dispatch's global queue so that a decode never holds one of
// the cooperative pool's few threads. A decode whose caller is cancelled
// before its turn never runs.

import Dispatch
package import Lookahead

/// Runs decodes a few at a time, the most urgent first.
package final class DecodeQueue: Sendable {
    private struct State {
        var schedule: DecodeSchedule
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        /// Decodes given a slot: a cancellation comes too late for them.
        var started: Set<Int> = []
        var cancelledEarly: Set<Int> = []
    }

    private let state: LockedValue<State>

    /// A queue running at most `slots` decodes at once.
    package init(slots: Int) {
        state = LockedValue(State(schedule: DecodeSchedule(slots: slots)))
    }

    /// Runs `decode` when a slot is free and no more urgent decode waits,
    /// off the cooperative pool.
    ///
    /// - Throws: `CancellationError` if the calling task is cancelled before
    ///   its turn (the decode does not run), or what `decode` throws.
    package func run<Result: Sendable>(
        priority: FetchPriority, _ decode: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let verdict: Swift.Result<Bool, CancellationError> = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if state.schedule.request(id, priority: priority) {
                        state.started.insert(id)
                        return .success(true)
                    }
                    state.waiting[id] = continuation
                    return .success(false)
                }
                switch verdict {
                case .success(true): continuation.resume()
                case .success(false): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
                if state.schedule.withdraw(id) { return state.waiting.removeValue(forKey: id) }
                if !state.started.contains(id) { state.cancelledEarly.insert(id) }
                return nil
            }
            waiting?.resume(throwing: CancellationError())
        }
        defer { finished(id) }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Swift.Result { try decode() })
            }
        }
    }

    /// How many decodes wait for a slot. For tests.
    package var waitingCount: Int { state.withLock { $0.schedule.waitingCount } }

    /// Whether every slot is taken. For tests.
    package var isBusy: Bool { state.withLock { $0.schedule.running == $0.schedule.slots } }

    private func finished(_ id: Int) {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            state.started.remove(id)
            guard let next = state.schedule.finished() else { return nil }
            state.started.insert(next)
            return state.waiting.removeValue(forKey: next)
        }
        next?.resume()
    }
}
