import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// The coordinator driven through a headless collection view, as the UIKit
/// glue drives it: adaptive prefetching from reported frames, the landing
/// zone from the drag's target, display priorities, cancel on reuse, reloads
/// and memory trim.
@Suite(.queuedOnTheMainActor)
@MainActor
struct PrefetchCoordinatorTests {
    /// A drag at 1 500 pt/s, then a fling released at 9 000 pt/s decelerating
    /// as UIScrollView does, then rest: offsets per frame from `start`.
    func dragThenFling(from start: Double) -> [Double] {
        var offsets: [Double] = []
        var y = start
        for _ in 0..<30 {
            y += 1_500.0 / 60
            offsets.append(y)
        }
        let release = y
        for frame in 1...90 {
            offsets.append(release + ScrollPhysics.distance(after: Double(frame) / 60, velocity: 9_000))
        }
        return offsets + Array(repeating: offsets.last!, count: 10)
    }

    @Test func plansWhatThePlannerPlansOnTheTrueLayout() {
        // Given a coordinator over a headless grid, and a planner over the grid's own layout
        let fixture = CoordinatorFixture()
        var reference = PrefetchPlanner(layout: fixture.view.collectionViewLayout, policy: .adaptive)
        let queue = LoadQueueState(pending: 0, maxConcurrentLoads: 10_000)
        var time = Duration.zero
        var lastY = 0.0
        var cancelled = 0
        var lastPlanned: (time: Duration, y: Double, velocity: Double)?
        // When the same frames are reported to both, the planner planning
        // those the coordinator plans (moved 5% of a screen, or changed speed
        // by as much per 50 ms, or 50 ms on)
        for y in [0.0] + dragThenFling(from: 0) {
            fixture.scroll(to: y)
            let rect = fixture.view.bounds
            let velocity = time == .zero ? 0 : (rect.minY - lastY) / (fixture.time - time).seconds
            time = fixture.time
            lastY = rect.minY
            if let last = lastPlanned, time - last.time < .milliseconds(50),
                abs(rect.minY - last.y) < 0.05 * rect.height, abs(velocity - last.velocity) * 0.05 < 0.05 * rect.height
            {
                continue
            }
            lastPlanned = (time, rect.minY, velocity)
            let update = reference.update(
                ScrollFrame(visibleRect: rect, velocity: velocity, time: time), loadQueue: queue)
            cancelled += update.cancel.count
            // Then the coordinator holds the same items prefetched, by their keys
            #expect(fixture.coordinator.planner.prefetched == reference.prefetched, "at offset \(y)")
            #expect(fixture.prefetchedKeys == Set(reference.prefetched.map(\.item)), "at offset \(y)")
        }
        // And the motion made the window move: items were cancelled on the way
        // (that cancels reach the fetcher is the reload and delete tests' business)
        #expect(cancelled > 0)
    }

    @Test func aFrameThatMovesLittleSoonAfterAPlannedOneIsNotPlanned() {
        // Given a grid at rest, planned
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        fixture.scroll(to: 10_000, after: .seconds(1))
        func lastPlannedY() -> Double? { fixture.coordinator.planner.lastFrame?.visibleRect.minY }
        /// Frames 8 ms apart, `step` points each, numbered from `y`.
        func crawl(from y: Double, by step: Double, frames: ClosedRange<Int>) {
            for frame in frames { fixture.scroll(to: y + step * Double(frame), after: .milliseconds(8)) }
        }
        // When a scroll at 1,062.5 pt/s starts, 8.5 pt every 8 ms
        crawl(from: 10_000, by: 8.5, frames: 1...1)
        // Then its first frame is planned (its speed changed by more than a twentieth of the 844-pt screen per 50 ms)
        #expect(lastPlannedY() == 10_008.5)
        // And the next ones, at the same speed, are not until they moved a twentieth of a screen from it
        crawl(from: 10_000, by: 8.5, frames: 2...5)
        #expect(lastPlannedY() == 10_008.5)
        crawl(from: 10_000, by: 8.5, frames: 6...6)
        #expect(lastPlannedY() == 10_051)

        // And when, after a rest, a slow scroll starts (400 pt/s, 3.2 pt every 8 ms)
        fixture.scroll(to: 20_000, after: .seconds(1))
        fixture.scroll(to: 20_000, after: .seconds(1))
        #expect(lastPlannedY() == 20_000)
        crawl(from: 20_000, by: 3.2, frames: 1...6)
        // Then it is not planned within 50 ms of the last planned frame, and is after
        #expect(lastPlannedY() == 20_000)
        crawl(from: 20_000, by: 3.2, frames: 7...7)
        #expect(lastPlannedY() == 20_000 + 3.2 * 7)
    }

    @Test func aFlingAnnouncedAtTheEndOfTheDragAsksForItsLandingAtOnce() {
        // Given a grid at rest
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        fixture.scroll(to: 10_000)
        #expect(fixture.coordinator.planner.visibleItems.first.map { $0.item } ?? 0 > 300)
        // When a drag ends in a fling whose target is far beyond any window
        let target = 40_000.0
        fixture.endDragging(at: 10_050, velocity: 14_000, target: target)
        // Then the items where it lands are asked for on that very report
        let landing = fixture.view.itemFrames(in: Rect(x: 0, y: target, width: 390, height: 844)).map(\.path.item)
        #expect(!landing.isEmpty)
        #expect(Set(landing).isSubset(of: fixture.prefetchedKeys))
    }

    /// How an app announces an animated scroll: on a report of its own
    /// (UIKit's glue), or for the view's next report (SwiftUI's, whose
    /// clock the app does not have).
    enum AnimatedScrollAnnouncement: CaseIterable {
        case timed
        case atNextReport
    }

    @Test(arguments: AnimatedScrollAnnouncement.allCases)
    func anAnimatedScrollAnnouncedBeforeItStartsAsksForItsTarget(_ announcement: AnimatedScrollAnnouncement) {
        // Given a grid at rest far down, and the same grid told nothing
        let fixture = CoordinatorFixture()
        let unannounced = CoordinatorFixture()
        for grid in [fixture, unannounced] {
            grid.scroll(to: 30_000)
            grid.scroll(to: 30_000)
        }
        let top = fixture.view.itemFrames(in: Rect(x: 0, y: 0, width: 390, height: 844)).map(\.path.item)
        #expect(!top.isEmpty && Set(top).isDisjoint(with: fixture.prefetchedKeys))
        // When the app announces an animated scroll to the top, before it moves
        switch announcement {
        case .timed:
            fixture.animateScroll(to: 0)
            // Then the items at the top are asked for at once
            #expect(Set(top).isSubset(of: fixture.prefetchedKeys))
        case .atNextReport:
            fixture.coordinator.scrollViewWillAnimateScroll(to: .zero)
            // Then nothing is asked for until the view reports
            #expect(Set(top).isDisjoint(with: fixture.prefetchedKeys))
        }
        // And the animation's first report asks for them (or still does),
        // where without the announcement that report does not reach the top
        fixture.scroll(to: 29_000)
        unannounced.scroll(to: 29_000)
        #expect(Set(top).isSubset(of: fixture.prefetchedKeys))
        #expect(Set(top).isDisjoint(with: unannounced.prefetchedKeys))
    }

    @Test func displayRequestsFollowThePlannersPriorityAndEndWithTheCell() async {
        // Given a grid at rest, and a display request for each visible cell
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 10_000)
        let deliveries = Deliveries<String>()
        var requests: [ItemPath: FetchTask] = [:]
        for path in fixture.coordinator.planner.visibleItems {
            requests[path] = fixture.coordinator.requestDisplay(at: path, for: fixture.cell(at: path)) {
                deliveries.record($0)
            }
        }
        #expect(requests.values.allSatisfy { $0.priority == .high })
        // When a fast fling is announced, and the next frame comes
        fixture.endDragging(at: 10_020, velocity: 15_000, target: 40_000)
        let planned = Dictionary(
            uniqueKeysWithValues: requests.keys.map { ($0, fixture.coordinator.planner.displayPriority(for: $0)) })
        fixture.scroll(to: 10_160)
        // Then the cells it carries away ask at low priority, as the planner said on the fling's frame
        // (a frame's requests are re-ranked with the plan of the frame before, as the simulator measures)
        for (path, request) in requests {
            #expect(request.priority == planned[path], "\(path)")
        }
        #expect(requests.values.contains { $0.priority == .low })
        // And when a cell leaves the screen, its request goes on at the lowest priority (UIKit may show it again)
        let top = fixture.coordinator.planner.visibleItems[0]
        fixture.coordinator.didEndDisplaying(fixture.cell(at: top))
        #expect(requests[top]?.isPending == true)
        #expect(requests[top]?.priority == .veryLow)
        #expect(deliveries.count == 0)
        // And when the list comes to rest, the others ask at high priority again
        fixture.coordinator.scrollViewDidEndFling()
        fixture.scroll(to: 10_020, after: .seconds(1))
        fixture.scroll(to: 10_020, after: .milliseconds(50))
        for (path, request) in requests where path != top {
            #expect(request.priority == .high, "\(path)")
        }
    }

    @Test func aCachedValueIsShownAtOnceAndKeepsNoRequest() {
        // Given an item already in the cache
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 0)
        fixture.fetcher.memoryCache.setValue("cached", forKey: 3)
        // When its cell asks for it
        let deliveries = Deliveries<String>()
        let request = fixture.coordinator.requestDisplay(at: ItemPath(item: 3, section: 0), for: TestCell()) {
            deliveries.record($0)
        }
        // Then the value is delivered before the call returns, and nothing waits
        #expect(request?.isPending == false)
        #expect(deliveries.count == 1)
        #expect(fixture.coordinator.pendingDisplayPaths.isEmpty)
    }

    @Test func aReloadWithdrawsThePrefetchesByTheKeysTheyWereMadeFor() async {
        // Given prefetches made for the items below the screen
        let fixture = CoordinatorFixture(policy: .screens(leading: 1, trailing: 0))
        fixture.scroll(to: 0)
        fixture.scroll(to: 10)
        let asked = fixture.prefetchedKeys
        #expect(!asked.isEmpty)
        // (their loads have reached the loader, so that a cancel reaches it too)
        await fixture.gate.waitForStarts(asked.count)
        // When the data is replaced (the same index paths now mean other items)
        fixture.keys = fixture.keys.map { $0 + 100_000 }
        fixture.coordinator.reloadData()
        // Then the old keys' prefetches are withdrawn (those consumed on screen too), not the new ones'
        #expect(fixture.coordinator.planner.prefetched.isEmpty)
        await fixture.gate.waitForCancellations(asked.count)
        #expect(Set(fixture.gate.cancelled).isSuperset(of: asked))
        #expect(fixture.gate.cancelled.allSatisfy { $0 < 100_000 })
    }

    @Test func deletedItemsPrefetchesAreWithdrawnAndTheOthersFollowTheirItems() async {
        // Given prefetches for the items below the screen
        let fixture = CoordinatorFixture(policy: .screens(leading: 1, trailing: 0))
        fixture.scroll(to: 0)
        fixture.scroll(to: 10)
        let before = fixture.coordinator.prefetchedKeys
        let deleted = before.keys.min()!
        await fixture.gate.waitForStarts(before.count)
        // When that item is deleted from the data and the rest move up one
        fixture.keys.remove(at: deleted.item)
        fixture.coordinator.applyUpdates { path in
            path == deleted ? nil : path > deleted ? ItemPath(item: path.item - 1, section: path.section) : path
        }
        // Then its prefetch is withdrawn, and the others keep their keys at their new paths
        await fixture.gate.waitForCancellations(1)
        #expect(fixture.gate.cancelled == [before[deleted]!])
        let after = fixture.coordinator.prefetchedKeys
        for (path, key) in before where path != deleted {
            let moved = path > deleted ? ItemPath(item: path.item - 1, section: 0) : path
            #expect(after[moved] == key)
        }
    }

    @Test func aMemoryWarningTrimsTheFetchersCache() {
        // Given a fetcher with values cached
        let fixture = CoordinatorFixture()
        for key in 0..<10 { fixture.fetcher.memoryCache.setValue("\(key)", forKey: key) }
        // When the app receives a memory warning
        fixture.coordinator.didReceiveMemoryWarning()
        // Then the cache is given back
        #expect((0..<10).allSatisfy { fixture.fetcher.memoryCache.value(forKey: $0) == nil })
    }

    @Test func reportsWithNonFiniteNumbersAreIgnored() {
        // Given a coordinator at rest
        let fixture = CoordinatorFixture(policy: .screens(leading: 1, trailing: 0))
        fixture.scroll(to: 0)
        fixture.scroll(to: 10)
        let before = fixture.coordinator.planner.prefetched
        // When a report comes with a NaN offset, or an empty viewport
        fixture.coordinator.scrollViewDidScroll(
            contentOffset: Point(x: 0, y: .nan), viewportSize: Size(width: 390, height: 844), at: .seconds(9))
        fixture.coordinator.scrollViewDidScroll(
            contentOffset: Point(x: 0, y: 5_000), viewportSize: .zero, at: .seconds(10))
        // Then nothing changes, and nothing traps
        #expect(fixture.coordinator.planner.prefetched == before)
    }
}
