#if Tools
import Testing

@testable import LookaheadLive

@Suite("Demo session without a terminal", .realTime, .timeLimit(.minutes(1)))
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
        let summary = try #require(try await session.run().first)

        // Then frames were counted, and loads completed and filled cells
        #expect(summary.frames > 0)
        #expect(summary.visibleCellFrames >= summary.frames)
        #expect(!summary.wasInterrupted)
        if RealTimeTests.checkWhatLands {
            #expect(summary.loadsCompleted > 0)
            #expect(summary.bytes > 0)
            #expect(
                summary.blankCellFrames < summary.visibleCellFrames, "no visible cell was ever filled: \(summary.text)")
        }
    }
}

@Suite("Demo comparison without a terminal", .realTime, .timeLimit(.minutes(1)))
struct DemoComparisonTests {
    @Test("--compare runs system and the chosen strategy over the same scroll, each with its own fetcher")
    @MainActor
    func comparison() async throws {
        // Given a comparison of system and adaptive over an in-process feed answering in 1 ms (seed 1)
        let configuration = try DemoConfiguration.parse(
            durationSeconds: 1, latencyMedianMilliseconds: 1, latencyP99Milliseconds: 1, items: 200, compare: true)
        #expect(configuration.strategies == [.system, .adaptive])
        let feed = DemoFeed.simulated(
            itemCount: 200, latencyMedian: .milliseconds(1), latencyP99: .milliseconds(1), seed: 1,
            clock: ContinuousClock())

        // When it runs
        let summaries = try await DemoSession(configuration: configuration, feed: feed, terminal: nil).run()

        // Then each grid saw every frame of the same scroll and loaded on its own
        #expect(summaries.map(\.strategy) == [.system, .adaptive])
        #expect(summaries[0].frames == summaries[1].frames)
        #expect(
            summaries[0].visibleCellFrames == summaries[1].visibleCellFrames, "the same scroll shows the same cells")
        if RealTimeTests.checkWhatLands {
            #expect(summaries.allSatisfy { $0.loadsCompleted > 0 })
        }
    }

    @Test("--compare needs a strategy other than system")
    func compareWithSystemIsRefused() {
        #expect(throws: DemoConfigurationError.self) {
            try DemoConfiguration.parse(strategy: "system", compare: true)
        }
        #expect(throws: DemoConfigurationError.self) { try DemoConfiguration.parse(script: "sideways") }
    }
}

@Suite("Demo session over the embedded feed server", .realTime, .timeLimit(.minutes(1)))
struct DemoServerSessionTests {
    @Test("a short run loads its items over HTTP from the embedded server, then stops it")
    @MainActor
    func overHTTP() async throws {
        // Given the embedded server with 200 items answering in about 2 ms
        let configuration = try DemoConfiguration.parse(
            durationSeconds: 1, latencyMedianMilliseconds: 2, latencyP99Milliseconds: 4, items: 200)
        let source = try await DemoFeedSource.start(configuration: configuration)

        // When the demo runs over it
        let summaries: [DemoSummary]
        do {
            summaries = try await DemoSession(configuration: configuration, feed: source.feed, terminal: nil).run()
        } catch {
            await source.stop()
            throw error
        }
        await source.stop()
        let summary = try #require(summaries.first)

        // Then items arrived over HTTP, with their bytes, and filled visible cells
        #expect(summary.loadsFailed == 0)
        #expect(summary.bytes >= 100 * summary.loadsCompleted, "an item's JSON is well over 100 bytes: \(summary.text)")
        if RealTimeTests.checkWhatLands {
            #expect(summary.loadsCompleted > 0)
            #expect(
                summary.blankCellFrames < summary.visibleCellFrames, "no visible cell was ever filled: \(summary.text)")
        }
    }
}
#endif
