import LookaheadTestSupport
import Testing

@testable import Lookahead

/// `FetchScheduler` checked against ``ReferenceScheduler``, a naive model of
/// its documented rules, over long seeded random runs, plus a few hand-written
/// scenarios that pin the subtle rules with exact actions.
@Suite(.queuedOnTheHeavyTestThread)
struct FetchSchedulerModelTests {
    typealias Scheduler = FetchScheduler<Int, Int>

    // MARK: - Randomized comparison with the model

    /// Half the runs report loads rarely, so that queues grow long, priorities
    /// change many times while loads wait, and stale queue entries pile up.
    @Test(arguments: [(0x5EED_0001, false), (0x5EED_0002, true), (0xDEAD_BEEF, false), (0x0123_4567_89AB_CDEF, true)])
    func matchesTheReferenceModel(seed: UInt64, slowLoads: Bool) async {
        await onHeavyTestThread { runAgainstModel(seed: seed, slowLoads: slowLoads, operations: 30_000) }
    }

    @Test func matchesTheReferenceModelOverALongRun() async {
        await onHeavyTestThread { runAgainstModel(seed: 0x00C0_FFEE, slowLoads: false, operations: 100_000) }
    }

    /// Runs `operations` random operations on both schedulers and stops at the
    /// first divergence, reporting the seed, the step and the last operations.
    ///
    /// A long synchronous loop: the tests run it on the heavy tests' thread,
    /// where it holds none of the cooperative pool's few threads.
    private func runAgainstModel(seed: UInt64, slowLoads: Bool, operations: Int) {
        var driver = ModelDriver(seed: seed, slowLoads: slowLoads)
        for step in 0..<operations {
            let divergence = driver.performRandomOperation()
            #expect(
                divergence == nil,
                "seed \(seed), slowLoads \(slowLoads), step \(step): \(divergence ?? "")\n\(driver.recentOperations)"
            )
            if divergence != nil { return }
        }
        // A run that never reaches the subtle cases proves little.
        let required = driver.coverage.filter { !slowLoads || !ModelDriver.hedgeCoverage.contains($0.key) }
        #expect(required.allSatisfy { $0.value > 0 }, "seed \(seed): coverage \(driver.coverage)")
    }

    // MARK: - Scenarios

    @Test func aLoweredPendingLoadGoesToTheFrontOfItsNewPriority() {
        // Given one slot taken, and loads 1 and 2 waiting at .normal, then 3 at .high
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .veryHigh, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, priority: .normal, payload: 1)
        scheduler.addInterest(in: 2, priority: .normal, payload: 2)
        let third = scheduler.addInterest(in: 3, priority: .high, payload: 3)

        // When 3 is lowered to .normal
        scheduler.setPriority(.normal, of: third)
        #expect(scheduler.drainActions().isEmpty)

        // Then it goes to the front of .normal: it starts before 1 and 2, which were waiting there
        #expect(scheduler.loadDidSucceed(blocker) == [0])
        let next = scheduler.drainActions()
        #expect(next.map(\.key) == [3])
        #expect(scheduler.loadDidSucceed(next[0].loadID) == [3])
        #expect(scheduler.drainActions().map(\.key) == [1])
    }

    @Test func pausingAGroupLowersItsLoadsInTheOrderTheirFirstInterestsWereAdmitted() {
        // Given one slot taken; loads 6 and 7 wanted by a paused-to-be group at .normal
        // (6 admitted first, then 7, then 6 again) and by the default group at .low
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .veryHigh, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        let group = scheduler.makeGroup(priority: .normal)
        scheduler.addInterest(in: 6, group: group, payload: nil)
        scheduler.addInterest(in: 7, group: group, payload: nil)
        scheduler.addInterest(in: 6, group: group, payload: nil)
        scheduler.addInterest(in: 6, priority: .low, payload: 6)
        scheduler.addInterest(in: 7, priority: .low, payload: 7)

        // When the group is paused, both loads are lowered to .low, each to the front
        scheduler.setPaused(true, group: group)

        // Then every interest was paused before either load moved: 6 moved first, so 7 is ahead
        #expect(scheduler.loadDidSucceed(blocker) == [0])
        let next = scheduler.drainActions()
        #expect(next.map(\.key) == [7])
        #expect(scheduler.loadDidSucceed(next[0].loadID) == [7])
        #expect(scheduler.drainActions().map(\.key) == [6])
        scheduler.checkInvariants()
    }

    @Test func aRaisedPendingLoadGoesToTheBackOfItsNewPriority() {
        // Given one slot taken, load 1 waiting at .high, 2 at .low
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .veryHigh, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, priority: .high, payload: 1)
        let second = scheduler.addInterest(in: 2, priority: .low, payload: 2)

        // When 2 is raised to .high
        scheduler.setPriority(.high, of: second)
        #expect(scheduler.phase(of: 2) == .pending(.high))

        // Then 1, which was waiting at .high already, still starts first
        #expect(scheduler.loadDidSucceed(blocker) == [0])
        let next = scheduler.drainActions()
        #expect(next == [.start(next[0].loadID, 1, .high)])
        #expect(scheduler.loadDidSucceed(next[0].loadID) == [1])
        #expect(scheduler.drainActions().map(\.key) == [2])
    }

    @Test func aLoadCancelledBeforeItStartsNeverStarts() {
        // Given one slot taken and load 1 waiting
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .normal, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        let waiting = scheduler.addInterest(in: 1, priority: .normal, payload: 1)

        // When its only interest is withdrawn, then the slot frees up
        #expect(scheduler.withdraw(waiting) == 1)
        #expect(scheduler.drainActions().isEmpty)
        #expect(scheduler.loadDidSucceed(blocker) == [0])

        // Then nothing starts and the scheduler has forgotten key 1
        #expect(scheduler.drainActions().isEmpty)
        #expect(scheduler.phase(of: 1) == .none)
        #expect(scheduler.isIdle)
    }

    @Test func aCancelledRunningLoadKeepsItsSlotUntilReported() {
        // Given load 0 running in the only slot and load 1 waiting
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        let first = scheduler.addInterest(in: 0, priority: .normal, payload: 0)
        let running = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, priority: .normal, payload: 1)

        // When load 0 loses its last interest
        #expect(scheduler.withdraw(first) == 0)

        // Then it is cancelled but still holds the slot, so 1 waits
        #expect(scheduler.drainActions() == [.cancel(running, 0)])
        #expect(scheduler.runningCount == 1)
        #expect(scheduler.phase(of: 1) == .pending(.normal))

        // And once the driver reports its end, its outcome is discarded and 1 starts
        #expect(scheduler.loadDidFail(running, isTransient: true).isDiscarded)
        let next = scheduler.drainActions()
        #expect(next == [.start(next[0].loadID, 1, .normal)])
    }

    @Test func aPausedGroupsLoadWaitsUntilADisplayInterestWantsIt() {
        // Given one slot taken and a prefetcher's load of key 1 pending
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .normal, payload: 0)
        let blocker = scheduler.startedLoads()[0]
        let prefetcher = scheduler.makeGroup(priority: .low)
        scheduler.addInterest(in: 1, group: prefetcher, payload: nil)
        #expect(scheduler.phase(of: 1) == .pending(.low))

        // When the prefetcher pauses and the slot frees up
        scheduler.setPaused(true, group: prefetcher)
        #expect(scheduler.loadDidSucceed(blocker) == [0])

        // Then the load does not start
        #expect(scheduler.drainActions().isEmpty)
        #expect(scheduler.phase(of: 1) == .idle)
        #expect(scheduler.isIdle)

        // But a display interest in the same key starts it at its own priority
        scheduler.addInterest(in: 1, priority: .high, payload: 1)
        let next = scheduler.drainActions()
        #expect(next == [.start(next[0].loadID, 1, .high)])
        // And the success reaches both interests, the paused one included
        #expect(scheduler.loadDidSucceed(next[0].loadID) == [1])
        #expect(scheduler.interestCount(in: 1) == 0)
    }

}
