import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// A coordinator's prefetches belong to it: pausing withdraws those not yet
/// loading, releasing it withdraws all of them, and neither touches another
/// screen's interest in the same items.
@Suite(.queuedOnTheMainActor)
@MainActor
struct CoordinatorLifetimeTests {
    /// A grid over `fetcher`, with a coordinator reporting a rest at 10,000 pt.
    @MainActor
    final class Screen {
        let recorder = ViewEventRecorder(itemCount: 2_000)
        let view: CollectionView
        var coordinator: PrefetchCoordinator<Int, String>?

        init(fetcher: AsyncFetcher<Int, String>) {
            view = ViewFixtures.makeCollectionView(recorder)
            view.prefetchDataSource = nil
            coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: view) { $0.item }
            view.layoutIfNeeded()
            view.step(to: Point(x: 0, y: 10_000), at: .milliseconds(16))
            coordinator?.scrollViewDidScroll(
                contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: .milliseconds(16))
        }
    }

    func interests(_ fetcher: AsyncFetcher<Int, String>, in keys: some Sequence<Int>) -> [Int: Int] {
        fetcher.core.state.withLock { state in
            Dictionary(uniqueKeysWithValues: keys.map { ($0, state.scheduler.interestCount(in: $0)) })
        }
    }

    @Test func releasingACoordinatorWithdrawsItsPrefetchesAndNoOneElses() async {
        // Given two screens on one fetcher, prefetching the same items
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 4) { key in try await gate.load(key) }
        let first = Screen(fetcher: fetcher)
        let second = Screen(fetcher: fetcher)
        let held = Set(first.coordinator!.prefetchedKeys.values)
        #expect(held.count > 8)
        #expect(held == Set(second.coordinator!.prefetchedKeys.values))
        #expect(interests(fetcher, in: held).values.allSatisfy { $0 == 2 })

        // When the first screen goes away
        first.coordinator = nil

        // Then each item keeps the other screen's interest alone, and no load is cancelled
        #expect(interests(fetcher, in: held).values.allSatisfy { $0 == 1 })
        #expect(gate.cancelled.isEmpty)

        // And when the second goes too, once its loads run, nothing is left asked for, and they are cancelled
        await gate.waitForStarts(4)
        second.coordinator = nil
        #expect(interests(fetcher, in: held).values.allSatisfy { $0 == 0 })
        await gate.waitForCancellations(4)
    }

    @Test func oneScreenWithdrawingAPrefetchLeavesAnothersLoadRunning() async {
        // Given two screens on one fetcher that both prefetch item 5 through UIKit's own window
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1_000) { key in try await gate.load(key) }
        let first = Screen(fetcher: fetcher)
        let second = Screen(fetcher: fetcher)
        let item = ItemPath(item: 5, section: 0)
        first.coordinator?.prefetchItems(at: [item])
        second.coordinator?.prefetchItems(at: [item])
        await waitUntil("item 5's load started") { gate.waiting.contains(5) }

        // When the first withdraws it (`cancelPrefetchingForItemsAt`)
        first.coordinator?.cancelPrefetchingForItems(at: [item])

        // Then the load goes on for the second, and lands in the cache
        #expect(interests(fetcher, in: [5])[5] == 1)
        guard gate.succeedIfWaiting(5, with: "photo 5") else {
            Issue.record("item 5's load ended with the first screen's withdrawal")
            return
        }
        await waitUntil("item 5 landed") { fetcher.fetchedData(for: 5) != nil }
        #expect(!gate.cancelled.contains(5))
        #expect(fetcher.fetchedData(for: 5) == "photo 5")
    }

    @Test func pausingWithdrawsWhatHasNotStartedAndLetsRunningLoadsFinish() async {
        // Given a screen whose prefetches fill the fetcher's 4 slots and queue the rest
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 4) { key in try await gate.load(key) }
        let screen = Screen(fetcher: fetcher)
        let coordinator = screen.coordinator!
        await gate.waitForStarts(4)
        let running = Set(gate.waiting)
        let held = Set(coordinator.prefetchedKeys.values)
        #expect(held.count > running.count)

        // When it pauses
        coordinator.isPaused = true

        // Then the queued prefetches are withdrawn, the running loads go on
        let after = interests(fetcher, in: held)
        for key in held.subtracting(running) { #expect(after[key] == 0, "key \(key)") }
        #expect(gate.cancelled.isEmpty)
        #expect(coordinator.prefetchedKeys.isEmpty)
        for key in running { #expect(gate.succeedIfWaiting(key, with: "photo \(key)")) }
        await fetcher.waitUntilIdle()
        for key in running { #expect(fetcher.fetchedData(for: key) == "photo \(key)") }

        // And while paused, scrolling asks for nothing ahead
        screen.view.step(to: Point(x: 0, y: 10_400), at: .milliseconds(32))
        coordinator.scrollViewDidScroll(
            contentOffset: screen.view.contentOffset, viewportSize: screen.view.bounds.size, at: .milliseconds(32))
        #expect(coordinator.prefetchedKeys.isEmpty)

        // And once resumed, the next frame asks for the window again
        coordinator.isPaused = false
        screen.view.step(to: Point(x: 0, y: 10_400), at: .milliseconds(48))
        coordinator.scrollViewDidScroll(
            contentOffset: screen.view.contentOffset, viewportSize: screen.view.bounds.size, at: .milliseconds(48))
        #expect(!coordinator.prefetchedKeys.isEmpty)
    }
}
