import Testing

@testable import Lookahead

/// When a ``ScrollViewPrefetcherStateMachine`` settles: the debounce and the rest
/// check, decided by the machine at the times it is given.
@Suite(.timeLimit(.minutes(1)))
struct ScrollViewPrefetcherStateMachineTimingTests {
    static let debounce = Duration.milliseconds(50)

    func machine(debounce: Duration = debounce) -> ScrollViewPrefetcherStateMachine {
        ScrollViewPrefetcherStateMachine(itemCount: 1_000, sizing: .adaptive(), debounce: debounce)
    }

    @Test func aFirstChangeArrangesASettleOneDebounceLaterAndLaterChangesJoinIt() {
        // Given a machine at rest
        var machine = machine()
        #expect(machine.scheduledSettleTime == nil)
        // When rows appear at 0 ms, 20 ms and 40 ms
        machine.appeared(0)
        let first = machine.timingAfterChange(at: .zero)
        machine.appeared(1)
        let second = machine.timingAfterChange(at: .milliseconds(20))
        machine.appeared(2)
        let third = machine.timingAfterChange(at: .milliseconds(40))
        // Then one settle is arranged, at 50 ms: the burst is not pushed back
        #expect(first == .at(.milliseconds(50)))
        #expect(second == .unchanged)
        #expect(third == .unchanged)
        #expect(machine.scheduledSettleTime == .milliseconds(50))
        #expect(!machine.isRestCheckScheduled)
    }

    @Test func withoutDebounceEveryChangeSettlesAtOnce() {
        var machine = machine(debounce: .zero)
        machine.appeared(0)
        #expect(machine.timingAfterChange(at: .zero) == .now)
        #expect(machine.scheduledSettleTime == nil)
    }

    @Test func aSettleThatSeesTheListMovingArrangesARestCheck() throws {
        // Given rows moving forward, one per 16 ms, settled as arranged
        var machine = machine()
        var time = Duration.zero
        for index in 0..<10 {
            machine.appeared(index + 10)
            if index > 0 { machine.disappeared(index - 1) }
            if case .at(let due) = machine.timingAfterChange(at: time) {
                #expect(due == time + Self.debounce)
            }
            time += .milliseconds(16)
            if let due = machine.scheduledSettleTime, due <= time {
                _ = machine.settleArranged(at: due)
            }
        }
        // When the settle the last rows arranged comes due
        if let due = machine.scheduledSettleTime, !machine.isRestCheckScheduled {
            _ = machine.settleArranged(at: due)
        }
        // Then the machine sees the list moving and arranges a rest check
        #expect(machine.isMoving)
        let restCheck = try #require(machine.scheduledSettleTime)
        #expect(machine.isRestCheckScheduled)
        // And a change brings the check forward to one debounce from now
        machine.appeared(20)
        let now = restCheck - .milliseconds(200)
        #expect(machine.timingAfterChange(at: now) == .at(now + Self.debounce))
        #expect(!machine.isRestCheckScheduled)
    }

    @Test func theRestCheckComesAfterTheLongerOfTheDelayAndTheDebounce() {
        for debounce in [Duration.milliseconds(50), .milliseconds(400)] {
            var machine = machine(debounce: debounce)
            var time = Duration.zero
            var lastSettle = Duration.zero
            for index in 0..<20 {
                machine.appeared(index + 10)
                _ = machine.timingAfterChange(at: time)
                time += .milliseconds(16)
                if let due = machine.scheduledSettleTime, due <= time, !machine.isRestCheckScheduled {
                    _ = machine.settleArranged(at: due)
                    lastSettle = due
                }
            }
            guard machine.isRestCheckScheduled else { continue }
            let expected = lastSettle + max(debounce, ScrollViewPrefetcherStateMachine.restCheckDelay)
            #expect(machine.scheduledSettleTime == expected, "debounce \(debounce)")
        }
    }

    @Test func settlingAtOnceKeepsARestCheckAlreadyArranged() throws {
        // Given a machine without debounce whose list is moving
        var machine = machine(debounce: .zero)
        var time = Duration.zero
        for index in 0..<10 {
            machine.appeared(index + 10)
            if machine.timingAfterChange(at: time) == .now { _ = machine.settleNow(at: time) }
            time += .milliseconds(16)
        }
        let restCheck = try #require(machine.scheduledSettleTime)
        // When another change settles at once
        machine.appeared(30)
        #expect(machine.timingAfterChange(at: time) == .now)
        _ = machine.settleNow(at: time)
        // Then the rest check stays where it was, and fires later
        #expect(machine.scheduledSettleTime == restCheck)
        _ = machine.settleArranged(at: restCheck)
        #expect(machine.scheduledSettleTime != restCheck)
    }

    @Test func aListThatStoppedComesBackToRestAtTheRestChecks() {
        // Given a fling of 40 rows, then nothing
        var machine = machine()
        var time = Duration.zero
        for index in 0..<40 {
            machine.appeared(index + 10)
            if index >= 10 { machine.disappeared(index) }
            _ = machine.timingAfterChange(at: time)
            time += .milliseconds(8)
            while let due = machine.scheduledSettleTime, due <= time { _ = machine.settleArranged(at: due) }
        }
        // When only the arranged settles run, with no change
        var checks = 0
        while let due = machine.scheduledSettleTime, checks < 100 {
            _ = machine.settleArranged(at: due)
            checks += 1
        }
        // Then the machine comes to rest and stops arranging settles
        #expect(!machine.isMoving)
        #expect(machine.scheduledSettleTime == nil)
        #expect(checks < 100)
    }
}
