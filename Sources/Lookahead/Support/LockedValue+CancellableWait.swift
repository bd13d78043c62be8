// A task waiting in a list of waiters kept under a lock, which it leaves when
// it is cancelled: the one handshake behind `AsyncFetcher.waitUntilIdle()`
// and the test gates' waits.

extension LockedValue {
    /// Suspends the calling task until whoever keeps the waiters in the value
    /// resumes its continuation, or until the task is cancelled.
    ///
    /// - Parameters:
    ///   - register: under the lock: returns `nil` if there is nothing to
    ///     wait for (the task goes on at once), else stores the continuation
    ///     in the value and returns a number that names it.
    ///   - remove: under the lock, when the task is cancelled: takes the
    ///     continuation registered under that number out of the value, if it
    ///     is still there; it is resumed after the lock is released.
    @inlinable
    package func waitCancellably(
        register: (inout Value, CheckedContinuation<Void, Never>) -> Int?,
        remove: @escaping @Sendable (inout Value, Int) -> CheckedContinuation<Void, Never>?
    ) async {
        let registered = LockedValue<Int?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let returns = withLock { value in
                    // Checked under the lock: a cancellation handler that ran
                    // before the waiter was registered found nothing to remove.
                    if Task.isCancelled { return true }
                    guard let id = register(&value, continuation) else { return true }
                    registered.withLock { $0 = id }
                    return false
                }
                if returns { continuation.resume() }
            }
        } onCancel: {
            let continuation = withLock { value in registered.withLock { $0 }.flatMap { remove(&value, $0) } }
            continuation?.resume()
        }
    }
}
