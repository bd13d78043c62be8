// Tests of the prefetch bookkeeping both coordinators share: a consumed
// prefetch keeps its load at `.low`, a cancelled one withdraws it, and a
// batch update moves them with their items.
import Testing

@testable import Lookahead

/// Item `item` of section 0.
private func row(_ item: Int) -> ItemPath { ItemPath(item: item, section: 0) }

@Suite(.timeLimit(.minutes(1)))
@MainActor
struct PrefetchRequestTableTests {
    typealias Table = PrefetchRequestTable<ItemPath, Int>

    /// A fetcher with one slot, taken by key 0's load, which never finishes.
    func busyFetcher(_ gate: LoadGate<Int, String>) async -> AsyncFetcher<Int, String> {
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1) { key in try await gate.load(key) }
        fetcher.fetchAsync(0, priority: .high)
        await gate.waitForStarts(1)
        return fetcher
    }

    @Test func aConsumedPrefetchKeepsItsLoadQueuedAtLow() async {
        // Given prefetches of keys 1 and 2, queued behind a running load
        let gate = LoadGate<Int, String>()
        let fetcher = await busyFetcher(gate)
        var table = Table()
        table.prefetch(1, at: row(1), from: fetcher, priority: .normal)
        table.prefetch(2, at: row(2), from: fetcher, priority: .normal)

        // When item 1 comes on screen
        table.consume(at: row(1))

        // Then its load still waits, at `.low`, and is no longer the table's; item 2's is unchanged
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.low))
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .pending(.normal))
        #expect(table.keys == [row(2): 2])
        #expect(table.request(at: row(1)) == nil)

        // And a cell's display request for it ranks it again
        let display = fetcher.fetchAsync(1, priority: .high)
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.high))
        display.cancel()
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.low))
    }

    @Test func aPrefetchAskedForBelowLowIsNotRaisedWhenConsumed() async {
        let gate = LoadGate<Int, String>()
        let fetcher = await busyFetcher(gate)
        var table = Table()
        table.prefetch(1, at: row(1), from: fetcher, priority: .veryLow)
        table.consume(at: row(1))
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.veryLow))
    }

    @Test func cancelledAndRemappedPrefetchesFollowTheirItems() async {
        // Given prefetches of items 1, 2 and 3
        let gate = LoadGate<Int, String>()
        let fetcher = await busyFetcher(gate)
        var table = Table()
        for item in 1...3 { table.prefetch(item, at: row(item), from: fetcher, priority: .normal) }

        // When item 1's is cancelled, and a batch update deletes item 2 and moves item 3 to 0
        table.cancel(at: row(1), on: fetcher)
        table.remap({ $0.item == 3 ? row(0) : nil }, on: fetcher)

        // Then only key 3's prefetch is left, at its new path, and re-dated there
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .none)
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .none)
        #expect(table.keys == [row(0): 3])
        table.request(at: row(0))?.setDeadline(.seconds(1))
        #expect(fetcher.withScheduler { $0.deadline(of: 3) } != nil)

        // And cancelling everything leaves nothing queued
        table.cancelAll(on: fetcher)
        #expect(fetcher.withScheduler { $0.phase(of: 3) } == .none)
        #expect(table.keys.isEmpty)
    }
}
