#if Tools
import Lookahead

/// Tells the server's waiting requests that it is stopping.
///
/// A request waiting out its latency (or stalled on purpose) races its wait
/// against this signal, so that ``FeedServer/stop()`` ends it at once instead
/// of waiting for it, and the graceful shutdown can finish.
final class StopSignal: Sendable {
    private struct State {
        var isStopped = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits cancelled before they registered their continuation.
        var cancelled: Set<Int> = []
    }

    private let state = LockedValue(State())

    /// Wakes every wait, now and later.
    func stop() {
        let waiters = state.withLock { state in
            state.isStopped = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the signal is given or the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.isStopped || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }

    /// Sleeps for `duration` (`nil`: until stopped), unless the signal comes
    /// first; then throws ``ServerStopping``.
    func sleep(
        _ duration: Duration?, using sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                guard let duration else {
                    while true { try await sleep(.seconds(3_600)) }
                }
                try await sleep(duration)
            }
            group.addTask {
                await self.wait()
                if !Task.isCancelled { throw ServerStopping() }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Thrown by a request's wait when the server stops.
struct ServerStopping: Error {}
#endif
