import LookaheadTestSupport
import Testing

@testable import Lookahead

/// The layout a coordinator builds from the frames a source reports around
/// the viewport, and how rarely it asks for them.
@Suite(.queuedOnTheMainActor)
@MainActor
struct SampledLayoutTests {
    let grid = UniformGridLayout(width: 390, columns: 3, itemCount: 3_000, spacing: 2)

    func sample(_ band: Rect) -> SampledLayout {
        SampledLayout(
            contentSize: grid.contentSize, itemCounts: [grid.totalItemCount], band: band,
            reported: FixedLayoutSource(layout: grid).itemFrames(in: band))
    }

    @Test func insideTheBandItAnswersAsTheLayoutDoes() {
        // Given a sample of ten screens of a grid
        let band = Rect(x: 0, y: 20_000, width: 390, height: 8_440)
        let sampled = sample(band)
        // Then every rectangle inside it holds the grid's items, at the grid's frames
        var random = SeededRandom(seed: 12)
        for _ in 0..<200 {
            let y = band.minY + Double.random(in: 0..<1, using: &random) * (band.height - 900)
            let rect = Rect(x: 0, y: y, width: 390, height: 1 + Double.random(in: 0..<1, using: &random) * 880)
            #expect(sampled.itemPaths(in: rect) == grid.itemPaths(in: rect), "seed 12, rect \(rect)")
            for path in sampled.itemPaths(in: rect) {
                #expect(sampled.frame(at: path) == grid.frame(at: path))
            }
        }
        #expect(sampled.columns == 3)
        #expect(sampled.totalItemCount == grid.totalItemCount)
    }

    @Test func outsideTheBandFramesKeepTheirOrder() {
        // Given a sample in the middle of the grid
        let sampled = sample(Rect(x: 0, y: 20_000, width: 390, height: 8_440))
        let first = sampled.itemPaths(in: Rect(x: 0, y: 20_000, width: 390, height: 1)).first!
        // Then items before it are placed above the band, items after it below
        let before = sampled.frame(at: ItemPath(item: first.item - 30, section: 0))
        let after = sampled.frame(at: ItemPath(item: 2_900, section: 0))
        #expect(before.maxY <= 20_000)
        #expect(after.minY >= 28_440)
        #expect(sampled.itemPaths(in: Rect(x: 0, y: 0, width: 390, height: 1_000)).isEmpty)
    }

    @Test func framesThatDisagreeWithTheCountsAreDropped() {
        // Given frames for paths out of range, and a non-finite frame
        let reported = [
            ItemFrame(path: ItemPath(item: 0, section: 0), frame: Rect(x: 0, y: 0, width: 10, height: 10)),
            ItemFrame(path: ItemPath(item: 5, section: 0), frame: Rect(x: 0, y: 10, width: 10, height: 10)),
            ItemFrame(path: ItemPath(item: 0, section: 3), frame: Rect(x: 0, y: 20, width: 10, height: 10)),
            ItemFrame(path: ItemPath(item: 1, section: 0), frame: Rect(x: 0, y: .nan, width: 10, height: 10)),
        ]
        let sampled = SampledLayout(
            contentSize: Size(width: 10, height: 40), itemCounts: [2], band: Rect(x: 0, y: 0, width: 10, height: 40),
            reported: reported)
        // Then only the valid one is kept, without a trap
        #expect(sampled.itemPaths(in: Rect(x: 0, y: 0, width: 10, height: 40)) == [ItemPath(item: 0, section: 0)])
    }

    @Test func rowsOutOfPathOrderAndRepeatedReportsAreKeptAsReported() {
        // Given a masonry of two columns whose items' tops are not in path
        // order, reported shuffled, one item twice (the later report wins)
        var random = SeededRandom(seed: 7)
        var tops = [0.0, 0.0]
        var truth: [ItemFrame] = []
        for item in 0..<200 {
            let column = item % 2
            let height = 50 + Double.random(in: 0..<1, using: &random) * 250
            truth.append(
                ItemFrame(
                    path: ItemPath(item: item, section: 0),
                    frame: Rect(x: Double(column) * 100, y: tops[column], width: 100, height: height)))
            tops[column] += height
        }
        let stale = ItemFrame(path: ItemPath(item: 40, section: 0), frame: Rect(x: 0, y: 1, width: 100, height: 1))
        let reported = [stale] + truth.shuffled(using: &random)
        let height = tops.max()!
        let sampled = SampledLayout(
            contentSize: Size(width: 200, height: height), itemCounts: [200],
            band: Rect(x: 0, y: 0, width: 200, height: height), reported: reported)
        // Then every rectangle holds the items whose frames meet it, ascending, at their frames
        for _ in 0..<100 {
            let y = Double.random(in: 0..<1, using: &random) * height
            let rect = Rect(x: 0, y: y, width: 200, height: Double.random(in: 1..<600, using: &random))
            let expected = truth.filter { $0.frame.intersects(rect) }.map(\.path)
            #expect(sampled.itemPaths(in: rect) == expected, "seed 7, rect \(rect)")
        }
        for item in truth { #expect(sampled.frame(at: item.path) == item.frame) }
    }

    @Test func theSourceIsAskedAgainOnlyNearTheEdgeOfTheSample() {
        // Given a coordinator over a source that counts its frame queries
        let source = CountingLayoutSource(layout: ListLayout(width: 390, rowHeight: 100, rowCount: 10_000))
        let fetcher = AsyncFetcher<Int, Int>(maxConcurrentLoads: 10_000) { key in key }
        let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: source) { $0.item }
        let viewport = Size(width: 390, height: 844)
        // When the list is scrolled a screen at a time, slowly
        var queriesAt: [Int] = []
        for screen in 0..<12 {
            coordinator.scrollViewDidScroll(
                contentOffset: Point(x: 0, y: Double(screen) * 844), viewportSize: viewport,
                at: .seconds(screen))
            queriesAt.append(source.queries)
        }
        // Then the first frame samples, and the next only once the viewport nears the edge
        #expect(queriesAt[0] == 1)
        #expect(queriesAt[1] == 1)
        #expect(queriesAt[11] <= 4, "\(queriesAt)")
    }
}

/// A layout source that counts how often its frames are asked for.
@MainActor
final class CountingLayoutSource: PrefetchLayoutSource {
    let base: FixedLayoutSource
    private(set) var queries = 0

    init(layout: any CollectionLayout) {
        base = FixedLayoutSource(layout: layout)
    }

    var contentSize: Size { base.contentSize }
    var numberOfSections: Int { base.numberOfSections }
    func numberOfItems(inSection section: Int) -> Int { base.numberOfItems(inSection: section) }
    func itemFrames(in rect: Rect) -> [ItemFrame] {
        queries += 1
        return base.itemFrames(in: rect)
    }
}
