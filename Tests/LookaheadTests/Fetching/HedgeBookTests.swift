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
        let timer = book.watch(id, key: 7, in: &scheduler)
        #expect(!isHedge)
        #expect(timer == .milliseconds(80))
        // Watched again (a raise): no second timer
        let again = book.watch(id, key: 7, in: &scheduler)
        #expect(again == nil)

        // Its timer fires: the display load is hedged, and the hedge starts as a hedge
        book.timerFired(id, now: .milliseconds(80), in: &scheduler)
        let isHedged = scheduler.isHedged(7)
        #expect(isHedged)
        guard case .start(let hedge, 7, _)? = scheduler.nextAction() else {
            Issue.record("the hedge did not start")
            return
        }
        let hedgeIsHedge = book.recordStart(hedge, in: scheduler)
        let hedgeWasHedge = book.forget(hedge, succeeded: false, in: scheduler)
        let firstWasHedge = book.forget(id, succeeded: false, in: scheduler)
        #expect(hedgeIsHedge && hedgeWasHedge && !firstWasHedge)
    }

    /// Starts a display load of `key` in `scheduler`, hedged after 80 ms,
    /// and asks for its hedge: when its timer fires, then on each raise,
    /// `asks` times in all; returns the first attempt and the hedge, if started.
    func startHedging(
        _ key: Int, asks: Int = 1, in scheduler: inout Scheduler, book: inout Book
    ) -> (first: Scheduler.LoadID, hedge: Scheduler.LoadID?) {
        _ = scheduler.addInterest(in: key, priority: .high, payload: key)
        guard case .start(let first, key, _)? = scheduler.nextAction() else { preconditionFailure("no start") }
        _ = book.recordStart(first, in: scheduler)
        _ = book.watch(first, key: key, in: &scheduler)
        book.timerFired(first, now: .milliseconds(80), in: &scheduler)
        for _ in 1..<asks { _ = book.watch(first, key: key, in: &scheduler) }
        guard case .start(let hedge, key, _)? = scheduler.nextAction() else { return (first, nil) }
        _ = book.recordStart(hedge, in: scheduler)
        return (first, hedge)
    }

    /// Ends the race of `key`'s two attempts: `winner` succeeds, the other is cancelled.
    func finishRace(
        _ key: Int, winner: Scheduler.LoadID, loser: Scheduler.LoadID, in scheduler: inout Scheduler, book: inout Book
    ) {
        _ = book.forget(winner, succeeded: true, in: scheduler)
        _ = scheduler.loadDidSucceed(winner)
        guard case .cancel(loser, key)? = scheduler.nextAction() else { preconditionFailure("no cancel") }
        _ = book.forget(loser, succeeded: false, in: scheduler)
        _ = scheduler.loadDidFail(loser, isTransient: false)
    }

    /// Races a display load of `key` against its hedge until `hedgeWins` or the first attempt does.
    func race(_ key: Int, hedgeWins: Bool, in scheduler: inout Scheduler, book: inout Book) {
        let (first, hedge) = startHedging(key, in: &scheduler, book: &book)
        guard let hedge else { preconditionFailure("no hedge") }
        let (winner, loser) = hedgeWins ? (hedge, first) : (first, hedge)
        finishRace(key, winner: winner, loser: loser, in: &scheduler, book: &book)
    }

    @Test func hedgesThatKeepLosingAreRefusedButForAProbeUntilTheyWinAgain() {
        var scheduler = Scheduler(maxConcurrentLoads: 4, retryPolicy: .never)
        var book = Book(policy: .after(.milliseconds(80)), hedgesDueSoonAtOnce: true)

        // Given one race won by the hedge, then first attempts winning until `racesJudged` have run
        race(0, hedgeWins: true, in: &scheduler, book: &book)
        for key in 1..<(Book.racesJudged - 1) {
            race(key, hedgeWins: false, in: &scheduler, book: &book)
            #expect(book.hedgesPay, "race \(key): too few races to judge")
        }
        race(Book.racesJudged - 1, hedgeWins: false, in: &scheduler, book: &book)
        #expect(!book.hedgesPay)

        // When a display load passes its threshold, it is not hedged (it stays due) until the
        // `probeEvery`th time it asks
        let refused = startHedging(100, asks: Book.probeEvery - 1, in: &scheduler, book: &book)
        #expect(refused.hedge == nil)
        let isDue = book.watched[refused.first.serial].map { if case .due = $0 { true } else { false } }
        #expect(isDue == true)
        #expect(book.refusedCount == 1, "one attempt refused, however often it asked")
        _ = book.watch(refused.first, key: 100, in: &scheduler)
        guard case .start(let probe, 100, _)? = scheduler.nextAction() else {
            Issue.record("no probe")
            return
        }
        _ = book.recordStart(probe, in: scheduler)

        // And hedges pay again once two of the last `racesJudged` are the hedges' (the probes')
        finishRace(100, winner: probe, loser: refused.first, in: &scheduler, book: &book)
        #expect(!book.hedgesPay)
        let second = startHedging(101, asks: Book.probeEvery, in: &scheduler, book: &book)
        guard let secondProbe = second.hedge else {
            Issue.record("no second probe")
            return
        }
        finishRace(101, winner: secondProbe, loser: second.first, in: &scheduler, book: &book)
        #expect(book.hedgesPay)
        #expect(book.refusedCount == 2)
    }

    @Test func aPrefetchIsHedgedPastItsThresholdOnlyWhenDueSoonOrRaised() {
        var (scheduler, id, interest) = running(7, priority: .normal, deadline: .seconds(2))
        var book = Book(policy: .after(.milliseconds(80)), hedgesDueSoonAtOnce: false)
        _ = book.watch(id, key: 7, in: &scheduler)

        // Past its threshold, due in 2 s, not on screen: it waits
        book.timerFired(id, now: .milliseconds(80), in: &scheduler)
        let pastThreshold = scheduler.isHedged(7)
        #expect(!pastThreshold)

        // Re-dated due within `dueWithin`: hedged
        scheduler.setDeadline(.milliseconds(200), of: interest)
        book.keyWasReDated(7, now: .milliseconds(100), in: &scheduler)
        let onceDueSoon = scheduler.isHedged(7)
        #expect(onceDueSoon)
    }

    @Test(arguments: [true, false])
    func aPrefetchReDatedDueSoonBeforeItsThresholdIsHedgedOnlyAtOnceWhenAllowed(atOnce: Bool) {
        var (scheduler, id, interest) = running(7, priority: .normal, deadline: .seconds(2))
        var book = Book(policy: .after(.seconds(1)), hedgesDueSoonAtOnce: atOnce)
        _ = book.watch(id, key: 7, in: &scheduler)

        scheduler.setDeadline(.milliseconds(110), of: interest)
        book.keyWasReDated(7, now: .milliseconds(10), in: &scheduler)

        let isHedged = scheduler.isHedged(7)
        #expect(isHedged == atOnce)
    }

    @Test func afterP90TimesWhatStartedWithoutAThresholdWhenTheFirstOneExists() {
        var (scheduler, id, _) = running(7, priority: .high)
        var book = Book(policy: .afterP90, hedgesDueSoonAtOnce: true)

        // No threshold yet: nothing to time
        let timer = book.watch(id, key: 7, in: &scheduler)
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
        book.timerFired(id, now: .milliseconds(100), in: &scheduler)
        let isHedged = scheduler.isHedged(7)
        #expect(isHedged)
    }
}
