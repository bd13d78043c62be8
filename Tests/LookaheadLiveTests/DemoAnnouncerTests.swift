// The demo tells its coordinator what an app would of the scripted scroll's
// motions: the simulator's announced landings, at the frames it shows.

#if Tools
import Lookahead
import LookaheadSimulation
import Testing

@testable import LookaheadLive

@Suite("Demo announcements", .timeLimit(.minutes(1)))
struct DemoAnnouncerTests {
    static let frameRate = 60.0

    /// The demo's trace for `style` (seed 1; a minute, for jumps come every
    /// 15–30 s), and the landings the simulator finds in it.
    static func script(_ style: ScrollTraceGenerator.Style) -> (ScrollTrace, [AnnouncedLandings.Landing]) {
        let trace = ScrollTraceGenerator(
            seed: 1, style: style, duration: .seconds(60), contentHeight: 200_000, viewportHeight: 800,
            frameRate: frameRate
        ).makeTrace()
        return (trace, AnnouncedLandings(trace: trace, maxOffset: 199_200).landings)
    }

    @Test(
        "every landing is announced once, as a fling or an animated scroll, and ended once",
        arguments: [ScrollTraceGenerator.Style.jumping, .flinging])
    func everyLandingIsAnnouncedAndEnded(style: ScrollTraceGenerator.Style) {
        // Given a scripted trace with landings (seed 1)
        let (trace, landings) = Self.script(style)
        #expect(!landings.isEmpty)
        // When the demo shows every frame
        var announcer = DemoAnnouncer(trace: trace, maxOffset: 199_200)
        var announcements: [DemoAnnouncement] = []
        let frame = Duration.seconds(1 / Self.frameRate)
        var time = Duration.zero
        while time <= trace.duration + frame {
            if let announcement = announcer.announcement(at: time) { announcements.append(announcement) }
            time += frame
        }
        // Then each landing is announced with its kind and target, each followed by its end
        let starts = announcements.filter { $0 != .ended }
        #expect(starts.count == landings.count)
        #expect(announcements.filter { $0 == .ended }.count == landings.count)
        for (announcement, landing) in zip(starts, landings) {
            switch (announcement, landing.kind) {
            case (.animatedScroll(let target), .animatedScroll):
                #expect(target == landing.offset)
            case (.fling(let target, let velocity), .fling):
                // The fling moves toward where it rests, fast
                #expect(target == landing.offset)
                let start = trace.offset(at: landing.start)
                #expect(velocity * (target - start) > 0, "fling from \(start) to \(target) at \(velocity)")
                #expect(abs(velocity) > 100)
            default:
                Issue.record("\(announcement) announced for a landing of kind \(landing.kind)")
            }
        }
        #expect(style != .jumping || starts.contains { if case .animatedScroll = $0 { true } else { false } })
    }

    @Test("frames the machine skipped do not lose a landing a shown frame falls in, nor repeat one")
    func skippedFrames() {
        // Given a jumping script (seed 1), shown at every third frame only
        let (trace, landings) = Self.script(.jumping)
        var announcer = DemoAnnouncer(trace: trace, maxOffset: 199_200)
        let step = Duration.seconds(3 / Self.frameRate)
        var times: [Duration] = []
        var time = Duration.zero
        while time <= trace.duration + step {
            times.append(time)
            time += step
        }
        // When the frames shown are announced
        let announced = times.compactMap { announcer.announcement(at: $0) }.filter { $0 != .ended }
        // Then exactly the landings some shown frame falls in are announced, once each
        let seen = landings.filter { landing in times.contains { landing.start <= $0 && $0 < landing.end } }
        #expect(announced.count == seen.count)
    }

    @Test("the jumping script's default run jumps to the top and back", arguments: [UInt64(1), 2, 3, 4, 5])
    func theDefaultJumpingRunJumps(seed: UInt64) throws {
        // Given the demo's jumping script at its default duration (seeds 1–5)
        let configuration = try DemoConfiguration.parse(seed: seed, script: "jumping")
        let geometry = DemoSession.geometry(
            terminalWidth: DemoConfiguration.headlessTerminal.width,
            terminalHeight: DemoConfiguration.headlessTerminal.height, lanes: 1)
        let rows = (configuration.itemCount + geometry.columns - 1) / geometry.columns
        let contentHeight = Double(rows) * DemoGeometry.cellPoints

        // When its scroll is made, as the session makes it
        let trace = ScrollTraceGenerator(
            seed: seed, style: .jumping, duration: configuration.duration, contentHeight: contentHeight,
            viewportHeight: geometry.viewportHeight, frameRate: configuration.frameRate
        ).makeTrace()

        // Then it holds a jump to the top and one back (15 s held none: the first comes 15–30 s in)
        let landings = AnnouncedLandings(trace: trace, maxOffset: contentHeight - geometry.viewportHeight).landings
        let jumps = landings.filter { $0.kind == .animatedScroll }
        #expect(jumps.count >= 2, "seed \(seed): \(jumps.count) jumps in \(configuration.duration)")
        #expect(jumps.first?.offset == 0)
        // And the other scripts keep their 15 s
        #expect(try DemoConfiguration.parse(seed: seed, script: "flinging").duration == .seconds(15))
        #expect(try DemoConfiguration.parse(durationSeconds: 5, script: "jumping").duration == .seconds(5))
    }
}
#endif
