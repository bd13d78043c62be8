import Testing

@testable import LookaheadSimulation

/// The `reading` style against published measurements of people reading
/// feeds on phones: about 7 gestures a minute, 58 % ending in a fling,
/// release speeds of median ~90 pt/s, p90 ~400, p99 ~2,000; still gaps
/// between gestures of median 1.6 s, p90 13 s; 9 % reversals.
///
/// Tolerances: each statistic of three hours of reading (~1,250 gestures) within
/// about ±15 % of the measurement (±25 % for the p99, which rests on a
/// handful of gestures); the figures drawn are those of the gesture log,
/// the gaps and reversals are also read off the trace itself.
@Suite(.timeLimit(.minutes(1)))
struct ReadingStyleTests {
    /// The `q` quantile of `values` (nearest rank).
    func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)]
    }

    /// The lengths, in seconds, of the runs of still frames, and the
    /// directions of the runs of moving ones (`true`: up the content).
    func runs(_ trace: ScrollTrace, frameRate: Double) -> (stills: [Double], movesUp: [Bool]) {
        let steps = zip(trace.samples.dropFirst(), trace.samples).map { $0.offset - $1.offset }
        var stills: [Double] = []
        var movesUp: [Bool] = []
        var still = 0
        var moving = false
        for step in steps {
            if step == 0 {
                still += 1
                moving = false
            } else {
                if still > 0 && !movesUp.isEmpty { stills.append(Double(still) / frameRate) }
                still = 0
                if !moving { movesUp.append(step < 0) }
                moving = true
            }
        }
        return (stills, movesUp)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func threeHoursOfReadingLookLikePeopleReadingOnPhones(seed: UInt64) {
        // Given three hours of reading down a very long feed (no edge in reach)
        let minutes = 180.0
        let generator = ScrollTraceGenerator(
            seed: seed, style: .reading, duration: .seconds(minutes * 60), contentHeight: 100_000_000,
            viewportHeight: 844)

        // When the trace is made, with its gestures
        let (trace, gestures) = generator.makeTraceRecordingGestures()
        let flings = gestures.compactMap(\.releaseSpeed)
        let (stills, movesUp) = runs(trace, frameRate: 60)

        // Then about 7 gestures a minute
        let perMinute = Double(gestures.count) / minutes
        #expect((6.0...8.0).contains(perMinute), "seed \(seed): \(perMinute) gestures a minute")
        // and 58 % of them end in a fling
        let flingShare = Double(flings.count) / Double(gestures.count)
        #expect((0.52...0.64).contains(flingShare), "seed \(seed): \(flingShare) end in a fling")
        // and flings are released at median ~90 pt/s, p90 ~400, p99 ~2,000
        let releases = (quantile(flings, 0.5), quantile(flings, 0.9), quantile(flings, 0.99))
        #expect((75.0...105).contains(releases.0), "seed \(seed): release speed median \(releases.0)")
        #expect((340.0...460).contains(releases.1), "seed \(seed): release speed p90 \(releases.1)")
        #expect((1_500.0...2_500).contains(releases.2), "seed \(seed): release speed p99 \(releases.2)")
        // and the still gaps between gestures last median 1.6 s, p90 13 s
        let gaps = (quantile(stills, 0.5), quantile(stills, 0.9))
        #expect((1.35...1.85).contains(gaps.0), "seed \(seed): gap median \(gaps.0) s")
        #expect((11.0...15.0).contains(gaps.1), "seed \(seed): gap p90 \(gaps.1) s")
        // and 9 % of the gestures go back up, in the log and in the trace
        let reversals = Double(gestures.count { $0.isReversal }) / Double(gestures.count)
        let upRuns = Double(movesUp.count { $0 }) / Double(movesUp.count)
        #expect((0.07...0.11).contains(reversals), "seed \(seed): \(reversals) of the gestures reverse")
        #expect((0.07...0.11).contains(upRuns), "seed \(seed): \(upRuns) of the moves go up")
    }
}
