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
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Adds a task waiting for the tally to reach `count`.
    mutating func append(_ count: Int, _ continuation: CheckedContinuation<Void, Never>) {
        waiters.append((count, continuation))
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
    func wait(until count: Int, of tally: KeyPath<Value, Int>, waiters: WritableKeyPath<Value, CountWaiters>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = withLock { state in
                if state[keyPath: tally] >= count { return true }
                state[keyPath: waiters].append(count, continuation)
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
