import Foundation
import Lookahead
import Testing

@testable import LookaheadSimulation

/// ``AnnouncedLandings``: where a generated trace's flings and jumps land,
/// on the frames an app would know it, and nothing on a drag.
@Suite(.timeLimit(.minutes(1)))
struct AnnouncedLandingsTests {
    let frame = Duration.seconds(1) / 60

    /// A drag down at 600 pt/s for 10 frames, then the generator's fling released at `v0`.
    func dragThenFling(v0: Double) -> [ScrollTrace.Sample] {
        var samples = (0...10).map { ScrollTrace.Sample(time: frame * $0, offset: 10 * Double($0)) }
        for sample in ScrollTraceGenerator.flingSamples(v0: v0).dropFirst() {
            samples.append(ScrollTrace.Sample(time: sample.time + frame * 10, offset: 100 + sample.offset))
        }
        return samples
    }

    @Test(arguments: [2_000.0, 8_000])
    func aFlingIsAnnouncedFromItsReleaseWhereItComesToRest(v0: Double) {
        // Given a drag released into a fling
        let samples = dragThenFling(v0: v0)
        var landings = AnnouncedLandings(trace: ScrollTrace(samples: samples), maxOffset: 1e9)

        // Then nothing is announced while the finger drags; from the release
        // on, where the fling rests as UIKit projects it (the generator's
        // stops a little short, below a speed: what that speed still covers)
        #expect(landings.offset(at: frame * 9) == nil)
        let rest = samples.last!.offset
        let shortfall = TraceFling.stopSpeed * 0.5 + 1
        for index in 10..<samples.count - 1 {
            let announced = landings.offset(at: samples[index].time) ?? -1
            #expect(announced >= rest && announced - rest < shortfall, "v0 \(v0), frame \(index): \(announced)")
        }
    }

    @Test func aLandingIsClampedToTheContent() {
        // Given a fling that would run past the end of a short content
        var landings = AnnouncedLandings(trace: ScrollTrace(samples: dragThenFling(v0: 8_000)), maxOffset: 500)

        // Then it is announced at the end
        #expect(landings.offset(at: frame * 10) == 500)
    }

    @Test func aJumpIsAnnouncedOnEveryFrameOfItsAnimation() {
        // Given a rest at 5,000 pt, an animated scroll to the top over 0.3 s (18 frames), a rest
        let frames = 18
        var offsets = Array(repeating: 5_000.0, count: 5)
        offsets += (1...frames).map { 5_000 * (1 - (0.5 - 0.5 * cos(Double.pi * Double($0) / Double(frames)))) }
        offsets += Array(repeating: 0, count: 5)
        let samples = offsets.indices.map { ScrollTrace.Sample(time: frame * $0, offset: offsets[$0]) }
        var landings = AnnouncedLandings(trace: ScrollTrace(samples: samples), maxOffset: 1e9)

        // Then the top is announced from its first moving frame to its last
        #expect(landings.offset(at: frame * 4) == nil)
        for index in 5..<(4 + frames) { #expect(landings.offset(at: frame * index) == 0, "frame \(index)") }
        #expect(landings.offset(at: frame * (4 + frames)) == nil)
    }

    @Test func aJumpRightAfterAFlingComesToRestIsAnnouncedToo() throws {
        // Given a fling that comes to rest, and on its last frame an animated
        // scroll to the top over 0.3 s (18 frames): the generator's jumps start
        // as soon as a gesture ends
        var samples = dragThenFling(v0: 3_000)
        let rest = try #require(samples.last)
        let frames = 18
        for step in 1...frames {
            let progress = 0.5 - 0.5 * cos(Double.pi * Double(step) / Double(frames))
            samples.append(ScrollTrace.Sample(time: rest.time + frame * step, offset: rest.offset * (1 - progress)))
        }
        samples += (1...5).map { ScrollTrace.Sample(time: rest.time + frame * (frames + $0), offset: 0) }
        let found = AnnouncedLandings(trace: ScrollTrace(samples: samples), maxOffset: 1e9).landings

        // Then both are announced, the fling and then the jump, from its first moving frame
        #expect(found.map(\.kind) == [.fling, .animatedScroll])
        #expect(found.last?.offset == 0)
        #expect(found.last?.start == rest.time + frame)
        var landings = AnnouncedLandings(trace: ScrollTrace(samples: samples), maxOffset: 1e9)
        #expect(landings.offset(at: rest.time + frame * 2) == 0)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aDragWithNoiseIsNeverAnnounced(seed: UInt64) {
        // Given a finger dragging at a wobbling speed
        var random = TraceRandom(seed: seed)
        var offset = 0.0
        let samples = (0..<200).map { index -> ScrollTrace.Sample in
            offset += 10 + random.uniform(-1...1)
            return ScrollTrace.Sample(time: frame * index, offset: offset)
        }

        // Then nothing is announced
        let landings = AnnouncedLandings(trace: ScrollTrace(samples: samples), maxOffset: 1e9)
        #expect(landings.landings.isEmpty, "seed \(seed)")
    }
}
