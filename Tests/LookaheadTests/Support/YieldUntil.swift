// Waiting for a state another task reaches, by yielding to it: for the few
// waits that have no event to wait on (a count of interests, a timer's task
// having run).

/// Polls `condition` until it holds, or until the test is cancelled — as its
/// time limit does — so that a condition that never comes ends the test
/// instead of holding the run. Returns whether `condition` holds. Runs on
/// the caller's actor; between polls it yields, and after twenty polls naps
/// a millisecond, so that a long wait does not keep a thread spinning.
@discardableResult
func yieldUntil(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    var polls = 0
    while !condition() {
        if Task.isCancelled { return false }
        polls += 1
        if polls < 20 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}
