// Tests of the prefetch bookkeeping both coordinators share: a consumed
// prefetch keeps its load at `.low`, a withdrawn one is withdrawn by its own
// handle (never another's interest in the key), and a batch update moves
// them with their items.
import LookaheadTestSupport
import Testing

@testable import Lookahead

/// Item `item` of section 0.
private func row(_ item: Int) -> ItemPath { ItemPath(item: item, section: 0) }

@Suite(.queuedOnTheMainActor)
@MainActor
struct PrefetchRequestTableTests {
    /// A coordinator's requests, without its planner: the core's actions
    /// performed on a fetcher through the table, as the coordinators do.
    @MainActor
    struct Requests {
        var core = CoordinatorCore<ItemPath>()
        var table = PrefetchRequestTable<ItemPath>()
        let fetcher: AsyncFetcher<Int, String>
        var priority = FetchPriority.normal

        mutating func perform(_ actions: CoordinatorCore<ItemPath>.Actions) {
            let made = PrefetchRequestTable<ItemPath>.keys(of: actions) { $0.item }
            var batch = FetchBatch<Int>()
            batch.prefetchPriority = priority
            batch.prefetches = made.keys
            table.add(actions, made: made.paths, to: &batch.changes)
            table.adopt(fetcher.perform(batch), for: made.paths)
        }

        /// The key of each outstanding prefetch.
        var keys: [ItemPath: Int] { Dictionary(uniqueKeysWithValues: table.paths.map { ($0, $0.item) }) }

        mutating func prefetch(_ items: ClosedRange<Int>) { perform(core.prefetch(items.map(row))) }

        mutating func frame(visible: [Int], cancel: [Int] = []) {
            perform(
                core.planned(
                    PrefetchUpdate(prefetch: [], cancel: cancel.map(row)), visible: visible.map(row), deadlines: [],
                    isHeld: { _ in false }, time: .zero))
        }
    }

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
        var requests = Requests(fetcher: await busyFetcher(gate))
        requests.prefetch(1...2)

        // When item 1 comes on screen
        requests.frame(visible: [1])

        // Then its load still waits, at `.low`, and is no longer the table's; item 2's is unchanged
        let fetcher = requests.fetcher
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.low))
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .pending(.normal))
        #expect(requests.keys == [row(2): 2])
        #expect(requests.table.request(at: row(1)) == nil)

        // And a cell's display request for it ranks it again
        let display = fetcher.fetchAsync(1, priority: .high)
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.high))
        display.cancel()
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.low))
    }

    @Test func aPrefetchAskedForBelowLowIsNotRaisedWhenConsumed() async {
        let gate = LoadGate<Int, String>()
        var requests = Requests(fetcher: await busyFetcher(gate), priority: .veryLow)
        requests.prefetch(1...1)
        requests.frame(visible: [1])
        #expect(requests.fetcher.withScheduler { $0.phase(of: 1) } == .pending(.veryLow))
    }

    @Test func withdrawnAndRemappedPrefetchesFollowTheirItems() async {
        // Given prefetches of items 1, 2 and 3
        let gate = LoadGate<Int, String>()
        var requests = Requests(fetcher: await busyFetcher(gate))
        requests.prefetch(1...3)

        // When item 1's is cancelled, and a batch update deletes item 2 and moves item 3 to 0
        requests.frame(visible: [], cancel: [1])
        let newPath: (ItemPath) -> ItemPath? = { $0.item == 3 ? row(0) : nil }
        requests.perform(requests.core.remap(newPath))
        requests.table.remap(newPath)

        // Then only key 3's prefetch is left, at its new path, and re-dated there
        let fetcher = requests.fetcher
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .none)
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .none)
        #expect(Array(requests.table.paths) == [row(0)])
        #expect(fetcher.withScheduler { $0.phase(of: 3) } == .pending(.normal))
        requests.table.request(at: row(0))?.setDeadline(.seconds(1))
        #expect(fetcher.withScheduler { $0.deadline(of: 3) } != nil)

        // And withdrawing everything leaves nothing queued
        requests.perform(requests.core.reset())
        #expect(fetcher.withScheduler { $0.phase(of: 3) } == .none)
        #expect(requests.keys.isEmpty)
    }

    @Test func aWithdrawalNeverCancelsAnotherScreensPrefetchOfTheSameKey() async {
        // Given two screens on one fetcher, both prefetching item 5
        let gate = LoadGate<Int, String>()
        let fetcher = await busyFetcher(gate)
        var first = Requests(fetcher: fetcher)
        var second = Requests(fetcher: fetcher)
        first.prefetch(5...5)
        second.prefetch(5...5)

        // When the first withdraws it (its window moved on)
        first.frame(visible: [], cancel: [5])

        // Then the second's interest stands: the load still waits
        #expect(fetcher.withScheduler { $0.interestCount(in: 5) } == 1)
        #expect(fetcher.withScheduler { $0.phase(of: 5) } == .pending(.normal))
        #expect(second.keys == [row(5): 5])
    }
}
