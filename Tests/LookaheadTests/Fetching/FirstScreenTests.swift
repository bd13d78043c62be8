import LookaheadTestSupport
import Testing

@testable import Lookahead

/// `prefetchFirstScreen(_:)`: a screen's loads started before its view
/// exists, ahead of what was waiting, and joined by its cells.
@Suite(.queuedOnTheMainActor)
@MainActor
struct FirstScreenTests {
    @MainActor final class Log {
        var values: [String] = []
    }

    @Test func theFirstScreenStartsAheadOfPrefetchesAndItsCellsJoinItsLoads() async {
        // Given one load at a time, busy with item 100, and items 101 and 102 prefetched after it
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1) { key in try await gate.load(key) }
        fetcher.prefetch(100)
        await gate.waitForStarts(1)
        fetcher.prefetch(101)
        fetcher.prefetch(102)

        // When a tap goes down on a row that opens items 1 and 2
        let firstScreen = fetcher.prefetchFirstScreen([1, 2])

        // Then they load next, before the prefetches queued earlier
        #expect(firstScreen.map(\.priority) == [.high, .high])
        gate.succeed(100, with: "item 100")
        await gate.waitForStarts(2)
        #expect(gate.started == [100, 1])

        // And the screen's cell for item 1 joins that load: one load, its value shown
        let log = Log()
        fetcher.requestDisplay(of: 1) { result in
            if case .success(let value) = result { log.values.append(value) }
        }
        gate.succeed(1, with: "item 1")
        await yieldUntil { !log.values.isEmpty }
        #expect(log.values == ["item 1"])
        await gate.waitForStarts(3)
        #expect(gate.started == [100, 1, 2])

        // And a first screen not shown after all stops when its handles are cancelled
        firstScreen.forEach { $0.cancel() }
        await gate.waitForCancellations(1)
        #expect(gate.cancelled == [2])
        await gate.waitForStarts(4)
        #expect(gate.started.last == 101)
    }
}
