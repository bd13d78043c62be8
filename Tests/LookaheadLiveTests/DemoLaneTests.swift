// A demo grid runs its strategy as an app would: the adaptive grid's cells
// ask through the coordinator that plans its prefetches.

#if Tools
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadHeadless
@testable import LookaheadLive

@Suite("Demo grids", .queuedOnTheMainActor)
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

    @Test("the adaptive grid's coordinator hears an animated scroll's target before the scroll moves")
    @MainActor
    func anAnnouncedAnimatedScrollAsksForItsTargetAtOnce() throws {
        // Given two adaptive grids of 2,000 items at rest far down, whose loads never land
        let configuration = try DemoConfiguration.parse(strategy: "adaptive", items: 2_000)
        let geometry = DemoSession.geometry(terminalWidth: 100, terminalHeight: 30, lanes: 1)
        let identifiers = Array(1...2_000)
        let lanes = (0..<2).map { _ in
            DemoLane(
                strategy: .adaptive, configuration: configuration, identifiers: identifiers, feed: Self.silentFeed,
                geometry: geometry)
        }
        let frame = Duration.milliseconds(16)
        let farDown = Point(x: 0, y: DemoGeometry.cellPoints * 150)
        for lane in lanes {
            lane.step(to: farDown, at: .zero)
            lane.step(to: farDown, at: frame)
        }
        let top = lanes[0].collectionView.itemFrames(in: Rect(origin: .zero, size: lanes[0].collectionView.bounds.size))
            .map { identifiers[$0.path.item] }
        #expect(!top.isEmpty)

        // When one is told of an animated scroll to the top, and the other is not
        lanes[0].step(to: farDown, at: frame * 2, announcing: .animatedScroll(target: 0))
        lanes[1].step(to: farDown, at: frame * 2)

        // Then the told grid asks for the top's items at once, and the other does not
        let told = try #require(lanes[0].coordinator)
        let untold = try #require(lanes[1].coordinator)
        #expect(Set(top).isSubset(of: Set(told.prefetchedKeys.values)))
        #expect(Set(top).isDisjoint(with: Set(untold.prefetchedKeys.values)))
        for lane in lanes { _ = lane.finish(wasInterrupted: false) }
    }
}
#endif
