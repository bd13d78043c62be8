#if Tools
import Foundation
import Logging
import Lookahead
import LookaheadHTTP
import LookaheadServer
import LookaheadSimulation
import Testing

@testable import LookaheadLive

/// The real replay's loader against the embedded feed server: what it
/// counts is what the server sees.
@Suite("Replay loader", .realTime, .timeLimit(.minutes(1)))
struct ReplayLoaderTests {
    @Test("Once the replay has taken its counts, the loader sends nothing more: every GET the server saw was counted")
    func finishedLoaderSendsNothing() async throws {
        // Given a loader that has sent one GET to the embedded server
        let scenario = ReplayTestScenario.make()
        let logger = Logger(label: "replay-loader-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = FeedServer(configuration: RealReplay(scenario: scenario).serverConfiguration, logger: logger)
        let baseURL = try await server.start()
        let http = HTTPLoader(
            baseURL: baseURL, configuration: HTTPLoaderConfiguration(), clock: ContinuousClock(), logger: logger)
        let loader = ReplayLoader(
            http: http, network: scenario.network, keys: LoadKeys(strategy: .system, scenario: scenario),
            elapsed: { .zero }, logger: logger)
        let payload = try await loader.load(0)
        #expect(payload.ids == [1])

        // When the replay takes its counts at the end of the trace, and a
        // worker starts a load that was still queued
        let counts = loader.finish()
        await #expect(throws: CancellationError.self) { _ = try await loader.load(1) }

        // Then that load was not sent: the server saw exactly the GETs counted
        try? await http.shutdown()
        #expect(counts.requests == 1)
        #expect(loader.finish().requests == counts.requests)
        #expect(server.statistics.requests == counts.requests)
        await server.stop()
    }
}
#endif
