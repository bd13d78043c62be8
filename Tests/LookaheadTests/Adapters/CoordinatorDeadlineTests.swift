import LookaheadTestSupport
import Testing

@testable import Lookahead

/// The coordinator re-dates its prefetches every frame with the planner's
/// predictions, so the fetcher's queue starts them earliest-due first.
@Suite(.queuedOnTheMainActor)
@MainActor
struct CoordinatorDeadlineTests {
    /// A grid dragged at 600 pt/s for `frames` frames through a fetcher with
    /// one slot, so that the prefetches queue; `check` after each frame.
    func drag(datesPrefetches: Bool, frames: Int = 40, check: (CoordinatorFixture) -> Void) {
        let fixture = CoordinatorFixture(maxConcurrentLoads: 1)
        fixture.coordinator.datesPrefetches = datesPrefetches
        fixture.scroll(to: 10_000)
        for frame in 1...frames {
            fixture.scroll(to: 10_000 + 10 * Double(frame))
            check(fixture)
        }
    }

    /// The fetcher's deadline of each queued prefetch the planner dated, with the planner's.
    func queuedDeadlines(_ fixture: CoordinatorFixture) -> [(planned: Duration, queued: Duration?)] {
        fixture.coordinator.planner.deadlines.compactMap { path, deadline in
            guard let key = fixture.coordinator.prefetchedKeys[path],
                fixture.fetcher.withScheduler({ $0.phase(of: key) }) == .pending(.normal)
            else { return nil }
            return (deadline, fixture.fetcher.withScheduler { $0.deadline(of: key) })
        }
    }

    @Test func queuedPrefetchesTakeThePlannersDeadlinesInOrder() {
        var checked = 0
        drag(datesPrefetches: true) { fixture in
            let pairs = queuedDeadlines(fixture)
            // Then every queued prefetch the planner dated has a deadline at the fetcher
            #expect(pairs.allSatisfy { $0.queued != nil })
            // And the fetcher orders them as the planner does (its clock differs: compare gaps of 5 ms or more)
            for a in pairs {
                for b in pairs where a.planned + .milliseconds(5) <= b.planned {
                    #expect(a.queued! < b.queued!)
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    /// A prefetch whose item has come on screen keeps its load going but no
    /// longer ranks it: the cell's display request does (`.low` for a cell a
    /// fling carries away). Left at `.normal`, with a deadline now past, it
    /// started ahead of every prefetch still due.
    @Test(arguments: [true, false])
    func aConsumedPrefetchLeavesItsLoadsRankToTheCell(datesPrefetches: Bool) {
        var consumed = 0
        drag(datesPrefetches: datesPrefetches, frames: 60) { fixture in
            for path in fixture.coordinator.planner.visibleItems {
                // No cell asks here: what queues for a visible item is its prefetch's load.
                guard case .pending(let priority) = fixture.fetcher.withScheduler({ $0.phase(of: path.item) })
                else { continue }
                #expect(priority == .low, "item \(path.item)")
                consumed += 1
            }
        }
        #expect(consumed > 100)
    }

    @Test func turnedOffThePrefetchesQueueUndated() {
        var queued = 0
        drag(datesPrefetches: false) { fixture in
            let pairs = queuedDeadlines(fixture)
            #expect(pairs.allSatisfy { $0.queued == nil })
            queued += pairs.count
        }
        #expect(queued > 100)
    }
}
