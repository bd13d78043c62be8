import LookaheadTestSupport
import Testing

@testable import Lookahead

/// A SwiftUI row's display request (what `FetchedContent` forwards to): made
/// on appear, lowered or withdrawn on disappear, raised when the row comes
/// back, ignored once the row shows another key.
@Suite(.queuedOnTheMainActor)
@MainActor
struct RowDisplayTests {
    final class Shown {
        var values: [String] = []
    }

    @Test func aRowAsksWhenItAppearsAndGetsTheValueOnTheMainActor() async {
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String> { key in try await gate.load(key) }
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        let shown = Shown()

        // When the row appears, its value is asked for at the display priority
        let cached = row.appeared(key: 1, from: .fetcher(fetcher, priority: .high)) { shown.values.append($0) }
        #expect(cached == nil)
        await gate.waitForStarts(1)
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .running(.high))

        // Then the value reaches the row
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
        await Task.yield()
        while shown.values.isEmpty { await Task.yield() }
        #expect(shown.values == ["one"])

        // And a cached value is returned at once, with no request
        #expect(row.appeared(key: 1, from: .fetcher(fetcher, priority: .high)) { _ in } == "one")
    }

    @Test func lowerPriorityKeepsTheRequestAndRaisesItWhenTheRowReturns() async {
        // Given one slot taken, and a row waiting for key 2
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1) { key in try await gate.load(key) }
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        _ = row.appeared(key: 2, from: .fetcher(fetcher, priority: .high)) { _ in }

        // When it disappears, the request waits at .low; when it reappears, back at .high
        row.disappeared(from: .fetcher(fetcher, priority: .high))
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .pending(.low))
        _ = row.appeared(key: 2, from: .fetcher(fetcher, priority: .high)) { _ in }
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .pending(.high))
        #expect(fetcher.withScheduler { $0.interestCount(in: 2) } == 1)

        row.ended()
        gate.succeed(0, with: "zero")
        await fetcher.waitUntilIdle()
    }

    @Test func lowerPriorityThroughACoordinatorKeepsTheRequestAsACellThatLeft() async {
        // Given a row of a list a coordinator drives, waiting for its item
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let path = fixture.coordinator.planner.visibleItems[0]
        let source = RowDisplay<Int, String>.Source.coordinator(fixture.coordinator, path: path)
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        let shown = Shown()
        _ = row.appeared(key: path.item, from: source) { shown.values.append($0) }
        await waitUntil("the row's load started") { fixture.gate.waiting.contains(path.item) }

        // When it disappears and comes back before its load lands
        row.disappeared(from: source)
        #expect(fixture.coordinator.pendingDisplayPaths.contains(path), "kept, as a UIKit cell that left")
        _ = row.appeared(key: path.item, from: source) { shown.values.append($0) }

        // Then the one request is still there, and its value reaches the row
        #expect(fixture.gate.succeedIfWaiting(path.item, with: "photo \(path.item)"))
        await waitUntil("the value reached the row") { !shown.values.isEmpty }
        #expect(shown.values == ["photo \(path.item)"])
    }

    @Test func cancelWithdrawsTheRequest() async {
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1) { key in try await gate.load(key) }
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        let row = RowDisplay<Int, String>(onDisappear: .cancel)
        _ = row.appeared(key: 3, from: .fetcher(fetcher, priority: .high)) { _ in }

        row.disappeared(from: .fetcher(fetcher, priority: .high))

        #expect(fetcher.withScheduler { $0.interestCount(in: 3) } == 0)
        gate.succeed(0, with: "zero")
        await fetcher.waitUntilIdle()
    }

    @Test func aRowShowingAnotherKeyDropsTheOldRequestAndIgnoresItsValue() async {
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String> { key in try await gate.load(key) }
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        let shown = Shown()
        _ = row.appeared(key: 4, from: .fetcher(fetcher, priority: .high)) { shown.values.append($0) }
        await gate.waitForStarts(1)

        // When the row is given key 5 before 4 arrives
        _ = row.appeared(key: 5, from: .fetcher(fetcher, priority: .high)) { shown.values.append($0) }
        await gate.waitForStarts(2)

        // Then 4's request was withdrawn, and only 5's value is shown
        #expect(fetcher.withScheduler { $0.interestCount(in: 4) } == 0)
        gate.succeedIfWaiting(4, with: "four")
        gate.succeed(5, with: "five")
        await fetcher.waitUntilIdle()
        while shown.values.isEmpty { await Task.yield() }
        #expect(shown.values == ["five"])
    }
}
