import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@Suite("Prefetch coordinator: recording traces for tuning", .queuedOnTheMainActor)
@MainActor
struct CoordinatorRecordingTests {
    @Test func recordsNothingUntilSwitchedOn() {
        let fixture = CoordinatorFixture()
        fixture.scroll(to: 100)
        #expect(fixture.coordinator.traceRecorder == nil)
        #expect(fixture.coordinator.latencyProfile == nil)
    }

    @Test func recordsEachPlannedFrameTheDragEndTargetAndTheScreen() throws {
        // Given a coordinator over a grid of equal cells, recording
        let fixture = CoordinatorFixture(itemCount: 2_000)
        fixture.coordinator.traceRecorder = ScrollTraceRecorder()
        // When it is scrolled, then a drag ends in a fling
        fixture.scroll(to: 0)
        fixture.scroll(to: 40)
        fixture.endDragging(at: 80, velocity: 6_000, target: 3_000)
        fixture.scroll(to: 300)
        // Then each frame is in the trace, the target only on the frame it was announced
        let recorder = try #require(fixture.coordinator.traceRecorder)
        #expect(recorder.samples.map(\.offset) == [0, 40, 80, 300])
        #expect(recorder.samples.map(\.targetOffset) == [nil, nil, 3_000, nil])
        // And the screen and the uniform cells are described
        #expect(recorder.viewport == fixture.view.bounds.size)
        #expect(recorder.itemCount == 2_000)
        let cell = try #require(fixture.view.itemFrames(in: fixture.view.bounds).first?.frame.size)
        #expect(recorder.itemSize == cell)
        #expect(recorder.csv().contains("# items=2000\n"))
    }
}
