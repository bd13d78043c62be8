// The adaptive policy's memory of a fling: a paced window stays at the cap
// for a while after a flick, however slow the pace averaged over the look.
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct FlingMemoryTests {
    let viewport = Size(width: 390, height: 844)
    let frameTime = Duration.nanoseconds(16_666_667)
    let layout = ListLayout(width: 390, rowHeight: 100, rowCount: 5_000)

    /// A policy sized from the reader's pace (a floor of 1.5 screens) that
    /// remembers a fling (and the list's opening) for `flingMemory` and has
    /// seen 120 ms loads.
    func pacedPolicy(flingMemory: Duration = .seconds(6)) -> AdaptivePrefetchPolicy {
        // Without the learned reach, which holds more after a hard flick: the pace's window alone.
        var policy = AdaptivePrefetchPolicy(restingFloorScreens: 1.5, flingMemory: flingMemory, gestureReach: nil)
        for _ in 0..<50 { policy.observeLoadDuration(.milliseconds(120)) }
        return policy
    }

    /// Shows `policy` the frame at `offset`, moving at `velocity`, `index` frames in.
    func window(
        _ policy: inout AdaptivePrefetchPolicy, offset: Double, velocity: Double, index: Int
    ) -> [ItemPath] {
        let frame = ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: velocity,
            time: frameTime * index)
        let context = PrefetchContext(
            frame: frame, visibleItems: layout.itemPaths(in: frame.visibleRect), direction: .forward,
            isFirstLayout: false)
        return policy.window(for: context, layout: layout)
    }

    /// How far past the viewport's bottom the farthest item of `window` starts, in points.
    func farthestAhead(_ window: [ItemPath], of offset: Double) -> Double {
        window.map { layout.frame(at: $0).minY - (offset + viewport.height) }.max() ?? 0
    }

    @Test func aFlickKeepsThePacedWindowAtTheCapForTheFlingMemory() {
        // Given a paced policy: a flick at 4,000 pt/s from rest, coasting 2.5 s to a stop
        var policy = pacedPolicy()
        let start = 10_000.0
        let velocity = 4_000.0
        var index = 0
        for _ in 0..<150 {
            let seconds = Double(index) / 60
            _ = window(
                &policy, offset: start + ScrollPhysics.distance(after: seconds, velocity: velocity),
                velocity: ScrollPhysics.velocity(after: seconds, velocity: velocity), index: index)
            index += 1
        }
        let landed = start + ScrollPhysics.distance(after: Double(index) / 60, velocity: velocity)

        // When the reader looks for 2 s (under 6 s since the flick's last fast
        // frame, ~0.6 s in, and the list's opening, the flick's first frame)
        var looking: [ItemPath] = []
        for _ in 0..<120 {
            looking = window(&policy, offset: landed, velocity: 0, index: index)
            index += 1
        }
        // Then the window ahead is the cap's 2.5 screens, though the pace
        // (~2,000 pt over 4.5 s, ~560 pt within a load's 0.42 s three times
        // over) alone would hold the floor's 1.5
        let cap = policy.restingLeadingScreens * viewport.height
        #expect(farthestAhead(looking, of: landed) > cap - 100)

        // And when the look outlasts the memory (7 s more), the pace sizes it again
        var rested: [ItemPath] = []
        for _ in 0..<420 {
            rested = window(&policy, offset: landed, velocity: 0, index: index)
            index += 1
        }
        #expect(farthestAhead(rested, of: landed) < cap - 100)
        #expect(farthestAhead(rested, of: landed) >= viewport.height - 100, "at least the next screen")
    }

    @Test func theListsOpeningIsRememberedAsAFlingIsThenASlowReaderIsPaced() {
        // Given the default policy (a floor of 1 screen, a memory of 30 s) and
        // a reader dragging 200 pt in 0.5 s, then resting 2.5 s, from the list's first frame
        var policy = AdaptivePrefetchPolicy()
        for _ in 0..<50 { policy.observeLoadDuration(.milliseconds(120)) }
        #expect(policy.restingFloorScreens == 1)
        #expect(policy.flingMemory == .seconds(30))
        let cap = policy.restingLeadingScreens * viewport.height
        var offset = 10_000.0
        func read(frames: Range<Int>, offsetBy start: Int = 0) -> [ItemPath] {
            var last: [ItemPath] = []
            for index in frames {
                let moving = (index - start) % 180 < 30
                if moving { offset += 400.0 / 60 }
                last = window(&policy, offset: offset, velocity: moving ? 400 : 0, index: index - start)
            }
            return last
        }

        // When it has read for 29 s, no drag reaching fling speed
        let early = read(frames: 0..<1_740)
        // Then the window ahead is still the cap's 2.5 screens: the list opened on a reader it had not seen
        #expect(farthestAhead(early, of: offset) > cap - 100)

        // And when it has read for 40 s, the pace sizes it: less than the cap, at least the next screen
        let paced = read(frames: 1_740..<2_400)
        #expect(farthestAhead(paced, of: offset) < cap - 100)
        #expect(farthestAhead(paced, of: offset) >= viewport.height - 100)

        // And when the clock starts again (a new session), the list opens
        // again: 8 s on, past the pace's span, the window is the cap's
        let reopened = read(frames: 2_400..<2_880, offsetBy: 2_400)
        #expect(farthestAhead(reopened, of: offset) > cap - 100)
    }

    @Test func untilThePaceCoversItsSpanThePacedWindowIsAtTheCap() {
        // Given a paced policy that has just opened at rest, remembering no
        // fling nor the opening: a pace of 0, the floor's 1.5 screens were it trusted
        var policy = pacedPolicy(flingMemory: .zero)
        let offset = 10_000.0
        let cap = policy.restingLeadingScreens * viewport.height
        let span = Int(policy.readingPace.span / frameTime)

        // Then it holds the cap's 2.5 screens ahead for its first span of frames (its first gesture may be a fling)
        var opening: [ItemPath] = []
        for index in 0..<span {
            opening = window(&policy, offset: offset, velocity: 0, index: index)
        }
        #expect(farthestAhead(opening, of: offset) > cap - 100)

        // And once the pace covers the span, the pace sizes it
        let paced = window(&policy, offset: offset, velocity: 0, index: span + 1)
        #expect(farthestAhead(paced, of: offset) < cap - 100)
    }
}
