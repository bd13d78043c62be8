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
        let hedge = scheduler.hedge(first)

        // Then a second attempt starts at the load's priority and takes the spare slot
        #expect(hedge != nil && hedge != first)
        #expect(scheduler.drainActions() == [.start(hedge!, 0, .high)])
        #expect(scheduler.isHedged(0))
        #expect(scheduler.phase(of: 0) == .running(.high))
        #expect(scheduler.runningCount == 2)

        // And when the hedge lands first, every interest gets it and the first attempt is cancelled
        #expect(scheduler.loadDidSucceed(hedge!) == [0, 1])
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
        let hedge = scheduler.hedge(first)!
        _ = scheduler.drainActions()

        // When the first attempt fails for good
        let disposition = scheduler.loadDidFail(first, isTransient: false)

        // Then nothing is delivered: the hedge still runs, and it is the load's only attempt
        #expect(disposition.isDiscarded)
        #expect(scheduler.drainActions().isEmpty)
        #expect(!scheduler.isHedged(0))
        #expect(scheduler.runningCount == 1)
        // And the load gets no second hedge
        #expect(scheduler.hedge(hedge) == nil)
        #expect(scheduler.loadDidSucceed(hedge) == [0])
        // It did not race anything when it landed
        #expect(scheduler.statistics.hedgesWon == 0)
        scheduler.checkInvariants()
    }

    @Test func aHedgeNeedsAFreeSlot() {
        // Given the only slot taken by key 0
        var scheduler = Scheduler(maxConcurrentLoads: 1)
        scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]

        // When it is hedged, nothing starts
        #expect(scheduler.hedge(first) == nil)
        #expect(scheduler.drainActions().isEmpty)

        // But once the limit allows it, the hedge starts
        scheduler.maxConcurrentLoads = 2
        #expect(scheduler.hedge(first) != nil)
        #expect(scheduler.statistics.hedgesStarted == 1)
        #expect(scheduler.statistics.loadsStarted == 2)
    }

    @Test func aHedgedLoadNobodyWantsCancelsBothAttempts() {
        // Given a hedged load and a load waiting for a slot
        var scheduler = Scheduler(maxConcurrentLoads: 2)
        let interest = scheduler.addInterest(in: 0, priority: .high, payload: 0)
        let first = scheduler.startedLoads()[0]
        let hedge = scheduler.hedge(first)!
        _ = scheduler.drainActions()
        scheduler.addInterest(in: 1, priority: .normal, payload: 1)

        // When the only interest leaves
        #expect(scheduler.withdraw(interest) == 0)

        // Then both attempts are cancelled, each holding its slot until reported
        #expect(scheduler.drainActions() == [.cancel(first, 0), .cancel(hedge, 0)])
        #expect(scheduler.runningCount == 2)
        #expect(scheduler.loadDidFail(hedge, isTransient: true).isDiscarded)
        let next = scheduler.drainActions()
        #expect(next == [.start(next.first.map(loadID) ?? first, 1, .normal)])
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
        #expect(scheduler.hedge(first) == nil)
        #expect(scheduler.loadDidSucceed(first) == nil)
        #expect(scheduler.hedge(first) == nil)
        #expect(scheduler.drainActions().isEmpty)
    }

    private func loadID(_ action: Scheduler.Action) -> Scheduler.LoadID {
        switch action {
        case .start(let id, _, _), .cancel(let id, _), .reprioritize(let id, _, _): id
        }
    }
}

extension FetchScheduler.FailureDisposition {
    fileprivate var isDiscarded: Bool { if case .discarded = self { true } else { false } }
}
