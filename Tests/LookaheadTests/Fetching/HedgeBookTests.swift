import Testing

@testable import Lookahead

/// ``HedgeBook`` on its own: the pure state machine that `AsyncFetcher` and
/// the simulator's loader drive, fed events by hand over a ``FetchScheduler``.
@Suite
struct HedgeBookTests {
    typealias Scheduler = FetchScheduler<Int, Int>
    typealias Book = HedgeBook<Int, Int>

    /// A scheduler with one load of `key` started for `priority` (dated
    /// `deadline`), and the start's identifier.
    func running(
        _ key: Int, priority: FetchPriority, deadline: Duration? = nil
    ) -> (scheduler: Scheduler, id: Scheduler.LoadID, interest: Scheduler.InterestID) {
        var scheduler = Scheduler(maxConcurrentLoads: 2, retryPolicy: .never)
        let interest = scheduler.addInterest(in: key, priority: priority, deadline: deadline, payload: key)
        guard case .start(let id, _, _)? = scheduler.nextAction() else { preconditionFailure("no start") }
        return (scheduler, id, interest)
    }

    @Test func aStartedAttemptIsTimedAndItsTimerHedgesADisplayLoad() {
        var (scheduler, id, _) = running(7, priority: .high)
        var book = Book(policy: .after(.milliseconds(80)), hedgesDueSoonAtOnce: true)

        // Started: not a hedge, timed for the threshold
        let isHedge = book.recordStart(id, in: scheduler)
        let timer = book.watch(id, key: 7, in: &scheduler, refusing: .none)
        #expect(!isHedge)
        #expect(timer == .milliseconds(80))
        // Watched again (a raise): no second timer
        let again = book.watch(id, key: 7, in: &scheduler, refusing: .none)
        #expect(again == nil)

        // Its timer fires: the display load is hedged, and the hedge starts as a hedge
        book.timerFired(id, now: .milliseconds(80), in: &scheduler, refusing: .none)
        let isHedged = scheduler.isHedged(7)
        #expect(isHedged)
        guard case .start(let hedge, 7, _)? = scheduler.nextAction() else {
            Issue.record("the hedge did not start")
            return
        }
        let hedgeIsHedge = book.recordStart(hedge, in: scheduler)
        let hedgeWasHedge = book.forget(hedge)
        let firstWasHedge = book.forget(id)
        #expect(hedgeIsHedge && hedgeWasHedge && !firstWasHedge)
    }

    @Test func aRefusedHedgeStaysDueAndIsAskedForAgain() {
        var (scheduler, id, _) = running(7, priority: .high)
        var book = Book(policy: .after(.milliseconds(80)), hedgesDueSoonAtOnce: true)
        _ = book.watch(id, key: 7, in: &scheduler, refusing: .none)

        // The threshold passes while the driver refuses display hedges (a starved link)
        let starved = Book.Refusals(displayHedges: true, prefetchHedges: true)
        book.timerFired(id, now: .milliseconds(80), in: &scheduler, refusing: starved)
        let whileStarved = scheduler.isHedged(7)
        #expect(!whileStarved)
        book.retryDue(now: .milliseconds(90), in: &scheduler, refusing: starved)
        let askedAgainWhileStarved = scheduler.isHedged(7)
        #expect(!askedAgainWhileStarved)

        // When the link frees, the due attempt is hedged
        book.retryDue(now: .milliseconds(100), in: &scheduler, refusing: .none)
        let onceFree = scheduler.isHedged(7)
        #expect(onceFree)
    }

    @Test func aPrefetchIsHedgedPastItsThresholdOnlyWhenDueSoonOrRaised() {
        var (scheduler, id, interest) = running(7, priority: .normal, deadline: .seconds(2))
        var book = Book(policy: .after(.milliseconds(80)), hedgesDueSoonAtOnce: false)
        _ = book.watch(id, key: 7, in: &scheduler, refusing: .none)

        // Past its threshold, due in 2 s, not on screen: it waits
        book.timerFired(id, now: .milliseconds(80), in: &scheduler, refusing: .none)
        let pastThreshold = scheduler.isHedged(7)
        #expect(!pastThreshold)

        // Re-dated due within `dueWithin`: hedged
        scheduler.setDeadline(.milliseconds(200), of: interest)
        book.keyWasReDated(7, now: .milliseconds(100), in: &scheduler, refusing: .none)
        let onceDueSoon = scheduler.isHedged(7)
        #expect(onceDueSoon)
    }

    @Test(arguments: [true, false])
    func aPrefetchReDatedDueSoonBeforeItsThresholdIsHedgedOnlyAtOnceWhenAllowed(atOnce: Bool) {
        var (scheduler, id, interest) = running(7, priority: .normal, deadline: .seconds(2))
        var book = Book(policy: .after(.seconds(1)), hedgesDueSoonAtOnce: atOnce)
        _ = book.watch(id, key: 7, in: &scheduler, refusing: .none)

        scheduler.setDeadline(.milliseconds(110), of: interest)
        book.keyWasReDated(7, now: .milliseconds(10), in: &scheduler, refusing: .none)

        let isHedged = scheduler.isHedged(7)
        #expect(isHedged == atOnce)
    }

    @Test func afterP90TimesWhatStartedWithoutAThresholdWhenTheFirstOneExists() {
        var (scheduler, id, _) = running(7, priority: .high)
        var book = Book(policy: .afterP90, hedgesDueSoonAtOnce: true)

        // No threshold yet: nothing to time
        let timer = book.watch(id, key: 7, in: &scheduler, refusing: .none)
        #expect(timer == nil)

        // The samples that make the first p90 return the attempt, once
        var timed: (attempts: [Scheduler.LoadID], threshold: Duration)?
        for sample in 1...FetchHedging.minimumSamples {
            #expect(timed == nil)
            timed = book.recordDuration(.milliseconds(10 * sample))
        }
        #expect(timed?.attempts == [id])
        #expect(timed?.threshold == book.threshold)
        let later = book.recordDuration(.milliseconds(40))
        #expect(later == nil)

        // And its timer then hedges it
        book.timerFired(id, now: .milliseconds(100), in: &scheduler, refusing: .none)
        let isHedged = scheduler.isHedged(7)
        #expect(isHedged)
    }
}
