import Testing

@testable import Lookahead

/// `FetchScheduler`'s hedges pinned with exact actions: the randomized
/// comparison with the reference model covers them at large.
@Suite(.timeLimit(.minutes(1)))
struct FetchSchedulerHedgingTests {
    typealias Scheduler = FetchScheduler<Int, Int>

    @Test func theFirstAttemptToSucceedDeliversAndTheOtherIsCancelled() {
        // Given key 0 running for two interests, with a slot to spare
        var scheduler = Scheduler(maxConcurrentLoads: 2)
        scheduler.addInterest(in: 0, priority: .high, payload: 0)
        scheduler.addInterest(in: 0, priority: .normal, payload: 1)
        let first = scheduler.startedLoads()[0]

        // When it is hedged
        let granted = scheduler.hedge(first)
        #expect(granted)

        // Then a second attempt starts at once at the load's priority, in the spare slot
        let hedge = scheduler.startedLoads()[0]
        #expect(hedge != first && scheduler.isHedge(hedge) && !scheduler.isHedge(first))
        #expect(scheduler.isHedged(0))
        #expect(scheduler.phase(of: 0) == .running(.high))
        #expect(scheduler.runningCount == 2)

        // And when the hedge lands first, every interest gets it and the first attempt is cancelled
        #expect(scheduler.loadDidSucceed(hedge) == [0, 1])
        #expect(scheduler.drainActions() == [.cancel(first, 0)])
        #expect(scheduler.statistics.hedgesWon == 1)
        // The loser holds its slot until it is reported, then its outcome concerns nobody
        #expect(scheduler.runningCount == 1)
        #expect(scheduler.loadDidSucceed(first) == nil)
        #expect(scheduler.isIdle)
        scheduler.checkInvariants()
    }

    @Test func anAttemptThatFailsBesideItsSiblingIsNotAFailureOfTheLoad() {
        // Given a hedged load and no retries
        var scheduler = Scheduler(maxConcurrentLoads: 2, retryPolicy: .never)
        scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]
        scheduler.hedge(first)
        let hedge = scheduler.startedLoads()[0]

        // When the first attempt fails for good
        let disposition = scheduler.loadDidFail(first, isTransient: false)

        // Then nothing is delivered: the hedge still runs, and it is the load's only attempt
        #expect(disposition.isDiscarded)
        #expect(scheduler.drainActions().isEmpty)
        #expect(!scheduler.isHedged(0))
        #expect(scheduler.runningCount == 1)
        // And the load gets no second hedge
        let again = scheduler.hedge(hedge)
        #expect(!again)
        #expect(scheduler.loadDidSucceed(hedge) == [0])
        // It did not race anything when it landed
        #expect(scheduler.statistics.hedgesWon == 0)
        scheduler.checkInvariants()
    }

    @Test func aHedgeWaitsBehindItsPriorityButAheadOfLowerOnes() {
        // Given both slots taken by display loads, a display load and a prefetch waiting
        var scheduler = Scheduler(maxConcurrentLoads: 2)
        scheduler.addInterest(in: 0, priority: .high, payload: 0)
        scheduler.addInterest(in: 1, priority: .high, payload: 1)
        let running = scheduler.startedLoads()
        scheduler.addInterest(in: 2, priority: .normal, payload: nil)
        scheduler.addInterest(in: 3, priority: .high, payload: 3)

        // When 0 is hedged, nothing starts: no slot is free
        let granted = scheduler.hedge(running[0])
        #expect(granted)
        #expect(scheduler.drainActions().isEmpty)
        #expect(scheduler.pendingCount == 3)

        // Then as slots free: 3, which waited at .high already, then the hedge, before the prefetch
        #expect(scheduler.loadDidSucceed(running[1]) == [1])
        let three = scheduler.drainActions()
        #expect(three.map(\.key) == [3])
        #expect(scheduler.loadDidSucceed(three[0].loadID) == [3])
        let next = scheduler.drainActions()
        #expect(next.map(\.key) == [0])
        #expect(scheduler.isHedge(next[0].loadID))
        #expect(scheduler.phase(of: 2) == .pending(.normal))
        scheduler.checkInvariants()
    }

    @Test func theFirstAttemptEndingDropsItsQueuedHedge() {
        // Given the only slot taken by 0, whose hedge waits
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]
        let granted = scheduler.hedge(first)
        #expect(granted)
        #expect(scheduler.pendingCount == 1)

        // When the first attempt lands
        #expect(scheduler.loadDidSucceed(first) == [0])

        // Then the hedge never starts
        #expect(scheduler.drainActions().isEmpty)
        #expect(scheduler.isIdle)
        #expect(scheduler.statistics.hedgesStarted == 0)
        scheduler.checkInvariants()
    }

    @Test func aHedgedLoadNobodyWantsCancelsBothAttempts() {
        // Given a hedged load and a load waiting for a slot
        var scheduler = Scheduler(maxConcurrentLoads: 2)
        let interest = scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]
        scheduler.hedge(first)
        let hedge = scheduler.startedLoads()[0]
        scheduler.addInterest(in: 1, priority: .normal, payload: 1)

        // When the only interest leaves
        #expect(scheduler.withdraw(interest) == 0)

        // Then both attempts are cancelled, each holding its slot until reported
        #expect(scheduler.drainActions() == [.cancel(first, 0), .cancel(hedge, 0)])
        #expect(scheduler.runningCount == 2)
        #expect(scheduler.loadDidFail(hedge, isTransient: true).isDiscarded)
        #expect(scheduler.drainActions().map(\.key) == [1])
        #expect(scheduler.loadDidSucceed(first) == nil)
        #expect(scheduler.runningCount == 1)
        scheduler.checkInvariants()
    }

    @Test func aStaleOrCancelledAttemptIsNotHedged() {
        var scheduler = Scheduler(maxConcurrentLoads: 3)
        let interest = scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]
        scheduler.withdraw(interest)
        _ = scheduler.drainActions()
        let whileCancelled = scheduler.hedge(first)
        #expect(scheduler.loadDidSucceed(first) == nil)
        let afterItsEnd = scheduler.hedge(first)
        #expect(!whileCancelled && !afterItsEnd)
        #expect(scheduler.drainActions().isEmpty)
    }

}
