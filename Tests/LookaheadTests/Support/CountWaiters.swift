// Tasks waiting for a tally to reach a number: what the test gates and
// recorders (LoadGate, ManualClock, WindowRecorder) keep under their locks,
// so that `await gate.waitForStarts(3)` returns once the third load has
// started, without polling or sleeping.

@testable import Lookahead

/// Tasks waiting, each for a tally kept under a lock to reach its count.
///
/// It lives in the locked state next to the tally: ``LockedValue/wait(until:of:waiters:)``
/// registers a waiter, and whatever raises the tally takes the due ones with
/// ``takeDue(tally:)`` under the lock and resumes them after unlocking.
struct CountWaiters {
    private var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextID = 0

    /// The tasks waiting.
    var count: Int { waiters.count }

    /// Adds a task waiting for the tally to reach `count`; returns its id, for ``remove(_:)``.
    mutating func append(_ count: Int, _ continuation: CheckedContinuation<Void, Never>) -> Int {
        nextID += 1
        waiters.append((nextID, count, continuation))
        return nextID
    }

    /// Removes and returns the waiter `id` if it is still waiting; resume it
    /// once the lock is released.
    mutating func remove(_ id: Int) -> CheckedContinuation<Void, Never>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }

    /// Removes and returns the waiters whose count `tally` has reached; resume
    /// them once the lock is released.
    mutating func takeDue(tally: Int) -> [CheckedContinuation<Void, Never>] {
        var due: [CheckedContinuation<Void, Never>] = []
        waiters.removeAll { waiter in
            guard tally >= waiter.count else { return false }
            due.append(waiter.continuation)
            return true
        }
        return due
    }
}

extension LockedValue {
    /// Returns once the tally at `tally` reaches `count`: at once if it
    /// already has, otherwise when a change to it takes this waiter from
    /// `waiters` with ``CountWaiters/takeDue(tally:)``.
    ///
    /// Also returns, early, when the waiting task is cancelled: a test past
    /// its time limit is cancelled, and ends (its next expectations fail)
    /// rather than keeping the whole run waiting for a count that never comes.
    func wait(
        until count: Int, of tally: any KeyPath<Value, Int> & Sendable,
        waiters: any WritableKeyPath<Value, CountWaiters> & Sendable
    ) async {
        await waitCancellably { state, continuation in
            state[keyPath: tally] >= count ? nil : state[keyPath: waiters].append(count, continuation)
        } remove: { state, id in
            state[keyPath: waiters].remove(id)
        }
    }
}
