import Testing

@testable import Lookahead

/// The test support's waits for a count: they return when it is reached,
/// and when the waiting task is cancelled — as a test past its time limit
/// is — rather than keeping the run waiting forever.
@Suite(.timeLimit(.minutes(1)))
struct CountWaitersTests {
    struct Tally {
        var value = 0
        var waiters = CountWaiters()
    }

    @Test func aWaitReturnsWhenItsCountIsReached() async {
        // Given a task waiting for the tally to reach 2
        let state = LockedValue(Tally())
        let waiter = Task { await state.wait(until: 2, of: \.value, waiters: \.waiters) }
        await yieldUntil { state.withLock { $0.waiters.count } > 0 }

        // When it reaches 1, the task still waits; when it reaches 2, it returns
        for _ in 0..<2 {
            let due = state.withLock { tally in
                tally.value += 1
                return tally.waiters.takeDue(tally: tally.value)
            }
            #expect(due.count == (state.withLock { $0.value } == 2 ? 1 : 0))
            for continuation in due { continuation.resume() }
        }
        await waiter.value
        #expect(state.withLock { $0.waiters.count } == 0)
    }

    @Test func aWaitingTaskThatIsCancelledReturnsAndLeavesNoWaiter() async {
        // Given a task waiting for a count nothing will reach
        let state = LockedValue(Tally())
        let waiter = Task { await state.wait(until: 1, of: \.value, waiters: \.waiters) }
        await yieldUntil { state.withLock { $0.waiters.count } > 0 }

        // When it is cancelled, it returns, and its waiter is gone
        waiter.cancel()
        await waiter.value
        #expect(state.withLock { $0.waiters.count } == 0)
        #expect(state.withLock { $0.value } == 0)
    }

    @Test func aTaskCancelledBeforeItWaitsDoesNotWait() async {
        // Given a gate no load ever reaches
        let gate = LoadGate<Int, Int>()

        // When a cancelled task waits for a start, it returns at once
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await gate.waitForStarts(1)
            return Task.isCancelled
        }
        #expect(await waiter.value)
        #expect(gate.started.isEmpty)
    }
}
