import Testing

@testable import LookaheadLive

@Suite("Demo session without a terminal", .timeLimit(.minutes(1)))
struct DemoSessionTests {
    @Test("a short scripted run loads what it shows and counts every frame's visible cells")
    @MainActor
    func scriptedRun() async throws {
        // Given an in-process feed answering in 1 ms (seed 1)
        let configuration = try DemoConfiguration.parse(
            durationSeconds: 1, latencyMedianMilliseconds: 1, latencyP99Milliseconds: 1, items: 200)
        let feed = DemoFeed.simulated(
            itemCount: 200, latencyMedian: .milliseconds(1), latencyP99: .milliseconds(1), seed: 1,
            clock: ContinuousClock())
        let session = DemoSession(
            configuration: configuration, feed: feed, terminal: nil)

        // When it runs its scripted scroll
        let summary = try await session.run()

        // Then frames were counted, and loads completed and filled cells
        #expect(summary.frames > 0)
        #expect(summary.visibleCellFrames >= summary.frames)
        #expect(summary.loadsCompleted > 0)
        #expect(summary.bytes > 0)
        #expect(summary.blankCellFrames < summary.visibleCellFrames, "no visible cell was ever filled: \(summary.text)")
        #expect(!summary.wasInterrupted)
    }
}
