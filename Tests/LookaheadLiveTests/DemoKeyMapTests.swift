#if Tools
import Testing

@testable import LookaheadLive

@Suite("Demo keys and scrolling", .timeLimit(.minutes(1)))
struct DemoKeyMapTests {
    @Test("j, k, space, g, G and q map to their actions")
    func keys() {
        #expect(DemoKeyMap.action(for: UInt8(ascii: "j")) == .scroll(rows: 1))
        #expect(DemoKeyMap.action(for: UInt8(ascii: "k")) == .scroll(rows: -1))
        #expect(DemoKeyMap.action(for: UInt8(ascii: " ")) == .fling)
        #expect(DemoKeyMap.action(for: UInt8(ascii: "g")) == .top)
        #expect(DemoKeyMap.action(for: UInt8(ascii: "G")) == .bottom)
        #expect(DemoKeyMap.action(for: UInt8(ascii: "q")) == .quit)
        #expect(DemoKeyMap.action(for: 0x03) == .quit)
        #expect(DemoKeyMap.action(for: UInt8(ascii: "x")) == nil)
    }

    @Test("a chunk of input gives its actions in order; arrows scroll, a lone Escape quits")
    func chunks() {
        #expect(
            DemoKeyMap.actions(for: Array("jjkx G".utf8)) == [
                .scroll(rows: 1), .scroll(rows: 1), .scroll(rows: -1), .fling, .bottom,
            ])
        #expect(
            DemoKeyMap.actions(for: [0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x41]) == [.scroll(rows: 1), .scroll(rows: -1)])
        #expect(DemoKeyMap.actions(for: [0x1B]) == [.quit])
    }

    @Test("j and k move a row, clamped to the content")
    func rowScrolling() {
        var scroller = DemoScroller(maxOffset: 250, rowHeight: 96)
        scroller.apply(.scroll(rows: 1))
        #expect(scroller.offset == 96)
        scroller.apply(.scroll(rows: 2))
        #expect(scroller.offset == 250)
        scroller.apply(.scroll(rows: -1))
        #expect(scroller.offset == 154)
        scroller.apply(.top)
        scroller.advance(by: 0.3)
        #expect(scroller.offset == 0)
        scroller.apply(.scroll(rows: -1))
        #expect(scroller.offset == 0)
        scroller.apply(.bottom)
        scroller.advance(by: 0.3)
        #expect(scroller.offset == 250)
    }

    @Test("g and G scroll to the top and the bottom animated, announcing the target, then the end on arrival")
    func animatedJumps() {
        // Given a list at rest 5,000 pt down
        var scroller = DemoScroller(maxOffset: 100_000, rowHeight: 100)
        for _ in 0..<50 { scroller.apply(.scroll(rows: 1)) }
        #expect(scroller.offset == 5_000)

        // When g is pressed
        scroller.apply(.top)

        // Then the top is announced at once, and the list moves there over
        // 0.3 s, eased in and out: slowly at first, half way at half time
        #expect(scroller.takeAnnouncement() == .animatedScroll(target: 0))
        #expect(scroller.isMoving)
        scroller.advance(by: 0.03)
        #expect(scroller.offset > 4_800 && scroller.offset < 5_000)
        scroller.advance(by: 0.12)
        #expect(abs(scroller.offset - 2_500) < 1)
        #expect(scroller.takeAnnouncement() == nil)
        // And it arrives on the frame the animation ends, announcing the end then
        scroller.advance(by: 0.2)
        #expect(scroller.offset == 0)
        #expect(!scroller.isMoving)
        #expect(scroller.takeAnnouncement() == .ended)

        // And G at the bottom already announces nothing; a key mid-jump stops it where it is
        scroller.apply(.bottom)
        #expect(scroller.takeAnnouncement() == .animatedScroll(target: 100_000))
        scroller.advance(by: 0.15)
        scroller.apply(.scroll(rows: 0))
        #expect(scroller.takeAnnouncement() == .ended)
        let stopped = scroller.offset
        scroller.advance(by: 0.3)
        #expect(scroller.offset == stopped && abs(stopped - 50_000) < 1)
        scroller.apply(.scroll(rows: 1_000))
        scroller.apply(.bottom)
        #expect(scroller.takeAnnouncement() == nil)
        #expect(!scroller.isMoving)
    }

    @Test("space flings in the last direction and decelerates to rest")
    func fling() {
        var scroller = DemoScroller(maxOffset: 100_000, rowHeight: 96, flingSpeed: 4_000)
        scroller.apply(.fling)
        #expect(scroller.velocity == 4_000)
        scroller.advance(by: 0.1)
        let afterOneTenth = scroller.offset
        #expect(afterOneTenth > 300 && afterOneTenth < 400)
        #expect(scroller.velocity < 4_000)
        for _ in 0..<200 { scroller.advance(by: 1.0 / 30) }
        #expect(scroller.velocity == 0)
        // It comes to rest 0.499·v away, as UIScrollView does.
        #expect(abs(scroller.offset - 1_996) < 20)

        // After k, a fling goes up.
        scroller.apply(.scroll(rows: -1))
        scroller.apply(.fling)
        #expect(scroller.velocity == -4_000)
    }

    @Test("a fling announces where it rests, as UIKit's drag end does, and that it is over when it stops")
    func flingAnnouncements() {
        // Given a list at rest
        var scroller = DemoScroller(maxOffset: 100_000, rowHeight: 96, flingSpeed: 4_000)
        #expect(scroller.takeAnnouncement() == nil)
        // When space flings it
        scroller.apply(.fling)
        // Then the fling is announced once, with its velocity and where it will rest
        guard case .fling(let target, let velocity)? = scroller.takeAnnouncement() else {
            Issue.record("no fling announced")
            return
        }
        #expect(velocity == 4_000)
        #expect(scroller.takeAnnouncement() == nil)
        // And it rests there, announcing the end on the frame it stops, and only then
        var frames = 0
        while scroller.velocity != 0, frames < 300 {
            scroller.advance(by: 1.0 / 30)
            frames += 1
            if scroller.velocity != 0 { #expect(scroller.takeAnnouncement() == nil, "frame \(frames)") }
        }
        #expect(scroller.takeAnnouncement() == .ended)
        #expect(abs(scroller.offset - target) < 20, "rested at \(scroller.offset), announced \(target)")
        // And a key that moves the list mid-fling ends it; a key at rest announces nothing
        scroller.apply(.fling)
        _ = scroller.takeAnnouncement()
        scroller.apply(.scroll(rows: 1))
        #expect(scroller.takeAnnouncement() == .ended)
        scroller.apply(.scroll(rows: 1))
        #expect(scroller.takeAnnouncement() == nil)
    }

    @Test("a fling stops at the edge; at the bottom, space flings back up")
    func flingAtTheEdges() {
        var scroller = DemoScroller(maxOffset: 500, rowHeight: 96)
        scroller.apply(.fling)
        scroller.advance(by: 1)
        #expect(scroller.offset == 500)
        #expect(scroller.velocity == 0)
        scroller.apply(.fling)
        #expect(scroller.velocity < 0)
    }

    @Test("quit changes nothing in the scroll state")
    func quitIsTheDriversBusiness() {
        var scroller = DemoScroller(maxOffset: 500, rowHeight: 96)
        scroller.apply(.scroll(rows: 1))
        let before = scroller
        scroller.apply(.quit)
        #expect(scroller == before)
    }
}
#endif
