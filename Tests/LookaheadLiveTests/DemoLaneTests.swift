// A demo grid runs its strategy as an app would: the adaptive grid's cells
// ask through the coordinator that plans its prefetches.

import Lookahead
import Testing

@testable import LookaheadLive

@Suite("Demo grids", .timeLimit(.minutes(1)))
struct DemoLaneTests {
    /// A feed whose items never arrive (until cancelled): every request stays waiting.
    static let silentFeed = DemoFeed(
        identifiers: { Array(1...200) },
        item: { id in
            try await Task.sleep(for: .seconds(3_600))
            return DemoItem(id: id, byteCount: 0)
        })

    @Test("the adaptive grid's cells ask through its coordinator, at the planner's priority; UIKit's do not")
    @MainActor
    func cellsAskThroughTheCoordinator() throws {
        for strategy in [DemoStrategy.adaptive, .system] {
            // Given a grid of 200 items whose loads never land
            let configuration = try DemoConfiguration.parse(strategy: strategy.rawValue, items: 200)
            let geometry = DemoSession.geometry(terminalWidth: 100, terminalHeight: 30, lanes: 1)
            let lane = DemoLane(
                strategy: strategy, configuration: configuration, identifiers: Array(1...200), feed: Self.silentFeed,
                geometry: geometry)

            // When it shows its first frame
            lane.step(to: Point(x: 0, y: 0), at: .zero)

            // Then the adaptive grid's coordinator holds a display request for
            // every visible cell; UIKit's window has no coordinator
            let visible = Set(lane.collectionView.indexPathsForVisibleItems)
            #expect(!visible.isEmpty)
            if strategy == .adaptive {
                let coordinator = try #require(lane.coordinator)
                #expect(coordinator.pendingDisplayPaths == visible)
            } else {
                #expect(lane.coordinator == nil)
            }
            _ = lane.finish(wasInterrupted: false)
        }
    }
}
