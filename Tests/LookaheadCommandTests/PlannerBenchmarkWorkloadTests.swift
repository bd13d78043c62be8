// The planner benchmark's workload: however many frames a run asks for, the
// scroll shows content on every one, so that the 1M / 10k ratio compares
// like with like.

#if Tools
import Lookahead
import Testing

@testable import LookaheadBenchmarks

@Suite(.timeLimit(.minutes(1)))
struct PlannerBenchmarkWorkloadTests {
    @Test func theListsScrollTurnsBackAtTheEndInsteadOfRunningPastIt() {
        // Given a 10,000-row list of 120 pt rows, like the benchmark's
        // (1.2 million points: from its middle, 60,000 frames to its end)
        let layout = ListLayout(width: 390, heights: [Array(repeating: 120, count: 10_000)])
        var scroll = PlannerBenchmark.listScroll(over: layout)
        let maxOffset = layout.contentSize.height - 844

        // When it is followed for 200,000 frames, to the end and back to the top
        var frames: [ScrollFrame] = []
        for _ in 0..<200_000 { frames.append(scroll.next()) }

        // Then every frame's viewport lies within the content
        let outside = frames.count { $0.visibleRect.minY < 0 || $0.visibleRect.minY > maxOffset }
        #expect(outside == 0, "\(outside) of \(frames.count) frames past the content")
        // And it turned back at either end, moving both ways at 600 pt/s
        let down = frames.count { $0.velocity == 600 }
        let up = frames.count { $0.velocity == -600 }
        #expect(down > 0 && up > 0 && down + up == frames.count)
    }
}
#endif
