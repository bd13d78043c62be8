// The reference model's checks, one per counter, on hand-made deliveries.

import Lookahead
import Testing

@testable import LookaheadTorture

@Suite(.timeLimit(.minutes(1)))
struct FetchLedgerTests {
    @Test func aRequestDeliveredOnceWithItsValueIsClean() {
        // Given a request for key 3
        let ledger = FetchLedger()
        let request = ledger.issue(key: 3, kind: .completion)

        // When it gets its value once and the run settles
        ledger.record(request, .success(.expected(for: 3)))
        ledger.settle()

        // Then nothing is wrong
        var expected = FetchLedger.Counts()
        expected.made = 1
        expected.values = 1
        #expect(ledger.counts == expected)
    }

    @Test func aSecondDeliveryIsADuplicate() {
        let ledger = FetchLedger()
        let request = ledger.issue(key: 3, kind: .completion)
        ledger.record(request, .success(.expected(for: 3)))
        ledger.record(request, .failure(PermanentTortureError(key: 3)))
        ledger.settle()
        #expect(ledger.counts.duplicateCompletions == 1)
        #expect(ledger.counts.lostCompletions == 0)
    }

    @Test func aRequestWithoutDeliveryAtSettlementIsLostOnce() {
        let ledger = FetchLedger()
        _ = ledger.issue(key: 1, kind: .completion)
        let answered = ledger.issue(key: 2, kind: .value)
        ledger.record(answered, .success(.expected(for: 2)))
        ledger.settle()
        ledger.settle()
        #expect(ledger.counts.lostCompletions == 1)
    }

    @Test func anotherKeysValueOrErrorIsMisdelivered() {
        let ledger = FetchLedger()
        let first = ledger.issue(key: 1, kind: .completion)
        let second = ledger.issue(key: 2, kind: .value)
        ledger.record(first, .success(.expected(for: 2)))
        ledger.record(second, .failure(TransientTortureError(key: 1)))
        ledger.recordCached(.expected(for: 5), for: 6)
        ledger.recordCached(.expected(for: 6), for: 6)
        #expect(ledger.counts.misdelivered == 3)
        #expect(ledger.counts.values == 0)
    }

    @Test func cancellationIsExpectedOnlyForACancelledValueTask() {
        // Given a completion, a value task and a cancelled value task
        let ledger = FetchLedger()
        let completion = ledger.issue(key: 1, kind: .completion)
        let value = ledger.issue(key: 1, kind: .value)
        let cancelled = ledger.issue(key: 1, kind: .value)
        ledger.cancel(cancelled)

        // When each ends with CancellationError, and the completion later with another error
        for request in [completion, value, cancelled] {
            ledger.record(request, .failure(CancellationError()))
        }

        // Then only the cancelled task's is legitimate
        #expect(ledger.counts.cancellations == 1)
        #expect(ledger.counts.unexpectedFailures == 2)
    }

    @Test func loaderErrorsForTheRightKeyAreLegitimate() {
        let ledger = FetchLedger()
        let first = ledger.issue(key: 4, kind: .completion)
        let second = ledger.issue(key: 4, kind: .value)
        ledger.record(first, .failure(TransientTortureError(key: 4)))
        ledger.record(second, .failure(PermanentTortureError(key: 4)))
        ledger.settle()
        #expect(ledger.counts.loaderFailures == 2)
        #expect(ledger.counts.misdelivered + ledger.counts.unexpectedFailures + ledger.counts.lostCompletions == 0)
    }
}
