import LookaheadTestSupport
import Testing

@testable import Lookahead

/// Rows' prefetching with the keys looked up on the main actor, from a list
/// that grows.
@Suite(.queuedOnTheMainActor)
@MainActor
struct RowPrefetcherTests {
    @Test func indicesBecomeTheKeysOfTheListAsItIsWhenApplied() async {
        // Given rows over four keys, with a fixed window of four
        let gate = LoadGate<String, Int>()
        let fetcher = AsyncFetcher<String, Int>(maxConcurrentLoads: 100) { key in try await gate.load(key) }
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 100)
        let rows = RowPrefetcher(
            prefetcher: prefetcher, keys: (0..<4).map { "a\($0)" }, window: .fixed(count: 4), debounce: .zero)
        // When the first rows appear, and the list grows before the update is applied
        rows.onAppear(0)
        rows.onAppear(1)
        rows.setKeys((0..<30).map { "a\($0)" })
        rows.onAppear(2)
        // Then the keys asked for are those of the rows ahead, read on the main actor
        await gate.waitForStarts(6)
        await waitUntil("the window reached the grown list") { Set(gate.started).contains("a6") }
        #expect(Set(gate.started) == Set((1...6).map { "a\($0)" }), "\(gate.started)")
        #expect(rows.keys.count == 30)
    }
}
