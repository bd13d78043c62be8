import LookaheadTestSupport
import Testing

@testable import Lookahead

/// What `.lookaheadPrefetching(_:keys:geometry:)` and `FetchedContent(key, in:)`
/// forward to, as SwiftUI drives them: the view built again with another
/// width or more items, rows appearing and disappearing as the list is
/// flung, a row given another key, a load that fails.
@Suite(.queuedOnTheMainActor)
@MainActor
struct SwiftUIRowsTests {
    /// A coordinator made for SwiftUI, its rows, and the rows on screen.
    @MainActor
    final class Grid {
        let gate = LoadGate<Int, String>()
        let fetcher: AsyncFetcher<Int, String>
        let coordinator: PrefetchCoordinator<Int, String>
        var keys = Array(0..<3_000)
        var width = 390.0
        let geometry = ItemGeometry.grid(columns: 3, spacing: 2)
        /// The rows SwiftUI has made, by key.
        var rows: [Int: RowDisplay<Int, String>] = [:]
        var time = Duration.zero

        init(maxConcurrentLoads: Int = 10_000) {
            let gate = gate
            fetcher = AsyncFetcher(maxConcurrentLoads: maxConcurrentLoads) { key in try await gate.load(key) }
            coordinator = PrefetchCoordinator(fetcher: fetcher)
            build()
        }

        /// SwiftUI builds the view: the modifier hands the keys, shape and width.
        func build() {
            coordinator.rows?.viewportHeight = 844
            coordinator.update(keys: keys, geometry: geometry, width: width)
        }

        var layout: any CollectionLayout { geometry.layout(width: width, itemCount: keys.count) }

        /// The keys of the rows a lazy grid makes at offset `y` (the screen, and a little more).
        func keysShown(at y: Double) -> Set<Int> {
            Set(layout.itemPaths(in: Rect(x: 0, y: y - 50, width: width, height: 944)).map { keys[$0.item] })
        }

        /// One frame at `y`: rows appear and disappear as SwiftUI makes and drops them.
        func show(_ y: Double, after elapsed: Duration = .milliseconds(16)) {
            time += elapsed
            let now = keysShown(at: y)
            for (key, row) in rows where !now.contains(key) {
                row.disappeared(from: .coordinator(coordinator, path: nil), at: time)
                rows[key] = nil
            }
            for key in now.sorted() where rows[key] == nil {
                let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
                rows[key] = row
                _ = row.appeared(key: key, from: .coordinator(coordinator, path: nil), at: time) { _ in }
            }
        }

        /// The display requests still waiting, by key.
        var waiting: [Int: FetchTask] {
            Dictionary(
                uniqueKeysWithValues: rows.compactMap { key, row in
                    coordinator.displayRequest(of: row).map { (key, $0.request) }
                })
        }
    }

    @Test func aWidthChangeKeepsTheVisibleRowsRequests() {
        // Given a grid at rest in portrait, its visible rows waiting for their loads
        let grid = Grid()
        grid.show(6_000)
        grid.show(6_000, after: .seconds(1))
        let visible = grid.keysShown(at: 6_000)
        #expect(visible.allSatisfy { grid.waiting[$0]?.isPending == true })

        // When the device rotates: the view is built 844 pt wide, SwiftUI keeping the first row in view
        let first = visible.min()!
        grid.width = 844
        grid.build()
        let y = grid.layout.frame(at: ItemPath(item: first, section: 0)).minY
        grid.show(y)
        grid.show(y, after: .seconds(1))

        // Then every row still on screen keeps its request, none demoted or withdrawn as out of reach
        let still = visible.intersection(grid.keysShown(at: y))
        #expect(!still.isEmpty)
        for key in still {
            #expect(grid.waiting[key]?.isPending == true, "row \(key)")
            #expect(grid.waiting[key].map { $0.priority > .veryLow } == true, "row \(key)")
        }
    }

    @Test func itemsAppendedLaterAreRequested() {
        // Given the end of the list reached
        let grid = Grid()
        grid.keys = Array(0..<60)
        grid.build()
        let bottom = grid.layout.contentSize.height - 844
        grid.show(bottom)
        grid.show(bottom, after: .seconds(1))
        #expect(grid.coordinator.planner.prefetchedPaths.allSatisfy { $0.item < 60 })

        // When a page of 60 more arrives and the view is built with them
        grid.keys = Array(0..<120)
        grid.build()
        grid.show(bottom)

        // Then the new items below the screen are prefetched
        #expect(grid.coordinator.planner.prefetchedPaths.contains { $0.item >= 60 })
        #expect(grid.fetcher.liveRequests.contains { $0.key >= 60 })
    }

    @Test func rowsFlungPastStopLoading() {
        // Given a grid at its top, loading six at a time
        let grid = Grid(maxConcurrentLoads: 6)
        grid.show(0)
        grid.show(0, after: .seconds(1))

        // When it is flung 30,000 pt down in half a second and rests there
        for frame in 1...30 { grid.show(Double(frame) * 1_000) }
        let passed = Set((0..<3_000).filter { grid.layout.frame(at: ItemPath(item: $0, section: 0)).maxY < 29_000 })
        grid.show(30_000, after: .seconds(1))
        grid.show(30_000, after: .milliseconds(100))

        // Then the rows flung past have let go of their loads: at most the
        // six that were loading finish, none waits for a slot
        let behind = Set(grid.fetcher.liveRequests.map(\.key).filter { passed.contains($0) })
        #expect(behind.count <= 6, "\(behind.count) loads of rows flung past")
        // (running as the fetcher sees it: a started load's task may not have reached the loader yet)
        #expect(behind.allSatisfy { grid.fetcher.runningAttempt(of: $0) != nil }, "only loads already running")
    }

    @Test func aRowGivenAnotherKeyAsksForItAndShowsOnlyIt() async {
        // Given a row showing key 10, waiting
        let grid = Grid()
        grid.show(0)
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        var shown: [String] = []
        _ = row.appeared(key: 10, from: .coordinator(grid.coordinator, path: nil)) { shown.append($0) }
        let first = grid.coordinator.displayRequest(of: row)
        #expect(first?.key == 10)

        // When SwiftUI gives the row key 11 (`.onChange(of: key)`)
        _ = row.appeared(key: 11, from: .coordinator(grid.coordinator, path: nil)) { shown.append($0) }

        // Then it waits on 11, the request for 10 withdrawn
        #expect(grid.coordinator.displayRequest(of: row)?.key == 11)
        #expect(first?.request.isPending == false)
        grid.gate.succeedIfWaiting(10, with: "ten")
        await waitUntil("row 11's load started") { grid.gate.waiting.contains(11) }
        grid.gate.succeed(11, with: "eleven")
        await waitUntil("the value reached the row") { !shown.isEmpty }
        #expect(shown == ["eleven"])
    }

    @Test func aFailedLoadReachesTheRowAndARetryAsksAgain() async {
        // Given a row waiting for key 7
        let grid = Grid()
        let row = RowDisplay<Int, String>(onDisappear: .lowerPriority)
        var failures: [String] = []
        var values: [String] = []
        _ = row.appeared(key: 7, from: .coordinator(grid.coordinator, path: nil)) {
            values.append($0)
        } failed: {
            failures.append(String(describing: $0))
        }
        await waitUntil("the load started") { grid.gate.waiting.contains(7) }

        // When its load fails for good
        grid.gate.fail(7, with: TestError(message: "gone"))
        await waitUntil("the failure reached the row") { !failures.isEmpty }

        // Then the row hears it; and asking again loads again
        _ = row.appeared(key: 7, from: .coordinator(grid.coordinator, path: nil)) { values.append($0) }
        await waitUntil("the retry started") { grid.gate.waiting.contains(7) }
        grid.gate.succeed(7, with: "seven")
        await waitUntil("the value reached the row") { !values.isEmpty }
        #expect(values == ["seven"])
    }
}
