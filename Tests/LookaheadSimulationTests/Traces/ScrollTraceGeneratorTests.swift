import Testing

@testable import LookaheadSimulation

@Suite(.timeLimit(.minutes(1)))
struct ScrollTraceGeneratorTests {
    typealias Style = ScrollTraceGenerator.Style

    static let viewport = 844.0

    func trace(
        _ style: Style, seed: UInt64 = 1, duration: Duration = .seconds(120), contentHeight: Double = 1_000_000,
        frameRate: Double = 60
    ) -> ScrollTrace {
        ScrollTraceGenerator(
            seed: seed, style: style, duration: duration, contentHeight: contentHeight,
            viewportHeight: Self.viewport, frameRate: frameRate
        ).makeTrace()
    }

    /// The offset moved in each frame.
    func steps(_ trace: ScrollTrace) -> [Double] {
        zip(trace.samples.dropFirst(), trace.samples).map { $0.offset - $1.offset }
    }

    /// How often the motion turns from down to up or back, ignoring still frames.
    func reversals(_ trace: ScrollTrace) -> Int {
        let directions = steps(trace).filter { $0 != 0 }.map { $0 > 0 }
        return zip(directions.dropFirst(), directions).count { $0 != $1 }
    }

    // MARK: - Determinism

    @Test(arguments: Style.allCases)
    func theSameSeedGivesTheSameTrace(style: Style) {
        // Given two generators with the same inputs
        // When each makes a trace
        // Then the traces are identical, sample for sample
        #expect(trace(style, seed: 7) == trace(style, seed: 7))
    }

    @Test(arguments: Style.allCases)
    func differentSeedsGiveDifferentTraces(style: Style) {
        // Given generators that differ only in their seed
        // When each makes a trace
        // Then the traces differ
        #expect(trace(style, seed: 7) != trace(style, seed: 8))
    }

    // MARK: - Shape

    @Test(arguments: Style.allCases)
    func offsetsStayWithinTheContent(style: Style) {
        // Given contents much taller than the viewport, a few viewports tall, and shorter than it
        for contentHeight in [1_000_000, 5_000, 600.0] {
            for seed: UInt64 in 1...4 {
                // When a trace is made
                let samples = trace(style, seed: seed, duration: .seconds(60), contentHeight: contentHeight).samples
                let maxOffset = max(0, contentHeight - Self.viewport)

                // Then every offset is within 0...contentHeight - viewportHeight
                let outside = samples.filter { $0.offset < 0 || $0.offset > maxOffset }
                #expect(outside.isEmpty, "seed \(seed), content \(contentHeight): \(outside.prefix(3))")
                // and a short content, which has nowhere to go, keeps its offset at zero
                if contentHeight < Self.viewport { #expect(samples.allSatisfy { $0.offset == 0 }) }
                // and a content of a few screens is scrolled all the way to its bottom (a reader
                // covers a screen or two a minute: not within the minute)
                if contentHeight == 5_000, style != .jumping, style != .reading {
                    #expect(samples.contains { $0.offset == maxOffset }, "seed \(seed)")
                }
            }
        }
    }

    @Test(arguments: Style.allCases, [60.0, 120, 59.94])
    func samplesAreOneFrameApartForTheWholeDuration(style: Style, frameRate: Double) {
        // Given a generator for 30 s at the frame rate
        let generator = ScrollTraceGenerator(
            seed: 3, style: style, duration: .seconds(30), contentHeight: 500_000, viewportHeight: Self.viewport,
            frameRate: frameRate)

        // When it makes a trace
        let samples = generator.makeTrace().samples

        // Then the first sample is at time zero and offset zero
        #expect(samples[0] == ScrollTrace.Sample(time: .zero, offset: 0))
        // and each sample is exactly one frame after the one before
        let frame = generator.frameDuration
        #expect(abs(frame / .seconds(1) - 1 / frameRate) < 1e-15)
        #expect(samples.indices.allSatisfy { samples[$0].time == frame * $0 })
        // and the last frame is the last whole one within the 30 s
        #expect(samples.count == Int(30 * frameRate) + 1)
        #expect(samples[samples.count - 1].time <= .seconds(30))
        #expect(samples[samples.count - 1].time > .seconds(30) - frame)
    }

    @Test func aZeroDurationGivesTheStartingSampleOnly() {
        // Given a generator for no time at all
        // When it makes a trace
        // Then the trace is its first sample
        #expect(trace(.photos, duration: .zero).samples == [ScrollTrace.Sample(time: .zero, offset: 0)])
    }

    // MARK: - Styles

    @Test func readingMostlyGoesDownAndPausesToRead() {
        var turns = 0
        for seed: UInt64 in 1...5 {
            // Given ten minutes of reading
            let trace = trace(.reading, seed: seed, duration: .seconds(600))
            let steps = steps(trace)

            // Then most frames are still (reading between gestures)
            let still = steps.count { $0 == 0 }
            #expect(Double(still) >= 0.5 * Double(steps.count), "seed \(seed): \(still) of \(steps.count) still")
            // and the reader moves down far more than up, and ends down the feed
            let down = steps.count { $0 > 0 }
            let up = steps.count { $0 < 0 }
            #expect(down > 3 * up, "seed \(seed): \(down) frames down, \(up) up")
            #expect(trace.samples[trace.samples.count - 1].offset > 3 * Self.viewport, "seed \(seed)")
            // and flings now and then, never faster than its fastest flick (4,000 pt/s)
            let fastest = steps.map { abs($0) * 60 }.max() ?? 0
            #expect(fastest >= 500 && fastest <= 4_000, "seed \(seed): fastest \(fastest) pt/s")
            turns += reversals(trace)
        }
        // and reverses now and then (a reversal turns twice, up and down again; 9 % of about
        // 70 gestures in ten minutes: about 12 turns a trace)
        #expect(turns >= 25, "\(turns) turns in five traces")
    }

    @Test func photosFlingFastAndReverseOften() {
        for seed: UInt64 in 1...5 {
            // Given two minutes in a photo grid
            let trace = trace(.photos, seed: seed)

            // Then it moves at fling speeds, never faster than its fastest flick (8,000 pt/s)
            let fastest = steps(trace).map { abs($0) * 60 }.max() ?? 0
            #expect(fastest >= 3_000 && fastest <= 8_000, "seed \(seed): fastest \(fastest) pt/s")
            // and turns round several times
            #expect(reversals(trace) >= 4, "seed \(seed)")
        }
    }

    @Test func flingingReachesFlingSpeedsAndReverses() {
        for seed: UInt64 in 1...5 {
            // Given two minutes of flinging
            let trace = trace(.flinging, seed: seed)

            // Then it reaches 6,000 pt/s or more, never more than 10,000
            let fastest = steps(trace).map { abs($0) * 60 }.max() ?? 0
            #expect(fastest >= 6_000 && fastest <= 10_000, "seed \(seed): fastest \(fastest) pt/s")
            // and reverses
            #expect(reversals(trace) >= 4, "seed \(seed)")
        }
    }

    @Test func jumpingGoesToTheTopFromDeepAndBack() {
        for seed: UInt64 in 1...5 {
            // Given two minutes of reading with jumps
            let offsets = trace(.jumping, seed: seed).samples.map(\.offset)

            // When the jumps to the top are found: frames at the top right after frames that
            // were not, the last 18 frames (0.3 s) before them the jump's animation
            let landings = offsets.indices.filter { $0 >= 18 && offsets[$0] == 0 && offsets[$0 - 1] > 0 }

            // Then there is a jump every 15–30 s or so (at least three in two minutes)
            #expect(landings.count >= 3, "seed \(seed): \(landings.count) jumps")
            // and the reader has gone deep (five screens or more) before at least one of them
            #expect(landings.contains { offsets[$0 - 18] >= 5 * Self.viewport }, "seed \(seed)")
            for landing in landings {
                let left = offsets[landing - 18]
                // and each jump leaves from well down the content and lands within 0.3 s
                #expect(left >= Self.viewport, "seed \(seed): a jump from \(left) at frame \(landing)")
                // and is followed, after a read of at most 4 s and a 0.3 s jump, by a return at
                // least as deep as where it left from
                let returnBy = landing + 4 * 60 + 20
                #expect(
                    returnBy > offsets.count || offsets[landing..<returnBy].contains { $0 >= left },
                    "seed \(seed): no return to \(left) after frame \(landing)")
            }
        }
    }

    @Test func aLongTraceHasEveryFrame() {
        // Given ten minutes at 120 Hz of the busiest style
        // When it is generated (in time linear in the frames, well within the suite's limit)
        let trace = trace(.flinging, duration: .seconds(600), frameRate: 120)

        // Then it has all 72,000 frames after the first
        #expect(trace.samples.count == 72_001)
    }
}
