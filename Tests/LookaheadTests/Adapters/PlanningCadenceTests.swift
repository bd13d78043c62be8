import Testing

@testable import Lookahead

/// Which frames a coordinator plans.
struct PlanningCadenceTests {
    /// A frame of an 844-pt screen at `y`, `ms` milliseconds in.
    func frame(_ y: Double, at ms: Int, velocity: Double = 600, target: Point? = nil) -> ScrollFrame {
        var frame = ScrollFrame(
            visibleRect: Rect(x: 0, y: y, width: 390, height: 844), velocity: velocity, time: .milliseconds(ms))
        frame.targetOffset = target
        return frame
    }

    @Test func theFirstFrameAndOneAfterAResetArePlanned() {
        var cadence = PlanningCadence()
        #expect(cadence.isDue(frame(0, at: 0)))
        cadence.planned(frame(0, at: 0))
        #expect(!cadence.isDue(frame(10, at: 8)))
        cadence.reset()
        #expect(cadence.isDue(frame(10, at: 8)))
    }

    @Test func aFrameIsPlannedOnceItMovedOrWaitedEnough() {
        // Given a frame planned
        var cadence = PlanningCadence()
        cadence.planned(frame(1_000, at: 100))
        // Then one that moved less than a twentieth of the screen within 50 ms is not
        #expect(!cadence.isDue(frame(1_042, at: 149)))
        #expect(!cadence.isDue(frame(958, at: 149)))
        // And one that moved a twentieth (42.2 pt), or came 50 ms later, is
        #expect(cadence.isDue(frame(1_042.2, at: 110)))
        #expect(cadence.isDue(frame(957.8, at: 110)))
        #expect(cadence.isDue(frame(1_000, at: 150)))
    }

    @Test func aChangeOfSpeedViewportOrTargetIsPlannedAtOnce() {
        var cadence = PlanningCadence()
        cadence.planned(frame(1_000, at: 100, velocity: 600))
        // A speed a twentieth of a screen per 50 ms (844 pt/s) away is planned; a smaller change is not
        #expect(!cadence.isDue(frame(1_001, at: 108, velocity: 1_400)))
        #expect(cadence.isDue(frame(1_001, at: 108, velocity: 1_444)))
        #expect(cadence.isDue(frame(1_001, at: 108, velocity: -244)))
        // A new viewport size, a new announced target, and a clock that went back are planned
        var resized = frame(1_001, at: 108)
        resized.visibleRect.size.height = 800
        #expect(cadence.isDue(resized))
        #expect(cadence.isDue(frame(1_001, at: 108, target: Point(x: 0, y: 5_000))))
        #expect(cadence.isDue(frame(1_001, at: 90)))
    }

    @Test func everyFramePlansEveryFrame() {
        var cadence = PlanningCadence.everyFrame
        cadence.planned(frame(1_000, at: 100))
        #expect(cadence.isDue(frame(1_000, at: 100)))
        #expect(cadence.isDue(frame(1_001, at: 101)))
    }
}
