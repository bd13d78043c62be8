import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite("Nested coordinator: carousels in a feed, prefetched on both axes", .queuedOnTheMainActor)
struct NestedCoordinatorTests {
    @Test("reuse hands the inner collection a new row, at the offset that row last had")
    func reuseRestoresTheRowsOffset() {
        // Given row 1's carousel swiped to 520 (items 4, 5, 6)
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        fixture.swipe(row: 1, to: 400)
        fixture.swipe(row: 1, to: 520)
        #expect(fixture.visibleItems(ofRow: 1) == [4, 5, 6])
        let cell = fixture.rowCell(1)
        // When the feed scrolls on until row 1's cell is reused for another row
        for y in stride(from: 20.0, through: 2_000, by: 20) { fixture.scrollFeed(to: y) }
        let reusedFor = fixture.feed.indexPath(for: cell)?.item
        #expect(reusedFor != nil && reusedFor != 1)
        // Then the inner collection shows that row from its own offset (never swiped: 0), under its link
        if let reusedFor {
            #expect(cell.link?.row == reusedFor)
            #expect(fixture.visibleItems(ofRow: reusedFor) == [0, 1, 2])
        }
        // And when the feed comes back, row 1 shows where it was left, in whichever cell
        for y in stride(from: 1_980.0, through: 0, by: -20) { fixture.scrollFeed(to: y) }
        #expect(fixture.rowCell(1).collectionView.contentOffset.x == 520)
        #expect(fixture.visibleItems(ofRow: 1) == [4, 5, 6])
        #expect(fixture.rowCell(1).link?.row == 1)
    }

    @Test("what the coordinator prefetches is what the nested planner plans on the feed's layout")
    func prefetchesWhatThePlannerPlans() {
        // Given a coordinated feed, and a planner fed the same frames on the same layout
        let fixture = NestedFeedFixture()
        var planner = NestedPrefetchPlanner(
            layout: NestedFeedFixture.layout, policy: .screens(leading: 2, trailing: 1), carouselPolicy: .system)
        var lastFeed: (y: Double, frame: ScrollFrame)?
        var lastCarousel: [Int: (time: Duration, x: Double)] = [:]
        // The feed's frames the coordinator plans: moved 5% of a screen, or 50 ms on, or a carousel's report
        var lastPlanned: (time: Duration, y: Double, velocity: Double)?
        func expectSame(_ step: String) {
            let keys = Set(planner.prefetched.map { NestedFeedFixture.key($0.row, $0.item) })
            #expect(fixture.prefetchedKeys == keys, "\(step)")
        }
        func scroll(to y: Double) {
            fixture.scrollFeed(to: y)
            let velocity = lastFeed.map { (y - $0.y) / (fixture.time - $0.frame.time).seconds } ?? 0
            let frame = ScrollFrame(
                visibleRect: Rect(x: 0, y: y, width: 390, height: 844), velocity: velocity, time: fixture.time)
            lastFeed = (y, frame)
            if let last = lastPlanned, fixture.time - last.time < .milliseconds(50), abs(y - last.y) < 0.05 * 844,
                abs(velocity - last.velocity) * 0.05 < 0.05 * 844
            {
                expectSame("feed at \(y), not planned")
                return
            }
            lastPlanned = (fixture.time, y, velocity)
            _ = planner.update(frame)
            expectSame("feed at \(y)")
        }
        func swipe(row: Int, to x: Double) {
            fixture.swipe(row: row, to: x)
            let velocity = lastCarousel[row].map { (x - $0.x) / (fixture.time - $0.time).seconds } ?? 0
            lastCarousel[row] = (fixture.time, x)
            guard var frame = lastFeed?.frame else { return }
            frame.time = fixture.time
            lastPlanned = (fixture.time, frame.visibleRect.minY, frame.velocity)
            _ = planner.update(frame, carousels: [.init(row: row, offset: x, velocity: velocity)])
            expectSame("row \(row) at \(x)")
        }
        // When the feed rests, then flings down and stops
        scroll(to: 0)
        scroll(to: 0)
        #expect(!fixture.prefetchedKeys.isEmpty)
        var y = 0.0
        for speed in [30.0, 60, 90, 60, 40, 20, 10, 5, 0] {
            y += speed
            scroll(to: y)
        }
        // And a carousel on screen is swiped and comes to rest
        let row = Int(y / 200) + 1
        for x in [30.0, 80, 150, 240, 330, 400, 440, 455, 460, 460] { swipe(row: row, to: x) }
        scroll(to: y)
        scroll(to: y)
        // Then the swiped carousel holds items ahead along its axis, as the planner says
        #expect(fixture.prefetchedKeys.contains(NestedFeedFixture.key(row, 8)))
        // And when the feed flings back up past the swiped row
        for step in 1...12 {
            y = max(0, y - Double(step) * 10)
            scroll(to: y)
        }
        scroll(to: y)
    }

    @Test("a frame of the feed that moves little soon after a planned one is not planned; a carousel's report is")
    func aFeedFrameThatMovesLittleIsNotPlanned() {
        // Given a feed scrolled at 1,200 pt/s (20 pt a frame) from 1,980 pt: planned at
        // 1,980 (the first frame), 2,000 (its speed changed) and 2,060 (60 pt on)
        let fixture = NestedFeedFixture()
        for y in stride(from: 1_980.0, through: 2_060, by: 20) { fixture.scrollFeed(to: y) }
        // Then the window of two screens ahead planned at 2,060 ends in row 22
        #expect(fixture.prefetchedKeys.contains(NestedFeedFixture.key(22, 0)))
        #expect(!fixture.prefetchedKeys.contains(NestedFeedFixture.key(23, 0)))
        // When the next frame, 20 pt on, would reach row 23
        fixture.scrollFeed(to: 2_080)
        // Then it is not planned, nor the one after it (40 pt on); the next, 60 pt on, is
        #expect(!fixture.prefetchedKeys.contains(NestedFeedFixture.key(23, 0)))
        fixture.scrollFeed(to: 2_100)
        #expect(!fixture.prefetchedKeys.contains(NestedFeedFixture.key(23, 0)))
        fixture.scrollFeed(to: 2_120)
        #expect(fixture.prefetchedKeys.contains(NestedFeedFixture.key(23, 0)))
        // And when a frame that is not planned would reach row 24, a carousel's report plans it at once
        for y in stride(from: 2_140.0, through: 2_280, by: 20) { fixture.scrollFeed(to: y) }
        #expect(!fixture.prefetchedKeys.contains(NestedFeedFixture.key(24, 0)))
        fixture.swipe(row: 12, to: 130)
        #expect(fixture.prefetchedKeys.contains(NestedFeedFixture.key(24, 0)))
    }

    @Test("an animated scroll of the feed, announced before it starts, asks for the rows where it lands at once")
    func anAnimatedScrollAsksForItsTargetAtOnce() {
        // Given a feed at rest near its end, with the default (adaptive) window of rows
        let fixture = NestedFeedFixture(policy: NestedPrefetchPlanner.defaultPolicy)
        fixture.scrollFeed(to: 6_000)
        fixture.scrollFeed(to: 6_000)
        let top = [NestedFeedFixture.key(0, 0), NestedFeedFixture.key(2, 0), NestedFeedFixture.key(3, 1)]
        #expect(Set(top).isDisjoint(with: fixture.prefetchedKeys))
        // When the app announces an animated scroll to the top, before it moves
        fixture.coordinator?.scrollViewWillAnimateScroll(
            to: .zero, contentOffset: fixture.feed.contentOffset, viewportSize: fixture.feed.bounds.size,
            at: fixture.time + NestedFeedFixture.frameTime)
        // Then the carousels on the first screen are asked for at once
        #expect(Set(top).isSubset(of: fixture.prefetchedKeys), "\(fixture.prefetchedKeys.sorted().prefix(20))")
    }

    @Test("a row scrolled away cancels its carousel's prefetches at the fetcher")
    func rowScrolledAwayCancels() async {
        // Given row 1's carousel swiped, its items ahead being loaded
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        fixture.swipe(row: 1, to: 100)
        fixture.swipe(row: 1, to: 260)
        let ahead = (5..<15).map { NestedFeedFixture.key(1, $0) }
        #expect(Set(ahead).isSubset(of: fixture.prefetchedKeys))
        await waitUntil("the loads of row 1's items ahead started") {
            Set(ahead).isSubset(of: Set(fixture.gate.started))
        }
        // When the feed scrolls far enough that row 1 is neither on screen nor coming
        for y in stride(from: 100.0, through: 2_400, by: 100) { fixture.scrollFeed(to: y) }
        // Then the fetcher cancels what its carousel asked for
        #expect(!fixture.prefetchedKeys.contains { $0 / 1_000 == 1 })
        await waitUntil("the loads of row 1's carousel were cancelled") {
            Set(ahead).isSubset(of: Set(fixture.gate.cancelled))
        }
    }

    @Test("the feed's rows and a carousel's items share one fetcher's concurrency limit")
    func innerAndOuterShareTheLimit() async {
        // Given a fetcher that runs 3 loads at a time
        let fixture = NestedFeedFixture(maxConcurrentLoads: 3)
        // When the feed moves (rows coming) and a carousel is swiped (items along its axis)
        fixture.scrollFeed(to: 0)
        fixture.scrollFeed(to: 40)
        fixture.swipe(row: 1, to: 130)
        fixture.swipe(row: 1, to: 390)
        let carouselKeys = Set((6..<16).map { NestedFeedFixture.key(1, $0) })
        #expect(carouselKeys.isSubset(of: fixture.prefetchedKeys))
        let rowKeys = fixture.prefetchedKeys.filter { $0 / 1_000 >= 5 }
        #expect(!rowKeys.isEmpty)
        // Then, as loads finish one by one, both kinds start, never more than 3 at once
        var finished = 0
        while !(carouselKeys.isSubset(of: Set(fixture.gate.started))
            && rowKeys.isSubset(of: Set(fixture.gate.started))),
            finished < 200
        {
            await fixture.gate.waitForStarts(finished + 1)
            let key = fixture.gate.started[finished]
            #expect(fixture.gate.inFlight <= 3)
            fixture.gate.succeed(key, with: "\(key)")
            finished += 1
        }
        #expect(carouselKeys.isSubset(of: Set(fixture.gate.started)))
        #expect(rowKeys.isSubset(of: Set(fixture.gate.started)))
        #expect(fixture.gate.maxInFlight == 3)
    }

    @Test("display requests of a reused inner collection, or of a row scrolled off, end in CancellationError")
    func displayRequestsEndOnReuse() async {
        // Given the visible carousels' cells waiting for their display requests
        let fixture = NestedFeedFixture()
        fixture.scrollFeed(to: 0)
        let coordinator = fixture.coordinator!
        #expect(coordinator.pendingDisplayPaths.contains(NestedItemPath(row: 0, item: 0)))
        #expect(coordinator.pendingDisplayPaths.count == 5 * 3)
        // When row 2's inner collection is handed row 20 (a reuse, told by registering again)
        let cell = fixture.rowCell(2)
        _ = coordinator.registerNested(cell.link, forRow: 20)
        // Then row 2's requests are withdrawn, and their completions get CancellationError
        #expect(!coordinator.pendingDisplayPaths.contains { $0.row == 2 })
        await waitUntil("row 2's three completions ran") { fixture.deliveries.count == 3 }
        // When the feed scrolls row 0 off the screen (its inner cells end displaying)
        fixture.scrollFeed(to: 250)
        #expect(!coordinator.pendingDisplayPaths.contains { $0.row == 0 })
        await waitUntil("row 0's three completions ran") { fixture.deliveries.count == 6 }
        for result in fixture.deliveries.all {
            guard case .failure(let error) = result, error is CancellationError else {
                Issue.record("expected a CancellationError, got \(result)")
                continue
            }
        }
    }
}
