// Waiting for a state another task reaches, by yielding to it: for the few
// waits that have no event to wait on (a count of interests, a timer's task
// having run).

/// Yields until `condition` holds, or until the test is cancelled — as its
/// time limit does — so that a condition that never comes ends the test
/// instead of holding the run. Returns whether `condition` holds. Runs on
/// the caller's actor.
@discardableResult
func yieldUntil(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    while !condition() {
        if Task.isCancelled { return false }
        await Task.yield()
    }
    return true
}
