/// Bounded polling for shutdown and settling waits: the server's own stop,
/// and the demo's and the replay's waits for connections to drain.
///
/// One place for a loop that is easy to get wrong: a cancelled task's
/// `try? await sleep` returns at once, so a loop that ignores the error spins
/// the CPU until its deadline. This one ends as soon as its task is cancelled.
#if Tools
package enum Settling {
    /// Polls `condition` every `interval` until it holds, `limit` has passed
    /// on `clock`, or the calling task is cancelled.
    ///
    /// - Returns: whether `condition` held at the end.
    /// - Complexity: O(`limit` / `interval`) polls at most, one after cancellation.
    @discardableResult
    package static func wait<C: Clock<Duration>>(
        until condition: () -> Bool, within limit: Duration, pollingEvery interval: Duration, clock: C
    ) async -> Bool {
        let deadline = clock.now.advanced(by: limit)
        while !condition() {
            guard clock.now < deadline else { return false }
            do {
                try await clock.sleep(until: min(clock.now.advanced(by: interval), deadline), tolerance: nil)
            } catch {
                return condition()
            }
        }
        return true
    }
}
#endif
