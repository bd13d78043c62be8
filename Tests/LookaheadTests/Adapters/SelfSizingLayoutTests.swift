import LookaheadTestSupport
import Testing

@testable import Lookahead

/// A self-sizing list (estimated heights: `UITableView.automaticDimension`,
/// a compositional list) changes its content size whenever a cell is
/// measured. That is not the layout changing: the coordinator samples the
/// layout again when the viewport nears the sample's edge, when the item
/// counts change, or when the app says so — not on every frame.
@Suite(.queuedOnTheMainActor)
@MainActor
struct SelfSizingLayoutTests {
    /// A list whose content grows a little on every frame, as cells are
    /// measured, and which counts the frame queries it answers.
    final class MeasuringList: PrefetchLayoutSource {
        var layout = ListLayout(width: 390, rowHeight: 100, rowCount: 10_000)
        /// What measuring the cells seen so far added to the estimate.
        var measured = 0.0
        private(set) var frameQueries = 0
        var contentSize: Size { Size(width: 390, height: layout.contentSize.height + measured) }
        var numberOfSections: Int { layout.numberOfSections }
        func numberOfItems(inSection section: Int) -> Int { layout.numberOfItems(inSection: section) }
        func itemFrames(in rect: Rect) -> [ItemFrame] {
            frameQueries += 1
            return layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
        }
    }

    func coordinator(over list: MeasuringList) -> PrefetchCoordinator<Int, Int> {
        let fetcher = AsyncFetcher<Int, Int>(maxConcurrentLoads: 6) { key in key }
        return PrefetchCoordinator(fetcher: fetcher, layoutSource: list) { $0.item }
    }

    @Test func aContentSizeThatGrowsAsCellsAreMeasuredSamplesRarely() {
        // Given a list scrolling at 600 pt/s for 5 s at 120 Hz, its content growing 2 pt a frame
        let list = MeasuringList()
        let coordinator = coordinator(over: list)
        let viewport = Size(width: 390, height: 844)
        for frame in 0..<600 {
            list.measured += 2
            coordinator.scrollViewDidScroll(
                contentOffset: Point(x: 0, y: 20_000 + Double(frame) * 5), viewportSize: viewport,
                at: .milliseconds(8) * frame)
        }

        // Then the layout was sampled a few times over 3,000 pt (about 3.5 screens), not once a frame
        #expect(list.frameQueries <= 3, "\(list.frameQueries) queries")
        // And the planner still holds what lies ahead
        let below = coordinator.planner.prefetchedPaths.filter { $0.item * 100 > 23_000 + 844 }
        #expect(!below.isEmpty)
    }

    @Test func itemsAddedAreSampledAtTheNextFrame() {
        // Given a list at rest, its layout sampled
        let list = MeasuringList()
        let coordinator = coordinator(over: list)
        let viewport = Size(width: 390, height: 844)
        coordinator.scrollViewDidScroll(contentOffset: Point(x: 0, y: 999_000), viewportSize: viewport, at: .zero)
        let sampled = list.frameQueries

        // When a page of items is appended and the content grows with it (no call to the coordinator)
        list.layout = ListLayout(width: 390, rowHeight: 100, rowCount: 10_100)
        coordinator.scrollViewDidScroll(
            contentOffset: Point(x: 0, y: 999_000), viewportSize: viewport, at: .milliseconds(8))

        // Then the next frame sampled the layout again, and the new items are in the planner's reach
        #expect(list.frameQueries == sampled + 1)
        #expect(coordinator.planner.prefetchedPaths.contains { $0.item >= 10_000 })
    }
}
