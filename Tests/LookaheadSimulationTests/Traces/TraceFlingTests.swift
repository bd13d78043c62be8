import Foundation
import Lookahead
import Testing

@testable import LookaheadSimulation

/// Flings against UIScrollView's deceleration in closed form: v(t) = v₀ · 0.998^t
/// and x(t) = v₀/1000 · (1 − 0.998^t) / (−ln 0.998), t in ms.
@Suite(.timeLimit(.minutes(1)))
struct TraceFlingTests {
    /// The closed form, in points, `milliseconds` after a release at `v0` pt/s.
    func closedForm(v0: Double, milliseconds: Double) -> Double {
        v0 / 1000 * (1 - pow(0.998, milliseconds)) / -log(0.998)
    }

    @Test func uikitProjectsAFlingToPoint499TimesItsVelocity() {
        // Given UIKit's projection, v0 · 0.998 / (1 − 0.998) / 1000
        // When it is applied to a few velocities
        // Then it is 0.499 · v0, either way
        for v0 in [1_000.0, -3_000, 10_000] {
            #expect(abs(TraceFling.projectedDistance(velocity: v0) - 0.499 * v0) < 1e-9 * abs(v0))
        }
    }

    @Test(arguments: [1_000.0, 3_000, 8_000, 10_000])
    func aFlingStopsAboutItsProjectedDistanceAway(v0: Double) {
        // Given a fling released at v0, stepped frame by frame at 60 Hz
        let samples = ScrollTraceGenerator.flingSamples(v0: v0)
        let stop = samples[samples.count - 1]
        let stopMilliseconds = stop.time / .milliseconds(1)

        // Then it travels 0.499 · v0 less the tail it would travel below the 20 pt/s stop
        // (20 · 0.4995 ≈ 10 pt), to within 0.1 % of v0: the continuous integral (0.4995 · v0)
        // exceeds the per-millisecond sum (0.499 · v0) by 0.05 %, and the stop falls between frames
        let expected = 0.499 * v0 - 10
        #expect(abs(stop.offset - expected) <= 0.001 * v0, "stopped at \(stop.offset), expected ≈ \(expected)")
        // and it stops on the first frame at which the speed is below 20 pt/s
        #expect(v0 * pow(0.998, stopMilliseconds) < 20)
        #expect(v0 * pow(0.998, stopMilliseconds - 1000.0 / 60) >= 20)
    }

    @Test func theOffsetFollowsTheClosedFormFrameByFrame() {
        // Given a fling released at 5,000 pt/s, stepped at 60 Hz
        let samples = ScrollTraceGenerator.flingSamples(v0: 5_000)

        // Then at 100, 250, 500, 1,000 and 2,000 ms (frames 6, 15, 30, 60, 120) the offset is the
        // closed form's, computed by hand to a hundredth of a point
        let handComputed: [(frame: Int, offset: Double)] = [
            (6, 453.13), (15, 983.45), (30, 1_579.64), (60, 2_160.18), (120, 2_451.94),
        ]
        for (frame, offset) in handComputed {
            #expect(abs(samples[frame].offset - offset) < 0.01, "frame \(frame): \(samples[frame].offset)")
        }
        // and at every frame it is the closed form at that frame's time, to a micrometre
        for sample in samples {
            let milliseconds = sample.time / .milliseconds(1)
            #expect(abs(sample.offset - closedForm(v0: 5_000, milliseconds: milliseconds)) < 1e-6)
        }
    }

    @Test func theSpeedFallsByAFactorOf0Point998PerMillisecond() {
        // Given a fling released at 8,000 pt/s, stepped at 120 Hz
        let samples = ScrollTraceGenerator.flingSamples(v0: 8_000, frameRate: 120)

        // When the distance moved in the first frame is compared with the distance moved in
        // the frame one second later
        let first = samples[1].offset - samples[0].offset
        let later = samples[121].offset - samples[120].offset

        // Then it has shrunk by 0.998^1000 ≈ 0.1351
        #expect(abs(later / first - pow(0.998, 1_000)) < 1e-9)
        // and the first frame moves at nearly the release speed (it has slowed by under 1 % in 8.3 ms)
        #expect(first * 120 > 8_000 * 0.99 && first * 120 < 8_000)
    }

    @Test func aFlingStopsDeadAtTheContentsEdge() {
        // Given a scroller 100 pt from the bottom of its content
        var random = TraceRandom(seed: 1)
        var scroller = TraceScroller(
            parameters: ScrollTraceGenerator.Style.flinging.parameters, maxOffset: 100, frameRate: 60,
            using: &random)

        // When it is flung down at 5,000 pt/s, which would carry it about 2,500 pt
        scroller.startFling(velocity: 5_000)
        var frames = 0
        while !scroller.isIdle {
            scroller.advance(using: &random)
            frames += 1
        }

        // Then it stops at the edge on the frame that reaches it (the first frame moves 82 pt,
        // the second reaches 100), with no rubber band
        #expect(scroller.offset == 100)
        #expect(frames == 2)
    }
}
