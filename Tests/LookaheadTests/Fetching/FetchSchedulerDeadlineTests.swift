import Testing

@testable import Lookahead

/// Deadlines as scheduler order, a group's keys and the cancelled-but-running
/// state, pinned with exact actions; the randomized comparison with the
/// reference model covers them at large.
@Suite(.timeLimit(.minutes(1)))
struct FetchSchedulerDeadlineTests {
    typealias Scheduler = FetchScheduler<Int, Int>

    @Test func withinAPriorityTheEarliestDeadlineStartsFirstThenTheUndatedFIFO() {
        // Given the only slot taken, and loads waiting at .normal: 1 undated, 2 due at 300 ms, 3 undated, 4 due at 100 ms
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, payload: 1)
        scheduler.addInterest(in: 2, deadline: .milliseconds(300), payload: 2)
        scheduler.addInterest(in: 3, payload: 3)
        scheduler.addInterest(in: 4, deadline: .milliseconds(100), payload: 4)
        #expect(scheduler.deadline(of: 4) == .milliseconds(100))
        #expect(scheduler.deadline(of: 1) == nil)

        // When the slot frees up, again and again
        let order = runOneByOne(&scheduler, first: blocker)

        // Then 4 and 2 start by deadline, then 1 and 3 in the order they came
        #expect(order == [4, 2, 1, 3])
    }

    @Test func aHigherPriorityStillGoesFirstWhateverTheDeadlines() {
        // Given the only slot taken, 1 at .low due now and 2 at .normal with no deadline
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, priority: .low, deadline: .zero, payload: 1)
        scheduler.addInterest(in: 2, priority: .normal, payload: 2)

        // Then 2 starts first
        #expect(runOneByOne(&scheduler, first: blocker) == [2, 1])
    }

    @Test func updatingADeadlineReordersTheQueue() {
        // Given the only slot taken, 1 due at 100 ms and 2 at 200 ms
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        let first = scheduler.addInterest(in: 1, deadline: .milliseconds(100), payload: 1)
        let second = scheduler.addInterest(in: 2, deadline: .milliseconds(200), payload: 2)

        // When the prediction changes: 2 is due at 50 ms, 1 loses its deadline
        scheduler.setDeadline(.milliseconds(50), of: second)
        scheduler.setDeadline(nil, of: first)
        #expect(scheduler.deadline(of: first) == nil)
        #expect(scheduler.deadline(of: second) == .milliseconds(50))

        // Then 2 starts first
        #expect(runOneByOne(&scheduler, first: blocker) == [2, 1])
    }

    @Test func aQueuedHedgeWaitsByItsLoadsDeadlineAndMovesWithIt() {
        for isRedated in [false, true] {
            // Given 0 (due at 300 ms) and 9 running in the two slots, 1 due at 200 ms and 2 at 500 ms queued
            var scheduler = Scheduler(maxConcurrentLoads: 2)
            let zero = scheduler.addInterest(in: 0, deadline: .milliseconds(300), payload: 0)
            scheduler.addInterest(in: 9, payload: 9)
            let running = scheduler.startedLoads()
            scheduler.addInterest(in: 1, deadline: .milliseconds(200), payload: 1)
            scheduler.addInterest(in: 2, deadline: .milliseconds(500), payload: 2)

            // When 0 is hedged, and (second time) found to be due at 100 ms after all
            let granted = scheduler.hedge(running[0])
            #expect(granted)
            if isRedated { scheduler.setDeadline(.milliseconds(100), of: zero) }
            scheduler.checkInvariants()

            // Then as the other slot frees, the hedge starts in its load's deadline order
            let order = runOneByOne(&scheduler, first: running[1])
            #expect(order == (isRedated ? [0, 1, 2] : [1, 0, 2]), "re-dated: \(isRedated)")
        }
    }

    @Test func aSharedLoadIsDueAtTheEarliestOfItsInterests() {
        // Given the only slot taken, 1 due at 200 ms, 2 due at 100 ms
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, deadline: .milliseconds(200), payload: 1)
        let urgent = scheduler.addInterest(in: 2, deadline: .milliseconds(100), payload: 2)

        // When key 1 gets a second interest due at 50 ms, and 2's interest leaves for one due at 300 ms
        scheduler.addInterest(in: 1, deadline: .milliseconds(50), payload: 3)
        scheduler.withdraw(urgent)
        scheduler.addInterest(in: 2, deadline: .milliseconds(300), payload: 4)

        // Then key 1 is due at 50 ms and starts first
        #expect(scheduler.deadline(of: 1) == .milliseconds(50))
        #expect(runOneByOne(&scheduler, first: blocker) == [1, 2])
    }

    @Test func aGroupKeepsOneInterestPerKeyAndCountsOutcomes() {
        // Given a prefetcher's group with keys 1 and 2
        var scheduler = Scheduler(maxConcurrentLoads: 4)
        let group = scheduler.makeGroup(priority: .low, admissionLimit: 4)
        #expect(scheduler.addKey(1, to: group, payload: nil) != nil)
        #expect(scheduler.addKey(2, to: group, payload: nil) != nil)

        // When key 1 is added again
        // Then nothing is added
        #expect(scheduler.addKey(1, to: group, payload: nil) == nil)
        #expect(scheduler.interestCount(in: 1) == 1)
        #expect(scheduler.keyCount(in: group) == 2)

        // When 1 succeeds and 2 fails for good
        let started = scheduler.drainActions()
        for action in started {
            guard case .start(let id, let key, _) = action else { continue }
            if key == 1 {
                _ = scheduler.loadDidSucceed(id)
            } else {
                _ = scheduler.loadDidFail(id, isTransient: false)
            }
        }

        // Then the group has counted both and holds no key
        #expect(scheduler.completedCount(in: group) == 1)
        #expect(scheduler.failedCount(in: group) == 1)
        #expect(scheduler.keyCount(in: group) == 0)
        #expect(!scheduler.containsKey(1, in: group))
        scheduler.checkInvariants()
    }

    @Test func aCancelledLoadHoldsItsSlotWhileTheKeyLoadsAfresh() {
        // Given key 1 running in the only slot
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        let first = scheduler.addInterest(in: 1, payload: 1)
        let cancelled = scheduler.startedLoads()[0]

        // When its interest leaves and a new one arrives before the load ends
        scheduler.withdraw(first)
        #expect(scheduler.drainActions() == [.cancel(cancelled, 1)])
        scheduler.addInterest(in: 1, payload: 2)
        scheduler.checkInvariants()

        // Then the new load waits for the cancelled one's slot
        #expect(scheduler.phase(of: 1) == .pending(.normal))
        #expect(scheduler.runningCount == 1)

        // And once the cancelled one ends, the new one starts and gets its own outcome
        #expect(scheduler.loadDidSucceed(cancelled) == nil)
        let next = scheduler.startedLoads()
        #expect(next.count == 1)
        #expect(scheduler.loadDidSucceed(next[0]) == [2])
        #expect(scheduler.isIdle)
        scheduler.checkInvariants()
    }

    // MARK: - Helpers

    /// Ends `first`, then each load as it starts, one slot at a time; returns the keys in start order.
    private func runOneByOne(_ scheduler: inout Scheduler, first: Scheduler.LoadID) -> [Int] {
        var order: [Int] = []
        _ = scheduler.loadDidSucceed(first)
        while let action = scheduler.nextAction() {
            guard case .start(let id, let key, _) = action else { continue }
            order.append(key)
            scheduler.checkInvariants()
            _ = scheduler.loadDidSucceed(id)
        }
        return order
    }
}
