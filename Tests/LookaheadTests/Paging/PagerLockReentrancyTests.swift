// Tests that nothing user-supplied is released or called under a pager's lock:
// each scenario re-enters the pager from a loader's cancellation handler or
// from a deinit. Before the fix, each one trapped on the lock's error check
// (debug) or deadlocked (release), so each runs in its own process.
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct PagerLockReentrancyTests {
    @Test func aPageLoaderWhoseCancellationHandlerReadsThePager() async {
        await #expect(processExitsWith: .success) {
            // Given a page load in flight whose cancellation handler reads the pager
            let gate = LoadGate<PageRequest, Page<Row>>()
            let pagerBox = LockedValue<Pager<Row>?>(nil)
            let pager = Pager<Row>(configuration: PagingConfiguration(pageSize: 10)) { request in
                try await withTaskCancellationHandler {
                    try await gate.load(request)
                } onCancel: {
                    _ = pagerBox.withLock { $0 }?.itemCount
                }
            }
            pagerBox.withLock { $0 = pager }
            pager.start()
            await gate.waitForStarts(1)

            // When a refresh cancels it
            pager.refresh()
            await gate.waitForCancellations(1)

            // Then nothing traps or deadlocks
            #expect(pager.refreshState == .loading)
            pagerBox.withLock { $0 = nil }
        }
    }

    @Test func replacingOnChangeWhoseCapturesCallThePagerWhenReleased() async {
        await #expect(processExitsWith: .success) {
            // Given an onChange closure owning the last reference to an object that reads the pager as it deinits
            let pager = Pager<Row>(configuration: PagingConfiguration(pageSize: 10)) { _ in
                Page(items: [], nextCursor: nil, previousCursor: nil, totalCount: nil)
            }
            var reader: PagerReader? = PagerReader(pager: pager)
            pager.onChange = { [reader] in _ = reader }
            reader = nil

            // When the closure is replaced
            pager.onChange = nil

            // Then nothing traps or deadlocks
            #expect(pager.onChange == nil)
        }
    }
}

/// Reads its pager as it deinitialises, as a view model that unsubscribes would.
final class PagerReader: Sendable {
    let pager: Pager<Row>

    init(pager: Pager<Row>) {
        self.pager = pager
    }

    deinit {
        _ = pager.itemCount
    }
}
